// typeflow/train/rmsprop.hpp — tf.train.RMSPropOptimizer (not centered).
#pragma once

#include <cmath>

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// ms = decay ms + (1 - decay) g^2; mom = momentum mom + lr g / sqrt(ms + epsilon);
/// var -= mom. Slots "w/RMSProp" (ms, initialized to ones, as TensorFlow 1.x does) and
/// "w/RMSProp_1" (mom, zeros).
template <fixed_string Name>
struct rmsprop_def : no_step_state {
  static constexpr auto name = Name;
  static constexpr std::string_view kind_name = "rmsprop";
  static constexpr std::string_view op_name = "RMSProp";
  struct hyper {
    double learning_rate = 0.001;
    double decay = 0.9;
    double momentum = 0.0;
    double epsilon = 1e-10;
    friend bool operator==(const hyper&, const hyper&) = default;
  };
  template <class V>
  using slots = mp::mp_list<slot_t<V, Name, 0>, slot_t<V, Name, 1>>;
  template <class V>
  static void define_slots() {
    slot_t<V, Name, 0>::define(init::ones());
    slot_t<V, Name, 1>::define(init::zeros());
  }

  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const hyper& h, int, const G& g) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict ms = detail::data_of(ctx.template slot_of<slot_t<V, Name, 0>>().value);
    T* __restrict mom = detail::data_of(ctx.template slot_of<slot_t<V, Name, 1>>().value);
    const T* __restrict gp = detail::data_of(g);
    const T lr = static_cast<T>(h.learning_rate), rho = static_cast<T>(h.decay),
            mu = static_cast<T>(h.momentum), eps = static_cast<T>(h.epsilon);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) {
      ms[i] = rho * ms[i] + (T(1) - rho) * gp[i] * gp[i];
      mom[i] = mu * mom[i] + lr * gp[i] / std::sqrt(ms[i] + eps);
      v[i] -= mom[i];
    }
  }
};

template <fixed_string Name = "RMSProp">
using rmsprop_optimizer = optimizer<rmsprop_def<Name>>;

/// `rmsprop(learning_rate, decay = 0.9, momentum = 0, epsilon = 1e-10)`.
template <fixed_string Name = "RMSProp">
rmsprop_optimizer<Name> rmsprop(double learning_rate, double decay = 0.9, double momentum = 0.0,
                                double epsilon = 1e-10) {
  return rmsprop_optimizer<Name>({learning_rate, decay, momentum, epsilon});
}

}  // namespace typeflow::train
