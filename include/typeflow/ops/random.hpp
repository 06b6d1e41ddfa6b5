// typeflow/ops/random.hpp — tf.random_normal, tf.truncated_normal and tf.random_uniform
// (TensorFlow 1.x's stateful random ops): nodes that draw new values on each run.
//
// The shape is a template argument (`random_normal<shape<2, 3>>()`, every dim static) or a
// dims node, as TensorFlow's tensor shape argument (`random_normal(shape_op(mu))`, VAE's
// eps = tf.random_normal(tf.shape(mu))). The parameters (mean and stddev, minval and maxval)
// are scalar nodes of the dtype, or literals (converted to it), as dropout's rate.
//
// Seeding follows dropout's (ops/dropout.hpp): each op seed Seed has a hidden int64 counter
// variable "random_ops/random_state_<Seed>" (hidden state: initialized with the others, left
// out of savers; an uninitialized counter counts as 0); a draw is a splitmix64 stream seeded
// by (Seed, the session's graph seed, the counter), and each draw advances the counter. So
// one graph seed and one op seed give one sequence of draws in every session and program,
// and each run draws anew. Without an op seed (`no_seed`, the default) the counter is
// "random_ops/random_state_unseeded" and the op seed is, as in TensorFlow, derived: from the
// graph seed when the session has one (session::set_random_seed), else from a word of
// std::random_device drawn when the session is made, so the draws differ from session to
// session. Ops sharing a seed share its counter, and so draw different values.
//
// The values: normal by Box-Muller over 53-bit uniforms in double, then mean + stddev z in
// the dtype; truncated normal redraws z until |z| < 2 (TensorFlow's bound); float uniform
// is minval + u (maxval - minval) for u in [0, 1), redrawn in the rare case that rounding to
// float gives maxval; integer uniform is minval + (w mod (maxval - minval)) over 64-bit words
// w, rejecting the few that would bias it (uniform on [minval, maxval); minval >= maxval
// fails a run that draws any value with InvalidArgument, TensorFlow's "Need minval < maxval").
// TensorFlow's Philox streams are not reproduced: the same seeds give other values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/detail/random_draw.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/shape_ops.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow {

/// The seed of a random op given none (TensorFlow's seed=None).
struct no_seed_t {
  friend constexpr bool operator==(no_seed_t, no_seed_t) = default;
};
inline constexpr no_seed_t no_seed{};

/// In a diagnostic: random_normal or truncated_normal of this dtype, not float or double.
template <class DType>
struct random_normal_needs_a_float_or_double_dtype {
  static constexpr bool value = false;
};
/// In a diagnostic: random_uniform of this dtype, not float, double, int32 or int64.
template <class DType>
struct random_uniform_needs_a_float_double_int32_or_int64_dtype {
  static constexpr bool value = false;
};
/// In a diagnostic: random_uniform of an integer dtype without maxval (TensorFlow: ValueError).
template <class DType>
struct random_uniform_of_an_integer_dtype_needs_maxval {
  static constexpr bool value = false;
};
/// In a diagnostic: a parameter of a random op (mean, stddev, minval, maxval) of this
/// element type and shape, for a draw of dtype DType: not a scalar of DType nor a literal
/// that converts to it exactly.
template <class DType, class ElementType, class Shape>
struct random_parameter_must_be_a_scalar_of_the_dtype {
  static constexpr bool value = false;
};
/// In a diagnostic: the seed of a random op, which is not an integer nor typeflow::no_seed.
template <class SeedType>
struct random_seed_must_be_an_integer {
  static constexpr bool value = false;
};

namespace ops::detail {


template <random_kind K, class T>
struct random_op_name : op_info<"RandomStandardNormal"> {};
template <class T>
struct random_op_name<random_kind::truncated_normal, T> : op_info<"TruncatedNormal"> {};
template <class T>
struct random_op_name<random_kind::uniform, T>
    : mp::mp_if_c<std::is_integral_v<T>, op_info<"RandomUniformInt">, op_info<"RandomUniform">> {};

/// The scalar value of a parameter's value v (a number, or a rank-0 container or expression).
template <class T, class V>
T parameter_value(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return static_cast<T>(v);
  } else {
    return static_cast<T>(v());
  }
}

}  // namespace ops::detail

/// The counter of the draws of the random ops of op seed Seed (or of those without a seed),
/// in each session: hidden state.
template <bool Seeded, std::uint64_t Seed>
struct random_state_node : variable_node<ops::detail::random_state_name<Seeded, Seed>(), std::int64_t, scalar,
                                         init::fixed<init::zeros()>> {
  static constexpr bool is_hidden_state = true;
};

/// The per-session entropy of random ops without a seed: a resource.
struct random_entropy_node : node_base, kind_tag<node_kind::leaf>, op_info<"RandomEntropy", false> {
  using value_type = std::uint64_t;
  using shape_type = scalar;
  using inputs = mp::mp_list<>;
  static constexpr fixed_string name = "random_ops/entropy";
  static constexpr bool is_resource = true;
  using resource_type = ops::detail::random_entropy;
};

namespace ops::detail {
template <bool Seeded, std::uint64_t Seed>
using random_targets = mp::mp_if_c<Seeded, mp::mp_list<random_state_node<true, Seed>>,
                                   mp::mp_list<random_state_node<false, 0>, random_entropy_node>>;
}  // namespace ops::detail

/// A tensor of dtype T and shape S drawn by kind K on each run that computes it. In... is
/// (A, B), the parameters, with a static S, or (D, A, B) with D a dims node. No gradient.
template <ops::detail::random_kind K, class T, class S, bool Seeded, std::uint64_t Seed, class... In>
struct random_node
    : writer_facade<T, S, node_kind::effect, ops::detail::random_targets<Seeded, Seed>, In...>,
      ops::detail::random_op_name<K, T> {
  using output_type = storage_t<T, S>;
  using reads = mp::mp_list<>;  // an uninitialized counter counts as 0
  template <class... N>
  using rebind = random_node<K, T, S, Seeded, Seed, N...>;
  template <std::size_t, class G>
  using gradient = no_gradient;

  template <class Ctx>
  static void run(Ctx& ctx) {
    using params = mp::mp_list<In...>;
    using A = mp::mp_at_c<params, sizeof...(In) - 2>;
    using B = mp::mp_at_c<params, sizeof...(In) - 1>;
    const char* op = random_node::op_name.data();
    const auto dims = [&] {
      if constexpr (sizeof...(In) == 2) {
        return ops::detail::dims_of_tensor<S>(op);
      } else {
        return ops::detail::dims_of_tensor<S>(op, ctx.template value<mp::mp_front<params>>());
      }
    }();
    const T a = ops::detail::parameter_value<T>(ctx.template value<A>());
    const T b = ops::detail::parameter_value<T>(ctx.template value<B>());
    const std::size_t n = ops::detail::dims_product(dims, 0, S::rank);
    if constexpr (K == ops::detail::random_kind::uniform && std::is_integral_v<T>) {
      if (n > 0 && !(a < b))
        throw invalid_argument_error("Need minval < maxval, got " + std::to_string(a) + " >= " + std::to_string(b));
    }
    auto& out = ctx.template buffer<random_node>();
    ops::detail::resize_unless_static<S::is_static>(out, dims);
    auto& slot = ctx.template slot_of<random_state_node<Seeded, Seed>>();
    const std::int64_t count = slot.initialized ? slot.value : 0;
    slot.value = count + 1;
    slot.initialized = true;
    const std::uint64_t graph_seed = ctx.session.random_seed();
    std::uint64_t op_word = Seed;
    if constexpr (!Seeded)
      op_word = graph_seed != init::default_graph_seed ? ops::detail::unseeded_op_word
                                                       : ctx.template resource<random_entropy_node>().word;
    ops::detail::random_stream rng(op_word, graph_seed, static_cast<std::uint64_t>(count));
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    ops::detail::random_fill<K>(o, n, a, b, rng);
    ops::detail::store_scalar(out, scalar);
  }
};

/// An unspecified parameter of a random op: the op's default (0 for mean and minval, 1 for
/// stddev and maxval; an integer uniform's maxval has none).
struct random_default {};
/// What a parameter of a random op is: a scalar node, or random_default.
template <class P>
concept random_parameter = node<P> || std::is_same_v<P, random_default>;

namespace ops::detail {

/// Whether parameter P can be a parameter of a draw of dtype T.
template <class T, class P>
constexpr bool is_random_parameter() {
  if constexpr (shape_of<P>::rank != 0) {
    return false;
  } else if constexpr (literal_node_type<P>) {
    using W = decltype(P::value_as_written);
    if constexpr (std::is_same_v<W, bool>) {
      return false;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<W>(static_cast<T>(P::value_as_written)) == P::value_as_written;
    } else {
      return true;
    }
  } else {
    return std::is_same_v<value_type_of<P>, T>;
  }
}

/// A literal parameter in the draw's dtype, any other as it is.
template <class T, class P>
constexpr auto as_parameter(const P& p) {
  if constexpr (literal_node_type<P>) {
    return literal_node<P::value_as_written, T>{};
  } else {
    return p;
  }
}


template <class Seed>
constexpr bool is_seed = std::is_same_v<Seed, no_seed_t> || (std::is_integral_v<Seed> && !std::is_same_v<Seed, bool>);

template <auto Seed>
using seed_type = std::remove_cvref_t<decltype(Seed)>;

template <auto Seed>
constexpr std::uint64_t seed_word() {
  if constexpr (std::is_same_v<seed_type<Seed>, no_seed_t>) {
    return 0;
  } else {
    return static_cast<std::uint64_t>(Seed);
  }
}

/// The node of a draw of kind K, dtype T and shape S with op seed Seed from Dims... (none,
/// or a dims node) and the parameters a and b (random_default: the op's default), or
/// the first diagnostic and an inert node.
template <random_kind K, class T, class S, auto Seed, class A, class B, class... Dims>
constexpr auto make_random(const A& a0, const B& b0, const Dims&... dims) {
  constexpr bool floating = std::is_floating_point_v<T>;
  if constexpr (!is_seed<seed_type<Seed>>) {
    static_assert(random_seed_must_be_an_integer<seed_type<Seed>>::value,
                  "typeflow random ops: the seed must be an integer (or typeflow::no_seed)");
    return literal_node<0, float>{};
  } else if constexpr (K != random_kind::uniform && !floating_element<T>) {
    static_assert(random_normal_needs_a_float_or_double_dtype<T>::value,
                  "typeflow::random_normal / truncated_normal: the dtype must be float or double");
    return literal_node<0, float>{};
  } else if constexpr (K == random_kind::uniform && !floating_element<T> && !is_shape_index_type<T>) {
    static_assert(random_uniform_needs_a_float_double_int32_or_int64_dtype<T>::value,
                  "typeflow::random_uniform: the dtype must be float, double, int32 or int64");
    return literal_node<0, float>{};
  } else if constexpr (K == random_kind::uniform && !floating && std::is_same_v<B, random_default>) {
    static_assert(random_uniform_of_an_integer_dtype_needs_maxval<T>::value,
                  "typeflow::random_uniform of an integer dtype needs maxval (TensorFlow: ValueError, \"Must "
                  "specify maxval for integer dtype\")");
    return literal_node<0, T>{};
  } else if constexpr (sizeof...(Dims) == 0 && !S::is_static) {
    static_assert(shape_argument_needs_static_dims_of_at_least_0<S>::value,
                  "typeflow random ops: every dim of the shape must be >= 0 (TensorFlow: ValueError); for dims "
                  "known at run time pass a dims node, e.g. typeflow::random_normal(typeflow::shape_op(x))");
    return literal_node<0, T>{};
  } else if constexpr (((!is_dims_node<Dims>) || ... || false)) {
    static_assert(dims_must_be_an_int32_or_int64_vector_of_static_length<value_type_of<Dims>..., shape_of<Dims>...>::value,
                  "typeflow random ops: the shape argument must be an int32 or int64 vector of static length, "
                  "e.g. typeflow::shape_op(x)");
    return literal_node<0, T>{};
  } else {
    const auto a = [&] {
      if constexpr (std::is_same_v<A, random_default>) return literal_node<0, T>{};
      else return a0;
    }();
    const auto b = [&] {
      if constexpr (std::is_same_v<B, random_default>) return literal_node<1, T>{};  // maxval or stddev
      else return b0;
    }();
    using PA = std::remove_const_t<decltype(a)>;
    using PB = std::remove_const_t<decltype(b)>;
    if constexpr (!is_random_parameter<T, PA>()) {
      static_assert(random_parameter_must_be_a_scalar_of_the_dtype<T, value_type_of<PA>, shape_of<PA>>::value,
                    "typeflow random ops: mean, stddev, minval and maxval must be scalar nodes of the dtype, or "
                    "literals that convert to it exactly (TensorFlow: \"Shape must be rank 0\")");
      return literal_node<0, T>{};
    } else if constexpr (!is_random_parameter<T, PB>()) {
      static_assert(random_parameter_must_be_a_scalar_of_the_dtype<T, value_type_of<PB>, shape_of<PB>>::value,
                    "typeflow random ops: mean, stddev, minval and maxval must be scalar nodes of the dtype, or "
                    "literals that convert to it exactly (TensorFlow: \"Shape must be rank 0\")");
      return literal_node<0, T>{};
    } else {
      const auto pa = as_parameter<T>(a);
      const auto pb = as_parameter<T>(b);
      using R = std::conditional_t<sizeof...(Dims) == 0, S, mp::mp_front<mp::mp_list<shape_from_dims_t<Dims>..., S>>>;
      constexpr bool seeded = !std::is_same_v<seed_type<Seed>, no_seed_t>;
      return make_node<random_node<K, T, R, seeded, seed_word<Seed>(), Dims..., std::remove_const_t<decltype(pa)>,
                                   std::remove_const_t<decltype(pb)>>>(dims..., pa, pb);
    }
  }
}

}  // namespace ops::detail

// The spellings: `op<shape<d...>, T, seed>(a, b)` with a static shape, `op<T, seed>(dims, a,
// b)` with a dims node. T defaults to float, seed to no_seed; a and b to the op's defaults.

/// tf.random_normal(shape, mean=0, stddev=1, dtype=T, seed=seed) (op RandomStandardNormal).
template <shape_type S, element_type T = float, auto Seed = no_seed, random_parameter M = random_default,
          random_parameter SD = random_default>
constexpr auto random_normal(const M& mean = {}, const SD& stddev = {}) {
  return ops::detail::make_random<ops::detail::random_kind::normal, T, S, Seed>(mean, stddev);
}
template <element_type T = float, auto Seed = no_seed, node D, random_parameter M = random_default,
          random_parameter SD = random_default>
constexpr auto random_normal(const D& dims, const M& mean = {}, const SD& stddev = {}) {
  return ops::detail::make_random<ops::detail::random_kind::normal, T, scalar, Seed>(mean, stddev, dims);
}

/// tf.truncated_normal(shape, mean=0, stddev=1, dtype=T, seed=seed): values farther than two
/// stddevs from the mean are drawn again.
template <shape_type S, element_type T = float, auto Seed = no_seed, random_parameter M = random_default,
          random_parameter SD = random_default>
constexpr auto truncated_normal(const M& mean = {}, const SD& stddev = {}) {
  return ops::detail::make_random<ops::detail::random_kind::truncated_normal, T, S, Seed>(mean, stddev);
}
template <element_type T = float, auto Seed = no_seed, node D, random_parameter M = random_default,
          random_parameter SD = random_default>
constexpr auto truncated_normal(const D& dims, const M& mean = {}, const SD& stddev = {}) {
  return ops::detail::make_random<ops::detail::random_kind::truncated_normal, T, scalar, Seed>(mean, stddev, dims);
}

/// tf.random_uniform(shape, minval=0, maxval=1, dtype=T, seed=seed): uniform on [minval,
/// maxval); an integer T needs maxval.
template <shape_type S, element_type T = float, auto Seed = no_seed, random_parameter Lo = random_default,
          random_parameter Hi = random_default>
constexpr auto random_uniform(const Lo& minval = {}, const Hi& maxval = {}) {
  return ops::detail::make_random<ops::detail::random_kind::uniform, T, S, Seed>(minval, maxval);
}
template <element_type T = float, auto Seed = no_seed, node D, random_parameter Lo = random_default,
          random_parameter Hi = random_default>
constexpr auto random_uniform(const D& dims, const Lo& minval = {}, const Hi& maxval = {}) {
  return ops::detail::make_random<ops::detail::random_kind::uniform, T, scalar, Seed>(minval, maxval, dims);
}

}  // namespace typeflow
