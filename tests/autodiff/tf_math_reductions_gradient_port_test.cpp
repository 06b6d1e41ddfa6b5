// Gradients of add_n, reduce_logsumexp, reduce_prod and l2_normalize (ops/math_reductions.hpp),
// ported from TensorFlow 1.x's tests: math_ops_test.py (AddNTest.testGrad),
// reduction_ops_test.py (ProdReductionTest.testGradientWithZeros) and nn_test.py
// (L2NormalizeTest.testL2NormalizeGradient); and reduce_logsumexp's, which TensorFlow's
// tests do not check, against central differences and softmax. TensorFlow compares its
// Jacobians with finite differences (rtol, atol 1e-3 for Prod, an error below 1e-4 for
// L2Normalize); here fd_check's central differences with 1e-6 (tests/autodiff/fd_check.hpp),
// tighter, and for reduce_prod also the exact values of _ProdGrad (the product of the others).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <random>
#include <utility>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using op_testing::check_unary;
using tf::keep_dims;

namespace {
constexpr std::array<tf::fixed_string<2>, 9> input_names{{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}, {"h"}, {"i"}}};

// testGrad: d(add_n(x_1 ... x_n)) / dx_k = 1 for each of n scalar inputs drawn in [0, 10).
template <std::size_t... I>
void add_n_grad(std::index_sequence<I...>) {
  INFO("num_inputs " << sizeof...(I));
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(0.0, 10.0);
  const std::array<double, sizeof...(I)> x0{((void)I, u(rng))...};
  const auto addn = tf::add_n(tf::placeholder<input_names[I], double, tf::shape<>>()...);
  tf::session sess(addn);
  const auto grads = sess.run(tf::fetch(tf::gradient(addn, tf::placeholder<input_names[I], double, tf::shape<>>())...),
                              tf::feed(tf::placeholder<input_names[I], double, tf::shape<>>(), x0[I])...);
  std::apply([](auto... g) { for (double gi : {double(g)...}) CHECK(gi == 1.0); }, grads);
}
}  // namespace

TEST_CASE("AddNTest.testGrad: 1 to 9 inputs, each gradient 1") {
  [&]<std::size_t... N>(std::index_sequence<N...>) { (add_n_grad(std::make_index_sequence<N + 1>{}), ...); }(
      std::make_index_sequence<9>{});
}

TEST_CASE("add_n: gradient g to each input, against central differences") {
  using S = tf::shape<2, 3>;
  const auto y = tf::constant<"y">(fd_check::uniform<S>());
  // x appears twice among the inputs: its gradient is 2 g, plus the product's.
  check_unary<S>([&](auto x) { return tf::add_n(x, y, x * x, x); }, fd_check::uniform<S>());
}

// --- reduce_logsumexp ---------------------------------------------------------------------

TEST_CASE("reduce_logsumexp: gradient against central differences, over all axes, one axis and keep_dims") {
  using S = tf::shape<3, 4>;
  const auto x0 = fd_check::uniform<S>(-2.0, 2.0);
  check_unary<S>([](auto x) { return tf::reduce_logsumexp(x); }, x0);
  check_unary<S>([](auto x) { return tf::reduce_logsumexp<0>(x); }, x0);
  check_unary<S>([](auto x) { return tf::reduce_logsumexp<-1>(x, keep_dims); }, x0);
  check_unary<S>([](auto x) { return tf::reduce_logsumexp<0, 1>(x, keep_dims); }, x0);
  // Large values, where exp overflows: the max is subtracted, the gradient stays finite.
  check_unary<S>([](auto x) { return tf::reduce_logsumexp<1>(x); }, fd_check::uniform<S>(1000.0, 1003.0));
}

TEST_CASE("reduce_logsumexp: the gradient of reduce_sum(reduce_logsumexp<1>(x)) is softmax(x)") {
  auto x = tf::placeholder<"x", double, tf::shape<3, 4>>();
  const auto y = tf::reduce_sum(tf::reduce_logsumexp<1>(x));
  const auto g = tf::gradient(y, x);
  const auto sm = tf::softmax(x);
  tf::session sess(g, sm);
  const auto x0 = fd_check::uniform<tf::shape<3, 4>>(-3.0, 3.0);
  const auto [gv, smv] = sess.run(tf::fetch(g, sm), tf::feed(x, x0));
  for (std::size_t i = 0; i < gv.size(); ++i) CHECK(gv.flat(i) == doctest::Approx(smv.flat(i)).epsilon(1e-12));
}

// --- reduce_prod --------------------------------------------------------------------------

namespace {
using S4 = tf::shape<2, 3, 4, 2>;

// _compareGradientAxes without axis=[] (no typeflow spelling): None, 0, [1], [2], [1, 2],
// [0, 1, 2, 3], against central differences.
void prod_gradient_axes(const fd_check::value_t<S4>& x0) {
  check_unary<S4>([](auto x) { return tf::reduce_prod(x); }, x0);
  check_unary<S4>([](auto x) { return tf::reduce_prod<0>(x); }, x0);
  check_unary<S4>([](auto x) { return tf::reduce_prod<1>(x); }, x0);
  check_unary<S4>([](auto x) { return tf::reduce_prod<2>(x); }, x0);
  check_unary<S4>([](auto x) { return tf::reduce_prod<1, 2>(x); }, x0);
  check_unary<S4>([](auto x) { return tf::reduce_prod<0, 1, 2, 3>(x); }, x0);
}
}  // namespace

TEST_CASE("ProdReductionTest.testGradientWithZeros: arange(1, 49) / 20 as [2, 3, 4, 2], with zeros") {
  fd_check::value_t<S4> x{};
  for (std::size_t i = 0; i < x.size(); ++i) x.flat(i) = double(i + 1) / 20.0;
  auto with_zeros_at = [&](std::ptrdiff_t k) {  // x[:, :, k, :] = 0, all of dim 2 for k = -2
    auto v = x;
    for (std::size_t a = 0; a < 2; ++a)
      for (std::size_t b = 0; b < 3; ++b)
        for (std::size_t c = 0; c < 4; ++c)
          for (std::size_t d = 0; d < 2; ++d)
            if (k == -2 || std::ptrdiff_t(c) == (k < 0 ? k + 4 : k)) v(a, b, c, d) = 0.0;
    return v;
  };
  SUBCASE("no zeros in input") { prod_gradient_axes(x); }
  SUBCASE("zero at beginning") { prod_gradient_axes(with_zeros_at(0)); }
  SUBCASE("zero at end") { prod_gradient_axes(with_zeros_at(-1)); }
  SUBCASE("zero in middle") { prod_gradient_axes(with_zeros_at(2)); }
  SUBCASE("all zeros") { prod_gradient_axes(with_zeros_at(-2)); }
}

TEST_CASE("reduce_prod: _ProdGrad's values: one zero gives the product of the others, two give 0") {
  auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
  const auto y = tf::reduce_sum(tf::reduce_prod<1>(x));
  const auto g = tf::gradient(y, x);
  tf::session sess(g);
  const auto got = sess.run(g, tf::feed(x, fd_check::value_t<tf::shape<2, 3>>{{2, 0, 3}, {0, 5, 0}}));
  const std::array<double, 6> want{0, 6, 0, 0, 0, 0};
  for (std::size_t i = 0; i < 6; ++i) CHECK(got.flat(i) == want[i]);
}

TEST_CASE("reduce_prod: gradient with a dynamic dim and keep_dims, against central differences") {
  using S = tf::shape<tf::dyn, 3>;
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 3}));
  check_unary<S>([](auto a) { return tf::reduce_prod<0>(a, keep_dims); }, x0);
  check_unary<S>([](auto a) { return tf::reduce_prod<-1>(a); }, x0);
}

// --- l2_normalize -------------------------------------------------------------------------

TEST_CASE("L2NormalizeTest.testL2NormalizeGradient: [20, 7, 3] in [0, 1), dim 0, 1, 2") {
  using S = tf::shape<20, 7, 3>;
  const auto x0 = fd_check::uniform<S>(0.0, 1.0);
  check_unary<S>([](auto x) { return tf::l2_normalize<0>(x); }, x0);
  check_unary<S>([](auto x) { return tf::l2_normalize<1>(x); }, x0);
  check_unary<S>([](auto x) { return tf::l2_normalize<2>(x); }, x0);
}
