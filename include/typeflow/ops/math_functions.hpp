// typeflow/ops/math_functions.hpp — rsqrt, reciprocal, log1p, expm1, sin, cos, erf, floor,
// ceil, round, pow, squared_difference: TensorFlow's elementwise math beyond ops/math.hpp.
//
// Each op computes TensorFlow's forward rule, and its gradient is the one TensorFlow's
// math_grad.py registers for the op, as graph expressions over the forward values.
#pragma once

#include <cmath>
#include <numbers>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/math.hpp"

namespace typeflow {

namespace fn {
struct cos;
struct sin;

struct rsqrt : op_info<"Rsqrt"> {
  template <class T> T operator()(T a) const { return T(1) / std::sqrt(a); }
  // TensorFlow's RsqrtGrad: -0.5 g y^3, from the output y.
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, ew<mul, G, literal_node<-0.5, value_type_of<A>>>, ew<mul, ew<square, Self>, Self>>;
};
struct reciprocal : op_info<"Reciprocal"> {
  template <class T> constexpr T operator()(T a) const { return T(1) / a; }
  // TensorFlow's ReciprocalGrad: -g y^2, from the output y.
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<neg, ew<mul, G, ew<square, Self>>>;
};
struct log1p : op_info<"Log1p"> {
  template <class T> T operator()(T a) const { return std::log1p(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, G, ew<add, literal_node<1, value_type_of<A>>, A>>;
};
struct expm1 : op_info<"Expm1"> {
  template <class T> T operator()(T a) const { return std::expm1(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<exp, A>>;
};
struct sin : op_info<"Sin"> {
  template <class T> T operator()(T a) const { return std::sin(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<cos, A>>;
};
struct cos : op_info<"Cos"> {
  template <class T> T operator()(T a) const { return std::cos(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, ew<neg, G>, ew<sin, A>>;
};
struct erf : op_info<"Erf"> {
  template <class T> T operator()(T a) const { return std::erf(a); }
  // g 2/sqrt(pi) exp(-x^2)
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, ew<mul, G, literal_node<2 * std::numbers::inv_sqrtpi, value_type_of<A>>>,
                      ew<exp, ew<neg, ew<square, A>>>>;
};
// floor, ceil, round: TensorFlow registers None as their gradient.
struct floor : op_info<"Floor"> {
  template <class T> T operator()(T a) const { return std::floor(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;
};
struct ceil : op_info<"Ceil"> {
  template <class T> T operator()(T a) const { return std::ceil(a); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;
};
struct round : op_info<"Round"> {
  // Halves to even, as TensorFlow's Round (and numpy's round, and rint): 0.5 -> 0,
  // 1.5 -> 2, -2.5 -> -2. Computed without the floating-point environment's rounding mode.
  template <class T> T operator()(T a) const {
    const T r = std::round(a);  // halves away from zero
    return std::abs(a - std::trunc(a)) == T(0.5) ? T(2) * std::round(a / T(2)) : r;
  }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;
};

/// log(x) where x > 0, else 0: the factor of pow's gradient with respect to the exponent
/// (TensorFlow's _PowGrad: where(x > 0, log(where(x > 0, x, 1)), 0), whose outer op is a Select).
struct log_where_positive : op_info<"Select"> {
  template <class T> T operator()(T a) const { return a > T(0) ? std::log(a) : T(0); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<select_gradient<gt>, ew<div, G, A>, A, literal_node<0, value_type_of<A>>>;
};

struct pow : op_info<"Pow"> {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      // TensorFlow's CPU kernel refuses negative exponents of integers; the product wraps.
      if (b < T(0)) throw invalid_argument_error("Pow: Integers to negative integer powers are not allowed");
      using U = std::make_unsigned_t<T>;
      U result = 1, base = static_cast<U>(a);
      for (U e = static_cast<U>(b); e != 0; e >>= 1, base *= base)
        if (e & 1u) result *= base;
      return static_cast<T>(result);
    } else {
      return std::pow(a, b);
    }
  }
  // TensorFlow's _PowGrad: g y x^(y - 1) for x; g z log(x) for y, with log(x) taken as 0
  // where x <= 0. Integer powers have no gradient (TensorFlow differentiates floats only).
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<
      !floating_element<value_type_of<A>>, no_gradient,
      mp::mp_if_c<K == 0,
                  sum_to_t<ew<mul, ew<mul, G, B>, ew<pow, A, ew<sub, B, literal_node<1, value_type_of<B>>>>>, A>,
                  sum_to_t<ew<mul, ew<mul, G, Self>, ew<log_where_positive, A>>, B>>>;
};
struct squared_difference : op_info<"SquaredDifference"> {
  template <class T> constexpr T operator()(T a, T b) const { return (a - b) * (a - b); }
  // TensorFlow's _SquaredDifferenceGrad: 2 g (x - y) for x, its negation for y.
  template <class G, class A, class B>
  using x_gradient = ew<mul, ew<mul, literal_node<2, value_type_of<A>>, G>, ew<sub, A, B>>;
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<x_gradient<G, A, B>, A>, ew<neg, sum_to_t<x_gradient<G, A, B>, B>>>;
};
}  // namespace fn

/// In a diagnostic: the op needs a number (not bool) operand.
template <class T>
struct op_needs_a_number_operand {
  static constexpr bool value = element_type<T> && !std::is_same_v<T, bool>;
};

#define TYPEFLOW_MATH_FLOAT_UNARY(name)                                                            \
  template <node A>                                                                                \
  constexpr auto name(A a) {                                                                       \
    static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,                     \
                  "typeflow::" #name "(x) needs a float or double x: use typeflow::cast<float>(x)"); \
    return make_unary<fn::name>(a);                                                                \
  }

/// tf.rsqrt, tf.reciprocal, tf.log1p, tf.expm1, tf.sin, tf.cos, tf.erf, tf.floor, tf.ceil
TYPEFLOW_MATH_FLOAT_UNARY(rsqrt)
TYPEFLOW_MATH_FLOAT_UNARY(reciprocal)
TYPEFLOW_MATH_FLOAT_UNARY(log1p)
TYPEFLOW_MATH_FLOAT_UNARY(expm1)
TYPEFLOW_MATH_FLOAT_UNARY(sin)
TYPEFLOW_MATH_FLOAT_UNARY(cos)
TYPEFLOW_MATH_FLOAT_UNARY(erf)
TYPEFLOW_MATH_FLOAT_UNARY(floor)
TYPEFLOW_MATH_FLOAT_UNARY(ceil)
#undef TYPEFLOW_MATH_FLOAT_UNARY

/// tf.round: halves to even. An integer x is its own rounding: x itself, as in TensorFlow.
template <node A>
constexpr auto round(A a) {
  static_assert(op_needs_a_number_operand<value_type_of<A>>::value,
                "typeflow::round(x) needs a number x (float, double, int32 or int64)");
  if constexpr (floating_element<value_type_of<A>>) {
    return make_unary<fn::round>(a);
  } else {
    return a;
  }
}

/// tf.pow(x, y): x^y elementwise, broadcasting. Float, double, int32 or int64; a negative
/// integer exponent throws typeflow::invalid_argument_error when the run computes it.
template <node A, node B>
constexpr auto pow(A a, B b) {
  static_assert(op_needs_a_number_operand<value_type_of<A>>::value,
                "typeflow::pow(x, y) needs numbers (float, double, int32 or int64)");
  return make_binary<fn::pow>(a, b);
}

/// tf.squared_difference(x, y): (x - y)^2 elementwise, broadcasting.
template <node A, node B>
constexpr auto squared_difference(A a, B b) {
  static_assert(op_needs_a_number_operand<value_type_of<A>>::value,
                "typeflow::squared_difference(x, y) needs numbers (float, double, int32 or int64)");
  return make_binary<fn::squared_difference>(a, b);
}

}  // namespace typeflow
