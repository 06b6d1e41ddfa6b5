// typeflow/train/rmsprop.hpp — tf.train.RMSPropOptimizer (not centered).
#pragma once

#include <cmath>

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// ms = decay ms + (1 - decay) g^2; mom = momentum mom + lr g / sqrt(ms + epsilon);
/// var -= mom. Slots "w/RMSProp" (ms, initialized to ones, as TensorFlow 1.x does) and
/// "w/RMSProp_1" (mom, zeros). The hyperparameters are scalar nodes.
template <fixed_string Name, class LR, class Decay, class M, class Eps>
struct rmsprop_def : no_step_state, optimizer_info<Name, "RMSProp"> {
  using hyper_nodes = mp::mp_list<LR, Decay, M, Eps>;
  template <class V>
  using slots = mp::mp_list<slot_t<V, Name, 0, init::fixed<init::ones()>>, slot_t<V, Name, 1>>;

  struct step_values {
    double learning_rate, decay, momentum, epsilon;
  };
  template <class V, class Ctx>
  static step_values prepare(Ctx& ctx) {
    return {detail::hyper_value<LR>(ctx), detail::hyper_value<Decay>(ctx), detail::hyper_value<M>(ctx),
            detail::hyper_value<Eps>(ctx)};
  }
  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const step_values& h, const G& g) {
    using T = value_type_of<V>;
    T* __restrict v = detail::data_of(ctx.template slot_of<V>().value);
    T* __restrict ms = detail::data_of(ctx.template slot_of<slot_t<V, Name, 0, init::fixed<init::ones()>>>().value);
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
  // A sparse gradient: TensorFlow's SparseApplyRMSProp, the dense rule on the touched rows.
  template <class V, class Ctx>
  static void apply_sparse(Ctx& ctx, const step_values& h, const unique_slices<value_type_of<V>>& s) {
    using T = value_type_of<V>;
    T* v = detail::data_of(ctx.template slot_of<V>().value);
    T* ms = detail::data_of(ctx.template slot_of<slot_t<V, Name, 0, init::fixed<init::ones()>>>().value);
    T* mom = detail::data_of(ctx.template slot_of<slot_t<V, Name, 1>>().value);
    const T lr = static_cast<T>(h.learning_rate), rho = static_cast<T>(h.decay),
            mu = static_cast<T>(h.momentum), eps = static_cast<T>(h.epsilon);
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::size_t at = static_cast<std::size_t>(s.row(k)) * s.width();
      T* __restrict vr = v + at;
      T* __restrict msr = ms + at;
      T* __restrict momr = mom + at;
      const T* __restrict g = s.values(k);
      for (std::size_t j = 0; j < s.width(); ++j) {
        msr[j] = rho * msr[j] + (T(1) - rho) * g[j] * g[j];
        momr[j] = mu * momr[j] + lr * g[j] / std::sqrt(msr[j] + eps);
        vr[j] -= momr[j];
      }
    }
  }
};

/// `rmsprop(learning_rate, decay = 0.9, momentum = 0, epsilon = 1e-10)`; each a number or
/// a scalar node.
template <fixed_string Name = "RMSProp", class LR, class Decay = double, class M = double, class Eps = double>
auto rmsprop(const LR& learning_rate, const Decay& decay = 0.9, const M& momentum = 0.0, const Eps& epsilon = 1e-10) {
  using def = rmsprop_def<Name, detail::hyperparameter_t<Name, "learning_rate", LR>,
                          detail::hyperparameter_t<Name, "decay", Decay>, detail::hyperparameter_t<Name, "momentum", M>,
                          detail::hyperparameter_t<Name, "epsilon", Eps>>;
  return optimizer<def>(std::make_tuple(detail::hyperparameter<Name, "learning_rate">(learning_rate),
                         detail::hyperparameter<Name, "decay">(decay), detail::hyperparameter<Name, "momentum">(momentum),
                         detail::hyperparameter<Name, "epsilon">(epsilon)));
}

}  // namespace typeflow::train
