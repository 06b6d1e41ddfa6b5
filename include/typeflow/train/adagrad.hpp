// typeflow/train/adagrad.hpp — tf.train.AdagradOptimizer.
#pragma once

#include <cmath>

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// accum += g^2; var -= lr * g / sqrt(accum). Slot "w/Adagrad", initialized to
/// initial_accumulator_value (0.1).
template <fixed_string Name>
struct adagrad_def : no_step_state {
  static constexpr auto name = Name;
  static constexpr std::string_view kind_name = "adagrad";
  static constexpr std::string_view op_name = "Adagrad";
  struct hyper {
    double learning_rate = 0.01;
    double initial_accumulator_value = 0.1;
    friend bool operator==(const hyper&, const hyper&) = default;
  };
  template <class V>
  using slots = mp::mp_list<slot_t<V, Name>>;
  template <class V>
  static void define_slots() {
    slot_t<V, Name>::define(init::constant(train::detail::hyperparameters<adagrad_def>().initial_accumulator_value));
  }

  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const hyper& h, int, const G& g) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict acc = detail::data_of(ctx.template slot_of<slot_t<V, Name>>().value);
    const T* __restrict gp = detail::data_of(g);
    const T lr = static_cast<T>(h.learning_rate);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) {
      acc[i] += gp[i] * gp[i];
      v[i] -= lr * gp[i] / std::sqrt(acc[i]);
    }
  }
};

template <fixed_string Name = "Adagrad">
using adagrad_optimizer = optimizer<adagrad_def<Name>>;

/// `adagrad(learning_rate, initial_accumulator_value = 0.1)`.
template <fixed_string Name = "Adagrad">
adagrad_optimizer<Name> adagrad(double learning_rate, double initial_accumulator_value = 0.1) {
  return adagrad_optimizer<Name>({learning_rate, initial_accumulator_value});
}

}  // namespace typeflow::train
