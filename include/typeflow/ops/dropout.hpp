// typeflow/ops/dropout.hpp — tf.nn.dropout (TF 1.x, with `rate`) and tf.layers.dropout.
//
// dropout(x) = x * mask, mask = 1 / (1 - rate) where a uniform draw u in [0, 1) has
// u >= rate, else 0 (TensorFlow's dropout_v2). The mask is its own node, an effect that draws
// a new mask on each run that computes it; the product's gradient is then g * mask, the
// same mask, as TensorFlow's Mul gradient gives it.
//
// Random state lives in the session: each op seed Seed has a hidden int64 counter variable
// "dropout/random_state_<Seed>" (hidden_state_node: initialized with the others, left out
// of savers, so checkpoints neither carry nor need it; an uninitialized counter, after a
// restore, counts as 0). A mask is drawn from splitmix64 seeded by (Seed, the session's graph
// seed, the counter), and the counter is advanced: the masks are reproducible from the
// seeds and differ from run to run.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/select.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow {

/// In a diagnostic: dropout of x of this element type, which is not float or double.
template <class ElementType>
struct dropout_needs_a_float_or_double_input {
  static constexpr bool value = false;
};
/// In a diagnostic: dropout's noise_shape, which does not broadcast to x's shape.
template <class NoiseShape, class XShape>
struct dropout_noise_shape_must_broadcast_to_x {
  static constexpr bool value = false;
};
/// In a diagnostic: dropout's rate, of this element type and shape: not a floating scalar.
template <class ElementType, class Shape>
struct dropout_rate_must_be_a_floating_scalar {
  static constexpr bool value = false;
};

namespace ops::detail {

/// "dropout/random_state_<Seed>".
template <std::uint64_t Seed>
constexpr auto dropout_state_name() {
  return numbered_name<"dropout/random_state_", Seed>();
}

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The start of a seeded random op's stream for one run: splitmix64 mixing its op seed, the
/// session's graph seed and its counter (dropout's masks, the candidate sampler, the random
/// ops).
constexpr std::uint64_t seeded_state(std::uint64_t op_seed, std::uint64_t graph_seed, std::uint64_t count) {
  std::uint64_t state = op_seed;
  state = splitmix64(state) ^ graph_seed;
  state = splitmix64(state) ^ count;
  return splitmix64(state);
}

/// The value of the rate operand (a number, or a rank-0 xtensor container or expression).
template <class V>
double rate_value(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return static_cast<double>(v);
  } else {
    return static_cast<double>(v());
  }
}

/// mask[i] = scale where a uniform draw u_i in [0, 1) has u_i >= rate, else 0; u from
/// splitmix64 seeded by (op seed, graph seed, count).
template <class T>
void dropout_mask(T* out, std::size_t n, double rate, std::uint64_t op_seed, std::uint64_t graph_seed,
                  std::uint64_t count) {
  const std::uint64_t state = seeded_state(op_seed, graph_seed, count);
  const T scale = T(1) / (T(1) - static_cast<T>(rate));
  // Draw i is splitmix64's (i + 1)-th from `state`: the mix of state + (i + 1) gamma, so the
  // draws do not wait on each other. u_i = (z >> 11) 2^-53 >= rate exactly when the integer
  // z >> 11 >= ceil(rate 2^53) (scaling by 2^53 is exact), a compare without the double.
  constexpr std::uint64_t gamma = 0x9e3779b97f4a7c15ULL;
  const auto threshold = static_cast<std::uint64_t>(std::ceil(rate * 0x1.0p53));
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t z = state + (std::uint64_t(i) + 1) * gamma;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    out[i] = (z >> 11) >= threshold ? scale : T(0);
  }
}

template <class NoiseShape, class X>
constexpr bool noise_shape_broadcasts() {
  using S = shape_of<X>;
  if constexpr (NoiseShape::rank != S::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < S::rank; ++i)
      if (NoiseShape::dims[i] != 1 && NoiseShape::dims[i] != dyn && S::dims[i] != dyn &&
          NoiseShape::dims[i] != S::dims[i])
        return false;
    return true;
  }
}

}  // namespace ops::detail

/// The counter of the dropout masks of op seed Seed, in each session: hidden state.
template <std::uint64_t Seed>
struct dropout_state_node : variable_node<ops::detail::dropout_state_name<Seed>(), std::int64_t, scalar,
                                          init::fixed<init::zeros()>> {
  static constexpr bool is_hidden_state = true;
};

/// A dropout mask of shape S (dyn dims taken from x's value): 1 / (1 - rate) or 0 per
/// element, drawn anew on each run that computes it (op RandomUniform with the comparison
/// and scale of dropout_v2). No gradient flows through it. A rate of 0 gives ones and draws
/// nothing.
template <std::uint64_t Seed, class S, class X, class Rate>
struct dropout_mask_node : writer_facade<value_type_of<X>, S, node_kind::effect,
                                         mp::mp_list<dropout_state_node<Seed>>, X, Rate>,
                           op_info<"RandomUniform"> {
  using output_type = storage_t<value_type_of<X>, S>;
  using reads = mp::mp_list<>;  // an uninitialized counter counts as 0
  template <class... N>
  using rebind = dropout_mask_node<Seed, S, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Ctx>
  static void run(Ctx& ctx) {
    using T = value_type_of<X>;
    const double rate = ops::detail::rate_value(ctx.template value<Rate>());
    if (!(rate >= 0.0 && rate < 1.0))
      throw invalid_argument_error("dropout: rate must be a scalar in the range [0, 1), got " + std::to_string(rate));
    auto dims = ops::detail::dims_of<S::rank>(ctx.template value<X>());
    for (std::size_t i = 0; i < S::rank; ++i)
      if (S::dims[i] != dyn) dims[i] = static_cast<std::size_t>(S::dims[i]);
    auto& out = ctx.template buffer<dropout_mask_node>();
    ops::detail::resize_unless_static<S::is_static>(out, dims);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    const std::size_t n = ops::detail::dims_product(dims, 0, S::rank);
    if (rate == 0.0) {
      for (std::size_t i = 0; i < n; ++i) o[i] = T(1);
    } else {
      auto& slot = ctx.template slot_of<dropout_state_node<Seed>>();
      const std::int64_t count = slot.initialized ? slot.value : 0;
      slot.value = count + 1;
      slot.initialized = true;
      ops::detail::dropout_mask(o, n, rate, Seed, ctx.session.random_seed(), static_cast<std::uint64_t>(count));
    }
    ops::detail::store_scalar(out, scalar);
  }
};

/// `dropout<seed>(x, rate)` is tf.nn.dropout(x, rate=rate, seed=seed) (TF 1.x): each element
/// kept with probability 1 - rate and scaled by 1 / (1 - rate), else 0; a new mask on each
/// run, reproducible from the op seed and the session's graph seed (session::set_random_seed).
/// rate is a floating scalar node (`constant<0.5>()`, a placeholder). `dropout<seed,
/// shape<dyn, 1>>(x, rate)` is noise_shape=[batch, 1]: one draw per row, broadcast.
/// Gradient: g * mask, the same mask. Dropouts with one seed share one counter.
template <std::uint64_t Seed = 0, class NoiseShape = void, node X, node Rate>
auto dropout(const X& x, const Rate& rate) {
  using S = std::conditional_t<std::is_void_v<NoiseShape>, shape_of<X>, NoiseShape>;
  if constexpr (!floating_element<value_type_of<X>>) {
    static_assert(dropout_needs_a_float_or_double_input<value_type_of<X>>::value,
                  "typeflow::dropout(x, rate) needs a float or double x: use typeflow::cast<float>(x)");
    return x;  // inert: the error above is the one to read
  } else if constexpr (!floating_element<value_type_of<Rate>> || shape_of<Rate>::rank != 0) {
    static_assert(dropout_rate_must_be_a_floating_scalar<value_type_of<Rate>, shape_of<Rate>>::value,
                  "typeflow::dropout(x, rate): rate must be a float or double scalar node, e.g. "
                  "typeflow::constant<0.5>()");
    return x;
  } else if constexpr (!ops::detail::noise_shape_broadcasts<S, X>()) {
    static_assert(dropout_noise_shape_must_broadcast_to_x<S, shape_of<X>>::value,
                  "typeflow::dropout<seed, noise_shape>(x, rate): noise_shape must have x's rank, each dim "
                  "x's or 1");
    return x;
  } else {
    auto mask = make_node<dropout_mask_node<Seed, S, X, Rate>>(x, rate);
    return x * mask;
  }
}

namespace layers {

/// `dropout<seed>(x, rate, training)` is tf.layers.dropout(x, rate, training=training,
/// seed=seed): dropout(x, rate) when the bool scalar node `training` holds, x when not (the
/// mask is then all ones and nothing is drawn).
template <std::uint64_t Seed = 0, class NoiseShape = void, node X, node Rate, node Training>
auto dropout(const X& x, const Rate& rate, const Training& training) {
  static_assert(std::is_same_v<value_type_of<Training>, bool> && shape_of<Training>::rank == 0,
                "layers::dropout(x, rate, training): training must be a bool scalar node");
  if constexpr (!floating_element<value_type_of<Rate>>) {
    return typeflow::dropout<Seed, NoiseShape>(x, rate);  // reports the rate
  } else {
    return typeflow::dropout<Seed, NoiseShape>(x, where(training, rate, constant<0.0, value_type_of<Rate>>()));
  }
}

}  // namespace layers
}  // namespace typeflow
