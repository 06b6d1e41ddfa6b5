// typeflow/train/adagrad.hpp — tf.train.AdagradOptimizer.
#pragma once

#include <array>
#include <cmath>
#include <string_view>

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// accum += g^2; var -= lr * g / sqrt(accum). Slot "w/Adagrad", initialized to
/// initial_accumulator_value (0.1), a number or a literal; the learning rate is a scalar node.
template <fixed_string Name, class LR, class Initial>
struct adagrad_def : no_step_state, optimizer_info<Name, "Adagrad"> {
  using hyper_nodes = mp::mp_list<LR, Initial>;
  template <class V>
  using accumulator = slot_t<V, Name, 0, detail::initial_value_t<"initial_accumulator_value", Initial>>;
  template <class V>
  using slots = mp::mp_list<accumulator<V>>;
  /// The slot's name for get_slot, as TensorFlow's get_slot_names().
  static constexpr std::array<std::string_view, 1> slot_names{"accumulator"};

  struct step_values {
    double learning_rate;
  };
  template <class V, class Ctx>
  static step_values prepare(Ctx& ctx) {
    return {detail::hyper_value<LR>(ctx)};
  }
  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const step_values& h, const G& g) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict acc = detail::data_of(ctx.template slot_of<accumulator<V>>().value);
    const T* __restrict gp = detail::data_of(g);
    const T lr = static_cast<T>(h.learning_rate);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) {
      acc[i] += gp[i] * gp[i];
      v[i] -= lr * gp[i] / std::sqrt(acc[i]);
    }
  }
  // A sparse gradient: TensorFlow's SparseApplyAdagrad, the dense rule on the touched rows.
  template <class V, class Ctx>
  static void apply_sparse(Ctx& ctx, const step_values& h, const unique_slices<value_type_of<V>>& s) {
    using T = value_type_of<V>;
    T* v = detail::data_of(ctx.template slot_of<V>().value);
    T* acc = detail::data_of(ctx.template slot_of<accumulator<V>>().value);
    const T lr = static_cast<T>(h.learning_rate);
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::size_t at = static_cast<std::size_t>(s.row(k)) * s.width();
      T* __restrict vr = v + at;
      T* __restrict ar = acc + at;
      const T* __restrict g = s.values(k);
      for (std::size_t j = 0; j < s.width(); ++j) {
        ar[j] += g[j] * g[j];
        vr[j] -= lr * g[j] / std::sqrt(ar[j]);
      }
    }
  }
};

/// `adagrad(learning_rate, initial_accumulator_value = 0.1)`.
template <fixed_string Name = "Adagrad", class LR, class Initial = double>
auto adagrad(const LR& learning_rate, const Initial& initial_accumulator_value = 0.1) {
  using def = adagrad_def<Name, detail::hyperparameter_t<Name, "learning_rate", LR>,
                          detail::hyperparameter_t<Name, "initial_accumulator_value", Initial>>;
  return optimizer<def>(std::make_tuple(detail::hyperparameter<Name, "learning_rate">(learning_rate),
                         detail::hyperparameter<Name, "initial_accumulator_value">(initial_accumulator_value)));
}

}  // namespace typeflow::train
