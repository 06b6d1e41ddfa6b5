// Gradients of cumsum and cumprod (ops/cumulative.hpp), ported from TensorFlow 1.x's
// scan_ops_test.py: CumsumTest.testGradient, testGradientReverse, testGradientExclusive,
// testGradientExclusiveReverse, testGradient2D, and the same of CumprodTest, at the test's
// points (np.arange(0, 50) for cumsum, np.arange(1, 9) for cumprod, in float64). TensorFlow
// compares the Jacobian with finite differences (delta 1, rtol = atol = 1e-8); here
// fd_check's central differences (1e-6 relative, tests/autodiff/fd_check.hpp), through the
// loss reduce_sum(scan(x) * w) with random w, which checks every output's gradient.
// Also the second derivative of cumprod, whose gradient is built of cumsum and cumprod nodes.
#include <doctest/doctest.h>

#include <cstddef>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"
#include "second_order_testing.hpp"

namespace tf = typeflow;
using op_testing::check_unary;

namespace {

template <class S>
fd_check::value_t<S> arange(double from) {
  fd_check::value_t<S> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = from + double(i);
  return v;
}

template <bool Prod, std::ptrdiff_t Axis, bool Exclusive, bool Reverse, class S>
void compare_gradient(const fd_check::value_t<S>& x0) {
  INFO((Prod ? "cumprod" : "cumsum") << " axis " << Axis << " exclusive " << Exclusive << " reverse " << Reverse);
  check_unary<S>(
      [](auto x) {
        if constexpr (Prod) return tf::cumprod<Axis, Exclusive, Reverse>(x);
        else return tf::cumsum<Axis, Exclusive, Reverse>(x);
      },
      x0);
}

// Each (exclusive, reverse) pair at one axis.
template <bool Prod, std::ptrdiff_t Axis, class S>
void all_flags(const fd_check::value_t<S>& x0) {
  compare_gradient<Prod, Axis, false, false, S>(x0);
  compare_gradient<Prod, Axis, false, true, S>(x0);
  compare_gradient<Prod, Axis, true, false, S>(x0);
  compare_gradient<Prod, Axis, true, true, S>(x0);
}

}  // namespace

TEST_CASE("CumsumTest.testGradient, Reverse, Exclusive, ExclusiveReverse: [50], axis -1 and 0") {
  using S = tf::shape<50>;
  all_flags<false, -1, S>(arange<S>(0));
  all_flags<false, 0, S>(arange<S>(0));
}

TEST_CASE("CumsumTest.testGradient2D: [5, 10], axis -1, 0, 1, every flag") {
  using S = tf::shape<5, 10>;
  all_flags<false, -1, S>(arange<S>(0));
  all_flags<false, 0, S>(arange<S>(0));
  all_flags<false, 1, S>(arange<S>(0));
}

TEST_CASE("CumprodTest.testGradient, Reverse, Exclusive, ExclusiveReverse: [8] = arange(1, 9), axis -1 and 0") {
  using S = tf::shape<8>;
  all_flags<true, -1, S>(arange<S>(1));
  all_flags<true, 0, S>(arange<S>(1));
}

TEST_CASE("CumprodTest.testGradient2D: [2, 4] = arange(1, 9), axis -2, -1, 0, 1, every flag") {
  using S = tf::shape<2, 4>;
  all_flags<true, -2, S>(arange<S>(1));
  all_flags<true, -1, S>(arange<S>(1));
  all_flags<true, 0, S>(arange<S>(1));
  all_flags<true, 1, S>(arange<S>(1));
}

TEST_CASE("cumsum, cumprod: second derivatives (gradients of their gradients) against central differences") {
  using S = tf::shape<2, 4>;
  const auto x0 = fd_check::uniform<S>(0.5, 1.5);
  second_order_testing::check_unary<S>([](auto x) { return tf::cumsum<1, true, false>(x); }, x0);
  second_order_testing::check_unary<S>([](auto x) { return tf::cumprod<1>(x); }, x0);
  second_order_testing::check_unary<S>([](auto x) { return tf::cumprod<0, true, true>(x); }, x0);
}
