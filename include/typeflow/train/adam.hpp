// typeflow/train/adam.hpp — tf.train.AdamOptimizer.
#pragma once

#include <cmath>

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
/// multiplied by them once per step).
template <fixed_string Name>
struct adam_def {
  static constexpr auto name = Name;
  static constexpr std::string_view kind_name = "adam";
  static constexpr std::string_view op_name = "Adam";
  struct hyper {
    double learning_rate = 0.001;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    friend bool operator==(const hyper&, const hyper&) = default;
  };
  template <class V>
  using slots = mp::mp_list<slot_t<V, Name, 0>, slot_t<V, Name, 1>>;
  template <class V>
  static void define_slots() {
    slot_t<V, Name, 0>::define(init::zeros());
    slot_t<V, Name, 1>::define(init::zeros());
  }
  template <class V>
  using beta1_power = variable_node<detail::non_slot_name<Name, "beta1_power">(), value_type_of<V>, scalar>;
  template <class V>
  using beta2_power = variable_node<detail::non_slot_name<Name, "beta2_power">(), value_type_of<V>, scalar>;
  template <class V>
  using non_slots = mp::mp_list<beta1_power<V>, beta2_power<V>>;
  template <class V>
  static void define_non_slots() {
    const auto& h = train::detail::hyperparameters<adam_def>();
    beta1_power<V>::define(init::constant(h.beta1));
    beta2_power<V>::define(init::constant(h.beta2));
  }

  template <class V, class Ctx>
  static double prepare(Ctx& ctx, const hyper& h) {
    const double b1p = static_cast<double>(ctx.template slot_of<beta1_power<V>>().value);
    const double b2p = static_cast<double>(ctx.template slot_of<beta2_power<V>>().value);
    return h.learning_rate * std::sqrt(1 - b2p) / (1 - b1p);
  }
  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const hyper& h, double lr_t, const G& g) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict m = detail::data_of(ctx.template slot_of<slot_t<V, Name, 0>>().value);
    T* __restrict s = detail::data_of(ctx.template slot_of<slot_t<V, Name, 1>>().value);
    const T* __restrict gp = detail::data_of(g);
    const T b1 = static_cast<T>(h.beta1), b2 = static_cast<T>(h.beta2), eps = static_cast<T>(h.epsilon);
    const T lr = static_cast<T>(lr_t);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) {
      m[i] = b1 * m[i] + (T(1) - b1) * gp[i];
      s[i] = b2 * s[i] + (T(1) - b2) * gp[i] * gp[i];
      v[i] -= lr * m[i] / (std::sqrt(s[i]) + eps);
    }
  }
  template <class V, class Ctx>
  static void finish(Ctx& ctx, const hyper& h) {
    using T = value_type_of<V>;
    ctx.template slot_of<beta1_power<V>>().value *= static_cast<T>(h.beta1);
    ctx.template slot_of<beta2_power<V>>().value *= static_cast<T>(h.beta2);
  }
};

template <fixed_string Name = "Adam">
using adam_optimizer = optimizer<adam_def<Name>>;

/// `adam(1e-3).minimize(loss)`; TensorFlow 1.x defaults.
template <fixed_string Name = "Adam">
adam_optimizer<Name> adam(double learning_rate = 0.001, double beta1 = 0.9, double beta2 = 0.999,
                          double epsilon = 1e-8) {
  return adam_optimizer<Name>({learning_rate, beta1, beta2, epsilon});
}

}  // namespace typeflow::train
