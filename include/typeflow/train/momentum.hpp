// typeflow/train/momentum.hpp — tf.train.MomentumOptimizer (with use_nesterov).
#pragma once

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// accum = momentum * accum + g; var -= lr * accum, or with Nesterov
/// var -= lr * (g + momentum * accum). Slot "v/Momentum" (or "v/<Name>"), zeros.
template <fixed_string Name>
struct momentum_def : no_step_state {
  static constexpr auto name = Name;
  static constexpr std::string_view kind_name = "momentum";
  static constexpr std::string_view op_name = "Momentum";
  struct hyper {
    double learning_rate = 0.01;
    double momentum = 0.9;
    bool use_nesterov = false;
    friend bool operator==(const hyper&, const hyper&) = default;
  };
  template <class V>
  using slots = mp::mp_list<slot_t<V, Name>>;
  template <class V>
  static void define_slots() {
    slot_t<V, Name>::define(init::zeros());
  }

  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const hyper& h, int, const G& g) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict a = detail::data_of(ctx.template slot_of<slot_t<V, Name>>().value);
    const T* __restrict gp = detail::data_of(g);
    const T lr = static_cast<T>(h.learning_rate), m = static_cast<T>(h.momentum);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) {
      a[i] = m * a[i] + gp[i];
      v[i] -= h.use_nesterov ? lr * (gp[i] + m * a[i]) : lr * a[i];
    }
  }
};

template <fixed_string Name = "Momentum">
using momentum_optimizer = optimizer<momentum_def<Name>>;

/// `momentum(0.01, 0.9)`, `momentum(0.01, 0.9, true)` for Nesterov momentum.
template <fixed_string Name = "Momentum">
momentum_optimizer<Name> momentum(double learning_rate, double momentum, bool use_nesterov = false) {
  return momentum_optimizer<Name>({learning_rate, momentum, use_nesterov});
}

}  // namespace typeflow::train
