// typeflow/train/momentum.hpp — tf.train.MomentumOptimizer (with use_nesterov).
#pragma once

#include <array>
#include <string_view>

#include "typeflow/core/detail/independent_loop.hpp"
#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// accum = momentum * accum + g; var -= lr * accum, or with Nesterov
/// var -= lr * (g + momentum * accum). Slot "v/Momentum" (or "v/<Name>"), zeros.
template <fixed_string Name, class LR, class M>
struct momentum_def : no_step_state, optimizer_info<Name, "Momentum"> {
  /// use_nesterov, a bool known when the graph is built, as TensorFlow's.
  using use_nesterov_node = named_constant_node<join_names<Name, "use_nesterov">(), bool, scalar>;
  using hyper_nodes = mp::mp_list<LR, M, use_nesterov_node>;
  template <class V>
  using slots = mp::mp_list<slot_t<V, Name>>;
  /// The slot's name for get_slot, as TensorFlow's get_slot_names().
  static constexpr std::array<std::string_view, 1> slot_names{"momentum"};

  struct step_values {
    double learning_rate, momentum;
    bool use_nesterov;
  };
  template <class V, class Ctx>
  static step_values prepare(Ctx& ctx) {
    return {detail::hyper_value<LR>(ctx), detail::hyper_value<M>(ctx), bool(ctx.template value<use_nesterov_node>())};
  }
  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const step_values& h, const G& g) {
    using T = value_type_of<V>;
    T* v = detail::data_of(ctx.template slot_of<V>().value);
    T* a = detail::data_of(ctx.template slot_of<slot_t<V, Name>>().value);
    const T* gp = detail::data_of(g);
    const T lr = static_cast<T>(h.learning_rate), m = static_cast<T>(h.momentum);
    if (h.use_nesterov) {
      core::detail::independent_loop<shape_of<V>::size>([&](std::size_t i) {
        a[i] = m * a[i] + gp[i];
        v[i] -= lr * (gp[i] + m * a[i]);
      });
    } else {
      core::detail::independent_loop<shape_of<V>::size>([&](std::size_t i) {
        a[i] = m * a[i] + gp[i];
        v[i] -= lr * a[i];
      });
    }
  }
  // A sparse gradient: TensorFlow's SparseApplyMomentum, the dense rule on the touched rows
  // only (the other rows' accumulators do not decay).
  template <class V, class Ctx>
  static void apply_sparse(Ctx& ctx, const step_values& h, const unique_slices<value_type_of<V>>& s) {
    using T = value_type_of<V>;
    T* v = detail::data_of(ctx.template slot_of<V>().value);
    T* a = detail::data_of(ctx.template slot_of<slot_t<V, Name>>().value);
    const T lr = static_cast<T>(h.learning_rate), m = static_cast<T>(h.momentum);
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::size_t at = static_cast<std::size_t>(s.row(k)) * s.width();
      T* __restrict vr = v + at;
      T* __restrict ar = a + at;
      const T* __restrict g = s.values(k);
      for (std::size_t j = 0; j < s.width(); ++j) {
        ar[j] = m * ar[j] + g[j];
        vr[j] -= h.use_nesterov ? lr * (g[j] + m * ar[j]) : lr * ar[j];
      }
    }
  }
};

/// `momentum(0.01, 0.9)`, `momentum(0.01, 0.9, true)` for Nesterov momentum. The learning
/// rate and the momentum are numbers or scalar nodes.
template <fixed_string Name = "Momentum", class LR, class M>
auto momentum(const LR& learning_rate, const M& momentum, bool use_nesterov = false) {
  using def = momentum_def<Name, detail::hyperparameter_t<Name, "learning_rate", LR>,
                           detail::hyperparameter_t<Name, "momentum", M>>;
  return optimizer<def>(std::make_tuple(detail::hyperparameter<Name, "learning_rate">(learning_rate),
                         detail::hyperparameter<Name, "momentum">(momentum),
                         typeflow::constant<join_names<Name, "use_nesterov">(), bool, scalar>(use_nesterov)));
}

}  // namespace typeflow::train
