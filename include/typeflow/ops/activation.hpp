// typeflow/ops/activation.hpp — tanh, sigmoid, relu, relu6, leaky_relu, elu, selu, softplus,
// softsign (elementwise activations).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "typeflow/ops/math.hpp"

namespace typeflow {

namespace ops::detail {
/// tanh of a float as TensorFlow computes it on CPUs: Eigen's rational approximation
/// (generic_fast_tanh_float), a degree-13 odd polynomial over a degree-6 even one on the
/// input clamped to [-7.905, 7.905], the input itself below 4e-4. At most 4e-7 from the
/// exact value (tests/ops/elementwise_test.cpp), where std::tanh is 1e-7; branch-free, so
/// that a session's flat loop over it vectorizes, where a libm call per element does not
/// (11 ns each on the machine of benchmarks/RESULTS.md, "Recurrent models").
[[gnu::always_inline]] inline float tanh_float(float a) {
  // The clamp and the choice of tiny inputs are made on the bits, with masks: g++ moves a
  // floating-point computation that only one arm of a select uses into a branch, which its
  // default -ftrapping-math then keeps, and the loop does not vectorize.
  constexpr std::uint32_t sign = 0x80000000u, infinity = 0x7f800000u;
  constexpr std::uint32_t clamp = std::bit_cast<std::uint32_t>(7.90531110763549805f);
  constexpr std::uint32_t tiny = std::bit_cast<std::uint32_t>(0.0004f);
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(a);
  const std::uint32_t magnitude = bits & ~sign;
  // All ones where |a| is above the clamp (infinities too; not NaN, which stays NaN).
  const std::uint32_t over = 0u - std::uint32_t((magnitude > clamp) & (magnitude <= infinity));
  const float x = std::bit_cast<float>((bits & ~over) | (((bits & sign) | clamp) & over));
  const float x2 = x * x;
  float p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
  p = x2 * p + -8.60467152213735e-11f;
  p = x2 * p + 5.12229709037114e-08f;
  p = x2 * p + 1.48572235717979e-05f;
  p = x2 * p + 6.37261928875436e-04f;
  p = x2 * p + 4.89352455891786e-03f;
  float q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
  q = x2 * q + 2.26843463243900e-03f;
  q = x2 * q + 4.89352518554385e-03f;
  const std::uint32_t r = std::bit_cast<std::uint32_t>(x * p / q);
  const std::uint32_t small = 0u - std::uint32_t(magnitude < tiny);  // below 4e-4, the input itself
  return std::bit_cast<float>((bits & small) | (r & ~small));
}

// TensorFlow's SELU constants (relu_op_functor.h): scale, and scale times alpha.
inline constexpr double selu_scale = 1.0507009873554804934193349852946;
inline constexpr double selu_scale_alpha = 1.7580993408473768599402175208123;
}  // namespace ops::detail

namespace fn {
struct tanh : op_info<"Tanh"> {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_same_v<T, float>) {
      return ops::detail::tanh_float(a);
    } else {
      return std::tanh(a);
    }
  }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<sub, literal_node<1, value_type_of<A>>, ew<square, Self>>>;
};
struct sigmoid : op_info<"Sigmoid"> {
  // float: 1/2 + tanh(a/2)/2, branch-free and vectorized with tanh's (below). Otherwise
  // stable for large |a|: never exponentiates a positive number.
  template <class T> T operator()(T a) const {
    if constexpr (std::is_same_v<T, float>) {
      return 0.5f + 0.5f * ops::detail::tanh_float(0.5f * a);
    } else {
      if (a >= T(0)) return T(1) / (T(1) + std::exp(-a));
      const T e = std::exp(a);
      return e / (T(1) + e);
    }
  }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, ew<mul, G, Self>, ew<sub, literal_node<1, value_type_of<A>>, Self>>;
};
/// g where the relu's output y is positive, else 0 (TensorFlow's ReluGrad).
struct relu_gradient : op_info<"ReluGrad"> {
  template <class T> constexpr T operator()(T g, T y) const { return y > T(0) ? g : T(0); }
  template <std::size_t K, class G, class Self, class GI, class Y>
  using gradient = mp::mp_if_c<K == 0, ew<relu_gradient, G, Y>, no_gradient>;
};
struct relu : op_info<"Relu"> {
  // max(a, 0) as TensorFlow's kernel (Eigen's cwiseMax): NaN passes through.
  template <class T> constexpr T operator()(T a) const { return a < T(0) ? T(0) : a; }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<relu_gradient, G, Self>;
};

// The activations below compute TensorFlow's kernels (relu_op_functor.h, softplus_op.h,
// softsign_op.h); each gradient is the one nn_grad.py registers, with TensorFlow's value at
// the kinks. Their gradient ops have TensorFlow's gradients too (second derivatives).

/// g where 0 < y < 6 for the relu6's output y, else 0: 0 at the kinks (TensorFlow's Relu6Grad).
struct relu6_gradient : op_info<"Relu6Grad"> {
  template <class T> constexpr T operator()(T g, T y) const { return y > T(0) && y < T(6) ? g : T(0); }
  template <std::size_t K, class G, class Self, class GI, class Y>
  using gradient = mp::mp_if_c<K == 0, ew<relu6_gradient, G, Y>, no_gradient>;
};
struct relu6 : op_info<"Relu6"> {
  // min(max(x, 0), 6); NaN stays NaN, as in TensorFlow.
  template <class T> constexpr T operator()(T a) const { return a < T(0) ? T(0) : a > T(6) ? T(6) : a; }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<relu6_gradient, G, Self>;
};
/// g where x > 0, else alpha g: alpha at 0 (TensorFlow's LeakyReluGrad, from the input x).
template <double Alpha>
struct leaky_relu_gradient : op_info<"LeakyReluGrad"> {
  template <class T> constexpr T operator()(T g, T x) const { return x > T(0) ? g : g * static_cast<T>(Alpha); }
  template <std::size_t K, class G, class Self, class GI, class X>
  using gradient = mp::mp_if_c<K == 0, ew<leaky_relu_gradient, G, X>, no_gradient>;
};
template <double Alpha>
struct leaky_relu : op_info<"LeakyRelu"> {
  // x where x > 0, else alpha x (alpha may be above 1 or negative: not a maximum).
  template <class T> constexpr T operator()(T a) const { return a > T(0) ? a : a * static_cast<T>(Alpha); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<leaky_relu_gradient<Alpha>, G, A>;
};
/// (y + 1) g where the elu's output y < 0, else g: 1 at 0 (TensorFlow's EluGrad).
struct elu_gradient : op_info<"EluGrad"> {
  template <class T> constexpr T operator()(T g, T y) const { return y < T(0) ? (y + T(1)) * g : g; }
  // TensorFlow's _EluGradGrad: EluGrad(gg, y) for g; gg g where y < 0, else 0, for y.
  template <std::size_t K, class GG, class Self, class G, class Y>
  using gradient = mp::mp_if_c<K == 0, ew<elu_gradient, GG, Y>,
                               ew<select_gradient<lt>, ew<mul, GG, G>, Y, literal_node<0, value_type_of<Y>>>>;
};
struct elu : op_info<"Elu"> {
  // x where x >= 0, else exp(x) - 1 (computed as expm1(x)).
  template <class T> T operator()(T a) const { return a < T(0) ? std::expm1(a) : a; }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<elu_gradient, G, Self>;
};
/// (y + scale alpha) g where the selu's output y < 0, else scale g: scale at 0 (SeluGrad).
struct selu_gradient : op_info<"SeluGrad"> {
  template <class T> constexpr T operator()(T g, T y) const {
    constexpr T scale = static_cast<T>(ops::detail::selu_scale);
    constexpr T scale_alpha = static_cast<T>(ops::detail::selu_scale_alpha);
    return y < T(0) ? g * (y + scale_alpha) : g * scale;
  }
  // TensorFlow's _SeluGradGrad: SeluGrad(gg, y) for g; gg g where y < 0, else 0, for y.
  template <std::size_t K, class GG, class Self, class G, class Y>
  using gradient = mp::mp_if_c<K == 0, ew<selu_gradient, GG, Y>,
                               ew<select_gradient<lt>, ew<mul, GG, G>, Y, literal_node<0, value_type_of<Y>>>>;
};
struct selu : op_info<"Selu"> {
  // scale x where x >= 0, else scale alpha (exp(x) - 1) (computed with expm1(x)).
  template <class T> T operator()(T a) const {
    constexpr T scale = static_cast<T>(ops::detail::selu_scale);
    constexpr T scale_alpha = static_cast<T>(ops::detail::selu_scale_alpha);
    return a < T(0) ? scale_alpha * std::expm1(a) : scale * a;
  }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<selu_gradient, G, Self>;
};
struct softplus : op_info<"Softplus"> {
  // log(1 + exp(x)) as TensorFlow's kernel computes it: x itself above -t, exp(x) below t,
  // log1p(exp(x)) between, with t = log(epsilon) + 2 (where each is within epsilon).
  template <class T> T operator()(T a) const {
    constexpr T threshold = T(1 - std::numeric_limits<T>::digits) * std::numbers::ln2_v<T> + T(2);
    if (a > -threshold) return a;
    const T e = std::exp(a);
    return a < threshold ? e : std::log1p(e);
  }
  // g sigmoid(x), as nn_grad.py's _SoftplusGrad.
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<sigmoid, A>>;
};
struct softsign : op_info<"Softsign"> {
  template <class T> constexpr T operator()(T a) const { return a / ((a < T(0) ? -a : a) + T(1)); }
  // TensorFlow's SoftsignGrad: g / (1 + |x|)^2.
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, G, ew<square, ew<add, literal_node<1, value_type_of<A>>, ew<abs, A>>>>;
};
}  // namespace fn

/// tf.tanh, tf.sigmoid (tf.nn.sigmoid)
template <node A>
constexpr auto tanh(A a) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::tanh(x) needs a float or double x: use typeflow::cast<float>(x)");
  return make_unary<fn::tanh>(a);
}
template <node A>
constexpr auto sigmoid(A a) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::sigmoid(x) needs a float or double x: use typeflow::cast<float>(x)");
  return make_unary<fn::sigmoid>(a);
}
/// tf.nn.relu
template <node A> constexpr auto relu(A a) { return make_unary<fn::relu>(a); }

/// tf.nn.relu6: min(max(x, 0), 6)
template <node A>
constexpr auto relu6(A a) {
  static_assert(!std::is_same_v<value_type_of<A>, bool>, "typeflow::relu6(x) needs a number x, not bool");
  return make_unary<fn::relu6>(a);
}

/// In a diagnostic: leaky_relu needs a float or double operand.
template <class T>
struct leaky_relu_needs_a_floating_point_operand {
  static constexpr bool value = floating_element<T>;
};

/// tf.nn.leaky_relu(x, alpha=Alpha): x where x > 0, else alpha x. alpha is an attribute of the
/// op, so part of its type: `leaky_relu(x)` (TensorFlow's default 0.2), `leaky_relu<0.1>(x)`.
template <double Alpha = 0.2, node A>
constexpr auto leaky_relu(A a) {
  static_assert(leaky_relu_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::leaky_relu(x) needs a float or double x: use typeflow::cast<float>(x)");
  return make_unary<fn::leaky_relu<Alpha>>(a);
}
/// `leaky_relu(x, tf::constant<0.1>())`: alpha given as a literal, the same op as leaky_relu<0.1>(x).
template <node A, auto V, element_type T>
constexpr auto leaky_relu(A a, literal_node<V, T>) {
  return leaky_relu<static_cast<double>(V)>(a);
}

#define TYPEFLOW_FLOAT_ACTIVATION(name)                                                          \
  template <node A>                                                                              \
  constexpr auto name(A a) {                                                                     \
    static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,                   \
                  "typeflow::" #name "(x) needs a float or double x: use typeflow::cast<float>(x)"); \
    return make_unary<fn::name>(a);                                                              \
  }
/// tf.nn.elu, tf.nn.selu, tf.nn.softplus, tf.nn.softsign
TYPEFLOW_FLOAT_ACTIVATION(elu)
TYPEFLOW_FLOAT_ACTIVATION(selu)
TYPEFLOW_FLOAT_ACTIVATION(softplus)
TYPEFLOW_FLOAT_ACTIVATION(softsign)
#undef TYPEFLOW_FLOAT_ACTIVATION

}  // namespace typeflow
