// typeflow/ops/activation.hpp — tanh, sigmoid, relu (elementwise activations).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
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
  template <class T> constexpr T operator()(T a) const { return a > T(0) ? a : T(0); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<relu_gradient, G, Self>;
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

}  // namespace typeflow
