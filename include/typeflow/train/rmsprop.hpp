// typeflow/train/rmsprop.hpp — tf.train.RMSPropOptimizer, plain and centered.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// RMSPropOptimizer's `centered=True`, as a tag: `rmsprop(lr, decay, momentum, epsilon,
/// train::centered)`. Centering adds the slot "mg" (the moving mean of the gradient), so it
/// is known when the graph is built.
struct centered_t {
  explicit constexpr centered_t() = default;
};
inline constexpr centered_t centered{};

/// ms = decay ms + (1 - decay) g^2; mom = momentum mom + lr g / sqrt(ms + epsilon);
/// var -= mom. Centered, also mg = decay mg + (1 - decay) g, and the denominator is
/// sqrt(ms - mg^2 + epsilon): the gradient's variance rather than its second moment.
/// Slots as TensorFlow 1.x names them: "w/RMSProp" (ms, initialized to ones, as TensorFlow
/// does), then, centered, "w/RMSProp_1" (mg, zeros), then the momentum, zeros:
/// "w/RMSProp_1", or "w/RMSProp_2" when centered. The hyperparameters are scalar nodes.
template <fixed_string Name, class LR, class Decay, class M, class Eps, bool Centered = false>
struct rmsprop_def : no_step_state, optimizer_info<Name, "RMSProp"> {
  using hyper_nodes = mp::mp_list<LR, Decay, M, Eps>;
  template <class V>
  using ms_slot = slot_t<V, Name, 0, init::fixed<init::ones()>>;
  template <class V>
  using mg_slot = slot_t<V, Name, 1>;
  template <class V>
  using momentum_slot = slot_t<V, Name, Centered ? 2 : 1>;
  template <class V>
  using slots = std::conditional_t<Centered, mp::mp_list<ms_slot<V>, mg_slot<V>, momentum_slot<V>>,
                                   mp::mp_list<ms_slot<V>, momentum_slot<V>>>;
  /// The slots' names for get_slot, in the order of slots, as TensorFlow names them.
  static constexpr auto slot_names = [] {
    if constexpr (Centered) {
      return std::array<std::string_view, 3>{"rms", "mg", "momentum"};
    } else {
      return std::array<std::string_view, 2>{"rms", "momentum"};
    }
  }();

  struct step_values {
    double learning_rate, decay, momentum, epsilon;
  };
  template <class V, class Ctx>
  static step_values prepare(Ctx& ctx) {
    return {detail::hyper_value<LR>(ctx), detail::hyper_value<Decay>(ctx), detail::hyper_value<M>(ctx),
            detail::hyper_value<Eps>(ctx)};
  }

  /// The rule on n elements: the dense gradient's, and each touched row's of a sparse one
  /// (TensorFlow's SparseApplyRMSProp and SparseApplyCenteredRMSProp: the dense rule on
  /// the rows looked up; the other rows' slots do not decay).
  template <class T>
  static void update(const step_values& h, std::size_t n, T* __restrict v, T* __restrict ms, T* __restrict mg,
                     T* __restrict mom, const T* __restrict g) {
    const T lr = static_cast<T>(h.learning_rate), rho = static_cast<T>(h.decay),
            mu = static_cast<T>(h.momentum), eps = static_cast<T>(h.epsilon);
    for (std::size_t i = 0; i < n; ++i) {
      ms[i] = rho * ms[i] + (T(1) - rho) * g[i] * g[i];
      T denominator = ms[i] + eps;
      if constexpr (Centered) {
        mg[i] = rho * mg[i] + (T(1) - rho) * g[i];
        denominator -= mg[i] * mg[i];
      }
      mom[i] = mu * mom[i] + lr * g[i] / std::sqrt(denominator);
      v[i] -= mom[i];
    }
  }
  template <class V, class Ctx>
  static auto slot_data(Ctx& ctx) {
    using T = value_type_of<V>;
    T* mg = nullptr;
    if constexpr (Centered) mg = detail::data_of(ctx.template slot_of<mg_slot<V>>().value);
    return std::array<T*, 4>{detail::data_of(ctx.template slot_of<V>().value),
                             detail::data_of(ctx.template slot_of<ms_slot<V>>().value), mg,
                             detail::data_of(ctx.template slot_of<momentum_slot<V>>().value)};
  }

  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const step_values& h, const G& g) {
    const auto [v, ms, mg, mom] = slot_data<V>(ctx);
    update(h, shape_of<V>::size, v, ms, mg, mom, detail::data_of(g));
  }
  template <class V, class Ctx>
  static void apply_sparse(Ctx& ctx, const step_values& h, const unique_slices<value_type_of<V>>& s) {
    const auto [v, ms, mg, mom] = slot_data<V>(ctx);
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::size_t at = static_cast<std::size_t>(s.row(k)) * s.width();
      update(h, s.width(), v + at, ms + at, Centered ? mg + at : nullptr, mom + at, s.values(k));
    }
  }
};

namespace detail {
/// In a diagnostic: rmsprop's fifth argument, when it is not train::centered.
template <class Given>
struct rmsprop_centered_must_be_the_tag_train_centered {
  static constexpr bool value = false;
};

template <fixed_string Name, bool Centered, class LR, class Decay, class M, class Eps>
auto make_rmsprop(const LR& learning_rate, const Decay& decay, const M& momentum, const Eps& epsilon) {
  using def = rmsprop_def<Name, hyperparameter_t<Name, "learning_rate", LR>, hyperparameter_t<Name, "decay", Decay>,
                          hyperparameter_t<Name, "momentum", M>, hyperparameter_t<Name, "epsilon", Eps>, Centered>;
  return optimizer<def>(std::make_tuple(hyperparameter<Name, "learning_rate">(learning_rate),
                                        hyperparameter<Name, "decay">(decay), hyperparameter<Name, "momentum">(momentum),
                                        hyperparameter<Name, "epsilon">(epsilon)));
}
}  // namespace detail

/// `rmsprop(learning_rate, decay = 0.9, momentum = 0, epsilon = 1e-10)`, each a number or
/// a scalar node.
template <fixed_string Name = "RMSProp", class LR, class Decay = double, class M = double, class Eps = double>
auto rmsprop(const LR& learning_rate, const Decay& decay = 0.9, const M& momentum = 0.0, const Eps& epsilon = 1e-10) {
  return detail::make_rmsprop<Name, false>(learning_rate, decay, momentum, epsilon);
}

/// `rmsprop(learning_rate, decay, momentum, epsilon, train::centered)`: TensorFlow's
/// `RMSPropOptimizer(..., centered=True)`.
template <fixed_string Name = "RMSProp", class LR, class Decay, class M, class Eps, class Centering>
auto rmsprop(const LR& learning_rate, const Decay& decay, const M& momentum, const Eps& epsilon, const Centering&) {
  if constexpr (!std::is_same_v<Centering, centered_t>) {
    static_assert(detail::rmsprop_centered_must_be_the_tag_train_centered<Centering>::value,
                  "rmsprop(lr, decay, momentum, epsilon, centered): centering adds the slot 'mg', so it is known "
                  "when the graph is built: pass train::centered, or nothing for TensorFlow's centered=False");
    return detail::make_rmsprop<Name, false>(learning_rate, decay, momentum, epsilon);
  } else {
    return detail::make_rmsprop<Name, true>(learning_rate, decay, momentum, epsilon);
  }
}

}  // namespace typeflow::train
