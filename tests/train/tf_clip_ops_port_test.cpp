// clip_by_norm, clip_by_average_norm and clip_by_global_norm, ported from TensorFlow 1.x's
// clip_ops_test.py (tensorflow/python/kernel_tests/): the same tensors, clip norms and
// expected values. Each TEST_CASE names the tests it ports.
//
// Ported elsewhere: the clip_by_value cases (tests/ops/tf_array_ops_port_test.cpp,
// tests/train/losses_test.cpp, tests/autodiff/tf_array_gradient_port_test.cpp) and
// testClipByGlobalNormWithIndexedSlicesClipped (tests/train/sparse_update_test.cpp).
// Not ported: testClipByGlobalNormSupportsNone (a std::tuple of nodes has no None),
// testClipByGlobalNormPreservesDenseShape (a sparse gradient keeps its variable's shape by
// type), testClipByNormBadShape (a non-scalar clip norm is a compile error here,
// clip_norm_must_be_a_scalar<shape>, where TensorFlow raises ValueError).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

namespace {

using m23 = xt::xtensor_fixed<float, xt::xshape<2, 3>>;
using v2 = xt::xtensor_fixed<float, xt::xshape<2>>;

// assertAllClose: within 1e-6 + 1e-6 |want|.
template <class Got>
void check_close(const Got& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(static_cast<double>(got.data()[i]) - want[i]) <= 1e-6 + 1e-6 * std::abs(want[i]));
  }
}

template <class N>
auto run(N n) {
  tf::session sess(n);
  return sess.run(n);
}

const m23 x_norm5{{-3, 0, 0}, {4, 0, 0}};  // norm 5
const m23 x_columns{{-3, 0, 0}, {4, 0, 3}};  // column norms 5, 0, 3; row norms 3, 5

}  // namespace

TEST_CASE("testClipByNormClipped, testClipByNormNotClipped, testClipByNormZero (clip_ops_test.py)") {
  auto x = tf::constant<"x">(x_norm5);
  check_close(run(tf::clip_by_norm(x, tf::constant<4.0f>())), {-2.4, 0, 0, 3.2, 0, 0});
  check_close(run(tf::clip_by_norm(x, tf::constant<"clip_norm">(4.0f))), {-2.4, 0, 0, 3.2, 0, 0});  // a tensor
  check_close(run(tf::clip_by_norm(x, tf::constant<6.0f>())), {-3, 0, 0, 4, 0, 0});
  auto zero = tf::constant<"zero">(m23{});
  check_close(run(tf::clip_by_norm(zero, tf::constant<6.0f>())), {0, 0, 0, 0, 0, 0});
}

TEST_CASE("testClipByNormGradientZeros (clip_ops_test.py): the gradient at 0 is 1, not NaN") {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto b = tf::clip_by_norm(x, tf::constant<1.0f>());
  auto [grad] = tf::gradients(tf::reduce_sum(b), x);
  tf::session sess(grad);
  const auto g = sess.run(grad, tf::feed(x, xt::xtensor_fixed<float, xt::xshape<3>>{0, 0, 0}));
  CHECK(g == xt::xtensor_fixed<float, xt::xshape<3>>{1, 1, 1});
}

TEST_CASE("testClipByNormClippedWithDim0, WithDim1, NotClippedWithAxes (clip_ops_test.py)") {
  auto x = tf::constant<"x">(x_columns);
  check_close(run(tf::clip_by_norm<0>(x, tf::constant<4.0f>())), {-2.4, 0, 0, 3.2, 0, 3});
  check_close(run(tf::clip_by_norm<1>(x, tf::constant<4.0f>())), {-3, 0, 0, 3.2, 0, 2.4});
  check_close(run(tf::clip_by_norm<1>(x, tf::constant<6.0f>())), {-3, 0, 0, 4, 0, 3});
  // and a norm over rows against finite differences away from the kink (norm = clip_norm)
  auto p = tf::placeholder<"p", double, tf::shape<2, 3>>();
  auto [g] = tf::gradients(tf::reduce_sum(tf::clip_by_norm<1>(p, tf::constant<4.0>()) *
                                          tf::constant<"w">(xt::xtensor_fixed<double, xt::xshape<2, 3>>{{1, 2, 3}, {-1, 0.5, 2}})),
                           p);
  tf::session sess(g);
  const xt::xtensor_fixed<double, xt::xshape<2, 3>> p0{{-3, 0.5, 0.25}, {4, 1, 3}};  // row 0 unclipped, row 1 clipped
  const auto analytic = sess.run(g, tf::feed(p, p0));
  auto f = [&](const xt::xtensor_fixed<double, xt::xshape<2, 3>>& v) {
    const double w[2][3] = {{1, 2, 3}, {-1, 0.5, 2}};
    double total = 0;
    for (std::size_t r = 0; r < 2; ++r) {
      double n = 0;
      for (std::size_t c = 0; c < 3; ++c) n += v(r, c) * v(r, c);
      n = std::sqrt(n);
      for (std::size_t c = 0; c < 3; ++c) total += w[r][c] * v(r, c) * 4.0 / std::max(n, 4.0);
    }
    return total;
  };
  for (std::size_t i = 0; i < 6; ++i) {
    auto hi = p0, lo = p0;
    hi.data()[i] += 1e-6;
    lo.data()[i] -= 1e-6;
    CHECK(analytic.data()[i] == doctest::Approx((f(hi) - f(lo)) / 2e-6).epsilon(1e-6));
  }
}

TEST_CASE("testClipByGlobalNormClipped, ClippedTensor, NotClipped, Zero (clip_ops_test.py)") {
  auto x0 = tf::constant<"x0">(m23{{-2, 0, 0}, {4, 0, 0}});
  auto x1 = tf::constant<"x1">(v2{1, -2});  // global norm 5
  {
    auto [ans, norm] = tf::clip_by_global_norm(std::make_tuple(x0, x1), tf::constant<4.0f>());
    tf::session sess(std::get<0>(ans), std::get<1>(ans), norm);
    CHECK(sess.run(norm) == doctest::Approx(5.0).epsilon(1e-6));
    check_close(sess.run(std::get<0>(ans)), {-1.6, 0, 0, 3.2, 0, 0});
    check_close(sess.run(std::get<1>(ans)), {0.8, -1.6});
  }
  {
    auto [ans, norm] = tf::clip_by_global_norm(std::make_tuple(x0, x1), tf::constant<"clip_norm">(4.0f));
    tf::session sess(std::get<0>(ans), std::get<1>(ans), norm);
    check_close(sess.run(std::get<0>(ans)), {-1.6, 0, 0, 3.2, 0, 0});
    check_close(sess.run(std::get<1>(ans)), {0.8, -1.6});
  }
  {
    auto [ans, norm] = tf::clip_by_global_norm(std::make_tuple(x0, x1), tf::constant<6.0f>());
    tf::session sess(std::get<0>(ans), std::get<1>(ans), norm);
    CHECK(sess.run(norm) == doctest::Approx(5.0).epsilon(1e-6));
    check_close(sess.run(std::get<0>(ans)), {-2, 0, 0, 4, 0, 0});
    check_close(sess.run(std::get<1>(ans)), {1, -2});
  }
  {
    auto z0 = tf::constant<"z0">(m23{});
    auto z1 = tf::constant<"z1">(v2{0, 0});
    auto [ans, norm] = tf::clip_by_global_norm(std::make_tuple(z0, z1), tf::constant<6.0f>());
    tf::session sess(std::get<0>(ans), std::get<1>(ans), norm);
    CHECK(sess.run(norm) == 0.0f);
    check_close(sess.run(std::get<0>(ans)), {0, 0, 0, 0, 0, 0});
    check_close(sess.run(std::get<1>(ans)), {0, 0});
  }
}

TEST_CASE("testClipByGlobalNormInf (clip_ops_test.py): an infinite global norm makes every value NaN") {
  const float inf = std::numeric_limits<float>::infinity();
  auto x0 = tf::constant<"x0">(m23{{-2, 0, inf}, {4, 0, 0}});
  auto x1 = tf::constant<"x1">(v2{1, -2});
  auto [ans, norm] = tf::clip_by_global_norm(std::make_tuple(x0, x1), tf::constant<6.0f>());
  tf::session sess(std::get<0>(ans), std::get<1>(ans), norm);
  CHECK(sess.run(norm) == inf);
  const auto a0 = sess.run(std::get<0>(ans));
  const auto a1 = sess.run(std::get<1>(ans));
  for (float v : a0) CHECK(std::isnan(v));
  for (float v : a1) CHECK(std::isnan(v));
}

TEST_CASE("testClipByAverageNormClipped, ClippedTensor, NotClipped, Zero, ReplacedWithClipByNorm (clip_ops_test.py)") {
  auto x = tf::constant<"x">(x_norm5);  // average norm 5 / 6 = 0.8333
  check_close(run(tf::clip_by_average_norm(x, tf::constant<0.8f>())), {-2.88, 0, 0, 3.84, 0, 0});
  check_close(run(tf::clip_by_average_norm(x, tf::constant<"clip_norm">(0.8f))), {-2.88, 0, 0, 3.84, 0, 0});
  check_close(run(tf::clip_by_average_norm(x, tf::constant<0.9f>())), {-3, 0, 0, 4, 0, 0});
  auto zero = tf::constant<"zero">(m23{});
  check_close(run(tf::clip_by_average_norm(zero, tf::constant<0.9f>())), {0, 0, 0, 0, 0, 0});
  // clip_by_average_norm(t, c) is clip_by_norm(t, c * size(t))
  const auto with_norm = run(tf::clip_by_average_norm(x, tf::constant<0.8f>()));
  const auto without_norm = run(tf::clip_by_norm(x, tf::constant<0.8f>() * tf::constant<6.0f>()));
  check_close(with_norm, std::vector<double>(without_norm.begin(), without_norm.end()));
}
