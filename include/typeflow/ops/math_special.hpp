// typeflow/ops/math_special.hpp — tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh,
// atan2, erfc, lgamma, digamma, log_sigmoid, xlogy: TensorFlow's elementwise trigonometric,
// hyperbolic and special functions beyond ops/math_functions.hpp.
//
// Float and double only, as the kernels typeflow mirrors (an integer operand is the compile
// error op_needs_a_floating_point_operand<T>). Forward rules are the C library's functions,
// with TensorFlow's values at the edges of the domains: lgamma is +inf at 0 and the negative
// integers, digamma NaN there (Eigen's digamma), xlogy(0, y) is 0 (TensorFlow 1's Xlogy).
// Each gradient is the one TensorFlow's math_grad.py registers, as graph expressions over
// the forward values (_TanGrad, _AsinGrad, ..., _Atan2Grad, _XLogyGrad). digamma's gradient
// is trigamma, TensorFlow's polygamma(1, x), an op ("Polygamma") with no gradient rule here:
// differentiating digamma twice is the compile error op_has_no_gradient_rule<"Polygamma">.
// tf.log_sigmoid(x) is -softplus(-x), the graph TensorFlow builds (Neg, Softplus, Neg).
#pragma once

#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/broadcast_gradient.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/math_functions.hpp"

namespace typeflow {

namespace ops::detail {
/// digamma(x), the derivative of lgamma: the recurrence psi(x) = psi(x + 1) - 1/x up to
/// x >= 10, then the asymptotic series to x^-14 (truncation below 1e-16 there); x <= 0 by the reflection
/// psi(x) = psi(1 - x) - pi / tan(pi x). NaN at 0 and the negative integers (Eigen's value).
inline double digamma(double x) {
  double reflection = 0;
  if (x <= 0) {
    const double f = x - std::floor(x);  // exact; pi x and pi f have one tangent
    if (f == 0) return std::numeric_limits<double>::quiet_NaN();
    reflection = std::numbers::pi / std::tan(std::numbers::pi * f);
    x = 1 - x;
  }
  double w = 0;
  for (; x < 10; x += 1) w += 1 / x;
  const double z = 1 / (x * x);
  // sum of B_2k / (2k x^2k), k = 1..7
  const double series =
      z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return std::log(x) - 0.5 / x - series - w - reflection;
}
/// trigamma(x) = polygamma(1, x), the derivative of digamma: psi1(x) = psi1(x + 1) + 1/x^2
/// up to x >= 10, then the asymptotic series; x <= 0 by the reflection
/// psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x). +inf at 0 and the negative integers (Eigen's zeta).
inline double trigamma(double x) {
  double reflection = 0;
  bool reflected = false;
  if (x <= 0) {
    const double f = x - std::floor(x);
    if (f == 0) return std::numeric_limits<double>::infinity();
    const double s = std::sin(std::numbers::pi * f);
    reflection = std::numbers::pi * std::numbers::pi / (s * s);
    reflected = true;
    x = 1 - x;
  }
  double w = 0;
  for (; x < 10; x += 1) w += 1 / (x * x);
  const double z = 1 / (x * x);
  // 1/x + 1/(2x^2) + sum of B_2k / x^(2k+1), k = 1..7
  const double series =
      1 / x + z / 2 +
      (z / x) * (1.0 / 6 - z * (1.0 / 30 - z * (1.0 / 42 - z * (1.0 / 30 - z * (5.0 / 66 - z * (691.0 / 2730 - z * (7.0 / 6)))))));
  const double value = series + w;
  return reflected ? reflection - value : value;
}
}  // namespace ops::detail

namespace fn {
struct cosh;
struct sinh;
struct digamma;

struct tan : op_info<"Tan"> {
  template <class T> T operator()(T a) const { return std::tan(a); }
  // _TanGrad: g sec(x)^2, sec(x) = reciprocal(cos(x)).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<square, ew<reciprocal, ew<cos, A>>>>;
};
/// 1 / sqrt(1 - x^2): the factor of asin's and acos's gradients.
template <class A>
using asin_factor = ew<reciprocal, ew<sqrt, ew<sub, literal_node<1, value_type_of<A>>, ew<square, A>>>>;
struct asin : op_info<"Asin"> {
  template <class T> T operator()(T a) const { return std::asin(a); }
  // _AsinGrad: g / sqrt(1 - x^2).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, asin_factor<A>>;
};
struct acos : op_info<"Acos"> {
  template <class T> T operator()(T a) const { return std::acos(a); }
  // _AcosGrad: -g / sqrt(1 - x^2).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<neg, ew<mul, G, asin_factor<A>>>;
};
struct atan : op_info<"Atan"> {
  template <class T> T operator()(T a) const { return std::atan(a); }
  // _AtanGrad: g / (1 + x^2).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<reciprocal, ew<add, literal_node<1, value_type_of<A>>, ew<square, A>>>>;
};
struct sinh : op_info<"Sinh"> {
  template <class T> T operator()(T a) const { return std::sinh(a); }
  // _SinhGrad: g cosh(x).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<cosh, A>>;
};
struct cosh : op_info<"Cosh"> {
  template <class T> T operator()(T a) const { return std::cosh(a); }
  // _CoshGrad: g sinh(x).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<sinh, A>>;
};
struct asinh : op_info<"Asinh"> {
  template <class T> T operator()(T a) const { return std::asinh(a); }
  // _AsinhGrad: g / cosh(y), from the output y.
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, G, ew<cosh, Self>>;
};
struct acosh : op_info<"Acosh"> {
  template <class T> T operator()(T a) const { return std::acosh(a); }
  // _AcoshGrad: g / sinh(y), from the output y.
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<div, G, ew<sinh, Self>>;
};
struct atanh : op_info<"Atanh"> {
  template <class T> T operator()(T a) const { return std::atanh(a); }
  // _AtanhGrad: g / (1 - x^2).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<reciprocal, ew<sub, literal_node<1, value_type_of<A>>, ew<square, A>>>>;
};
struct atan2 : op_info<"Atan2"> {
  template <class T> T operator()(T y, T x) const { return std::atan2(y, x); }
  // _Atan2Grad: g x / (x^2 + y^2) for y, -g y / (x^2 + y^2) for x; each summed to its
  // operand's shape where the operands broadcast.
  template <class G, class Y, class X>
  using scaled = ew<div, G, ew<add, ew<square, X>, ew<square, Y>>>;
  template <std::size_t K, class G, class Self, class Y, class X>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<mul, X, scaled<G, Y, X>>, Y>,
                               sum_to_t<ew<mul, ew<neg, Y>, scaled<G, Y, X>>, X>>;
};
struct erfc : op_info<"Erfc"> {
  template <class T> T operator()(T a) const { return std::erfc(a); }
  // _ErfcGrad: -g 2/sqrt(pi) exp(-x^2).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, ew<mul, G, literal_node<-2 * std::numbers::inv_sqrtpi, value_type_of<A>>>,
                      ew<exp, ew<neg, ew<square, A>>>>;
};
struct lgamma : op_info<"Lgamma"> {
  // log|Gamma(x)|: +inf at 0 and the negative integers. lgamma_r where the C library has
  // it, so that no run writes the global signgam.
  template <class T> T operator()(T a) const {
#if defined(__GLIBC__)
    int sign = 0;
    if constexpr (std::is_same_v<T, float>) {
      return ::lgammaf_r(a, &sign);
    } else {
      return ::lgamma_r(a, &sign);
    }
#else
    return std::lgamma(a);
#endif
  }
  // _LgammaGrad: g digamma(x).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<digamma, A>>;
};
/// polygamma(1, x), trigamma: digamma's derivative. No gradient rule (TensorFlow's would be
/// polygamma(2, x)): differentiating it is the compile error naming "Polygamma".
struct trigamma : op_info<"Polygamma", false> {
  template <class T> T operator()(T a) const { return static_cast<T>(ops::detail::trigamma(static_cast<double>(a))); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;  // never used: not differentiable (op_info's false)
};
struct digamma : op_info<"Digamma"> {
  // Computed in double, then rounded to T.
  template <class T> T operator()(T a) const { return static_cast<T>(ops::detail::digamma(static_cast<double>(a))); }
  // _DigammaGrad: g polygamma(1, x).
  template <std::size_t K, class G, class Self, class A>
  using gradient = ew<mul, G, ew<trigamma, A>>;
};

/// 1 where x != 0, else 0, in x's type: math_grad.py's cast(not_equal(x, 0), x.dtype).
struct nonzero_indicator : op_info<"Cast"> {
  template <class T> constexpr T operator()(T a) const { return a != T(0) ? T(1) : T(0); }
  template <std::size_t K, class G, class Self, class A>
  using gradient = no_gradient;  // NotEqual has no gradient
};
struct xdivy : op_info<"Xdivy"> {
  // 0 where x == 0, else x / y.
  template <class T> T operator()(T x, T y) const { return x == T(0) ? T(0) : x / y; }
  // _XDivyGrad: xdivy(x != 0, y) g for x, xdivy(-x, y^2) g for y, summed to their shapes.
  template <std::size_t K, class G, class Self, class X, class Y>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<mul, ew<xdivy, ew<nonzero_indicator, X>, Y>, G>, X>,
                               sum_to_t<ew<mul, ew<xdivy, ew<neg, X>, ew<square, Y>>, G>, Y>>;
};
struct xlogy : op_info<"Xlogy"> {
  // 0 where x == 0 (y NaN included, as TensorFlow 1's kernel), else x log(y).
  template <class T> T operator()(T x, T y) const { return x == T(0) ? T(0) : x * std::log(y); }
  // _XLogyGrad: xlogy(x != 0, y) g for x, xdivy(x, y) g for y, summed to their shapes.
  template <std::size_t K, class G, class Self, class X, class Y>
  using gradient = mp::mp_if_c<K == 0, sum_to_t<ew<mul, ew<xlogy, ew<nonzero_indicator, X>, Y>, G>, X>,
                               sum_to_t<ew<mul, ew<xdivy, X, Y>, G>, Y>>;
};
}  // namespace fn

#define TYPEFLOW_SPECIAL_FLOAT_UNARY(name)                                                         \
  template <node A>                                                                                \
  constexpr auto name(A a) {                                                                       \
    static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,                     \
                  "typeflow::" #name "(x) needs a float or double x: use typeflow::cast<float>(x)"); \
    return make_unary<fn::name>(a);                                                                \
  }
/// tf.tan, tf.asin, tf.acos, tf.atan, tf.sinh, tf.cosh, tf.asinh, tf.acosh, tf.atanh, tf.erfc,
/// tf.lgamma, tf.digamma: elementwise, float or double.
TYPEFLOW_SPECIAL_FLOAT_UNARY(tan)
TYPEFLOW_SPECIAL_FLOAT_UNARY(asin)
TYPEFLOW_SPECIAL_FLOAT_UNARY(acos)
TYPEFLOW_SPECIAL_FLOAT_UNARY(atan)
TYPEFLOW_SPECIAL_FLOAT_UNARY(sinh)
TYPEFLOW_SPECIAL_FLOAT_UNARY(cosh)
TYPEFLOW_SPECIAL_FLOAT_UNARY(asinh)
TYPEFLOW_SPECIAL_FLOAT_UNARY(acosh)
TYPEFLOW_SPECIAL_FLOAT_UNARY(atanh)
TYPEFLOW_SPECIAL_FLOAT_UNARY(erfc)
TYPEFLOW_SPECIAL_FLOAT_UNARY(lgamma)
TYPEFLOW_SPECIAL_FLOAT_UNARY(digamma)
#undef TYPEFLOW_SPECIAL_FLOAT_UNARY

#define TYPEFLOW_SPECIAL_FLOAT_BINARY(name, call)                                                    \
  template <node A, node B>                                                                          \
  constexpr auto name(A a, B b) {                                                                    \
    /* a literal operand takes the other's type, as in make_binary */                                \
    static_assert(op_needs_a_floating_point_operand<                                                 \
                      value_type_of<typename ops::detail::adapt_literal<A, B>::type>>::value,        \
                  "typeflow::" call " needs float or double operands: use typeflow::cast<float>(x)"); \
    return make_binary<fn::name>(a, b);                                                              \
  }
/// tf.atan2(y, x): the angle of (x, y), elementwise with broadcasting.
TYPEFLOW_SPECIAL_FLOAT_BINARY(atan2, "atan2(y, x)")
/// tf.math.xlogy(x, y): 0 where x == 0, else x log(y), elementwise with broadcasting.
TYPEFLOW_SPECIAL_FLOAT_BINARY(xlogy, "xlogy(x, y)")
#undef TYPEFLOW_SPECIAL_FLOAT_BINARY

/// tf.log_sigmoid(x) (tf.math.log_sigmoid): log(1 / (1 + exp(-x))), computed as TensorFlow
/// builds it, -softplus(-x); its gradient is the one of those ops.
template <node A>
constexpr auto log_sigmoid(A a) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,
                "typeflow::log_sigmoid(x) needs a float or double x: use typeflow::cast<float>(x)");
  return -softplus(-a);
}

}  // namespace typeflow
