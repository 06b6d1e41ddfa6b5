// typeflow/train/adam.hpp — tf.train.AdamOptimizer.
#pragma once

#include <array>
#include <cmath>
#include <string_view>

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

namespace detail {
template <fixed_string OptName, fixed_string Var>
constexpr auto non_slot_name() {
  // TensorFlow's default optimizer owns "beta1_power"; another name prefixes it.
  if constexpr (OptName == fixed_string("Adam")) {
    return Var;
  } else {
    return join_names<OptName, Var>();
  }
}
}  // namespace detail

/// TensorFlow's Adam: with t the step, lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t);
/// m = beta1 m + (1 - beta1) g; v = beta2 v + (1 - beta2) g^2;
/// var -= lr_t * m / (sqrt(v) + epsilon). Slots "w/Adam" (m) and "w/Adam_1" (v);
/// non-slot variables "beta1_power" and "beta2_power" (initialized to beta1 and beta2,
/// multiplied by them once per step). The hyperparameters are scalar nodes (LR, B1, B2, Eps).
template <fixed_string Name, class LR, class B1, class B2, class Eps>
struct adam_def : optimizer_info<Name, "Adam"> {
  using hyper_nodes = mp::mp_list<LR, B1, B2, Eps>;
  template <class V>
  using slots = mp::mp_list<slot_t<V, Name, 0>, slot_t<V, Name, 1>>;
  /// The slots' names for get_slot, as TensorFlow's get_slot_names().
  static constexpr std::array<std::string_view, 2> slot_names{"m", "v"};
  template <class V>
  using beta1_power = variable_node<detail::non_slot_name<Name, "beta1_power">(), value_type_of<V>, scalar,
                                    init::not_trainable<detail::initial_value_t<"beta1", B1>>>;
  template <class V>
  using beta2_power = variable_node<detail::non_slot_name<Name, "beta2_power">(), value_type_of<V>, scalar,
                                    init::not_trainable<detail::initial_value_t<"beta2", B2>>>;
  template <class V>
  using non_slots = mp::mp_list<beta1_power<V>, beta2_power<V>>;

  struct step_values {
    double lr_t, beta1, beta2, epsilon;
  };
  template <class V, class Ctx>
  static step_values prepare(Ctx& ctx) {
    const double b1p = static_cast<double>(ctx.template slot_of<beta1_power<V>>().value);
    const double b2p = static_cast<double>(ctx.template slot_of<beta2_power<V>>().value);
    const double lr = detail::hyper_value<LR>(ctx);
    return {lr * std::sqrt(1 - b2p) / (1 - b1p), detail::hyper_value<B1>(ctx), detail::hyper_value<B2>(ctx),
            detail::hyper_value<Eps>(ctx)};
  }
  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const step_values& h, const G& g) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict m = detail::data_of(ctx.template slot_of<slot_t<V, Name, 0>>().value);
    T* __restrict s = detail::data_of(ctx.template slot_of<slot_t<V, Name, 1>>().value);
    const T* __restrict gp = detail::data_of(g);
    const T b1 = static_cast<T>(h.beta1), b2 = static_cast<T>(h.beta2), eps = static_cast<T>(h.epsilon);
    const T lr = static_cast<T>(h.lr_t);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) {
      m[i] = b1 * m[i] + (T(1) - b1) * gp[i];
      s[i] = b2 * s[i] + (T(1) - b2) * gp[i] * gp[i];
      v[i] -= lr * m[i] / (std::sqrt(s[i]) + eps);
    }
  }
  // A sparse gradient: TensorFlow 1.x's AdamOptimizer._apply_sparse, which decays every
  // row's moments, adds the rows' gradient to the touched ones and updates every row of the
  // variable: the dense rule on the scattered gradient, without the dense gradient (the
  // touched rows' arithmetic is the dense rule's, so the two agree bit for bit).
  template <class V, class Ctx>
  static void apply_sparse(Ctx& ctx, const step_values& h, const unique_slices<value_type_of<V>>& sl) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict m = detail::data_of(ctx.template slot_of<slot_t<V, Name, 0>>().value);
    T* __restrict s = detail::data_of(ctx.template slot_of<slot_t<V, Name, 1>>().value);
    const T b1 = static_cast<T>(h.beta1), b2 = static_cast<T>(h.beta2), eps = static_cast<T>(h.epsilon);
    const T lr = static_cast<T>(h.lr_t);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) {
      m[i] = b1 * m[i];
      s[i] = b2 * s[i];
    }
    for (std::size_t k = 0; k < sl.size(); ++k) {
      const std::size_t at = static_cast<std::size_t>(sl.row(k)) * sl.width();
      const T* g = sl.values(k);
      for (std::size_t j = 0; j < sl.width(); ++j) {
        m[at + j] += (T(1) - b1) * g[j];
        s[at + j] += (T(1) - b2) * g[j] * g[j];
      }
    }
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) v[i] -= lr * m[i] / (std::sqrt(s[i]) + eps);
  }
  template <class V, class Ctx>
  static void finish(Ctx& ctx, const step_values& h) {
    using T = value_type_of<V>;
    ctx.template slot_of<beta1_power<V>>().value *= static_cast<T>(h.beta1);
    ctx.template slot_of<beta2_power<V>>().value *= static_cast<T>(h.beta2);
  }
};

/// `adam(1e-3).minimize(loss)`, TensorFlow 1.x's defaults. Each hyperparameter is a number
/// (the named constant "Adam/learning_rate", ...) or a scalar node: `adam(lr)` with `lr` a
/// placeholder, a variable or train::exponential_decay(...). beta1 and beta2 initialize
/// beta1_power and beta2_power: numbers or literals. `adam<"Adam2">(...)` names another one.
template <fixed_string Name = "Adam", class LR = double, class B1 = double, class B2 = double, class Eps = double>
auto adam(const LR& learning_rate = 0.001, const B1& beta1 = 0.9, const B2& beta2 = 0.999,
          const Eps& epsilon = 1e-8) {
  using def = adam_def<Name, detail::hyperparameter_t<Name, "learning_rate", LR>, detail::hyperparameter_t<Name, "beta1", B1>,
                       detail::hyperparameter_t<Name, "beta2", B2>, detail::hyperparameter_t<Name, "epsilon", Eps>>;
  return optimizer<def>(std::make_tuple(detail::hyperparameter<Name, "learning_rate">(learning_rate),
                         detail::hyperparameter<Name, "beta1">(beta1), detail::hyperparameter<Name, "beta2">(beta2),
                         detail::hyperparameter<Name, "epsilon">(epsilon)));
}

/// The type of `adam<Name>(numbers...)`.
template <fixed_string Name = "Adam">
using adam_optimizer = decltype(adam<Name>());

}  // namespace typeflow::train
