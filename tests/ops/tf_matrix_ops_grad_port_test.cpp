// The gradient tests of ops/diagonal.hpp and ops/matrix_ops.hpp (the values and errors are in
// tf_matrix_ops_port_test.cpp), ported from TensorFlow 1.x's diag_op_test.py
// (MatrixDiagTest.testGrad, MatrixSetDiagTest.testGrad, MatrixDiagPartTest.testGrad,
// DiagGradOpTest, DiagGradPartOpTest), matrix_band_part_op_test.py (MatrixBandPartGradTest) and
// broadcast_to_ops_test.py (testGradientForScalar, testGradientWithSameRank,
// testGradientWithIncreasingRank), with the shapes those tests give. TensorFlow's
// gradient_checker is central differences here (tests/autodiff/fd_check.hpp), at random values.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

namespace {

// The gradient of reduce_sum(f(x) * w) at random x and w against central differences: x of
// static shape XS, w a constant named WName of f(x)'s shape.
template <tf::fixed_string WName, class XS, class F>
void check_fd(F f) {
  auto x = tf::placeholder<"x", double, XS>();
  auto y = f(x);
  const auto w = tf::constant<WName>(fd_check::uniform<tf::shape_of<decltype(y)>>());
  const auto loss = tf::reduce_sum(y * w);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<XS>());
}

}  // namespace

TEST_CASE("trace: gradient against central differences (reduce_sum of matrix_diag_part)") {
  check_fd<"tr_w", shape<2, 3, 3>>([](auto v) { return tf::trace(v); });
}

TEST_CASE("matrix_transpose: gradient against central differences") {
  check_fd<"mt_w", shape<2, 3, 4>>([](auto x) { return tf::matrix_transpose(x); });
}

TEST_CASE("MatrixDiagTest.testGrad: shapes (3,) and (7, 4)") {
  check_fd<"md_w3", shape<3>>([](auto x) { return tf::matrix_diag(x); });
  check_fd<"md_w74", shape<7, 4>>([](auto x) { return tf::matrix_diag(x); });
}

TEST_CASE("MatrixSetDiagTest.testGrad: input shapes (3, 4, 4), (3, 3, 4), (3, 4, 3), both inputs") {
  auto run = [](auto xs, auto vs) {
    using XS = decltype(xs);
    using VS = decltype(vs);
    auto x = tf::placeholder<"x", double, XS>();
    auto v = tf::placeholder<"v", double, VS>();
    const auto w = tf::constant<"sd_w">(fd_check::uniform<XS>());
    const auto loss = tf::reduce_sum(tf::matrix_set_diag(x, v) * w);
    tf::session sess(loss);
    const auto v0 = fd_check::uniform<VS>();
    const auto x0 = fd_check::uniform<XS>();
    fd_check::check_gradient(sess, loss, x, x0, tf::feed(v, v0));
    fd_check::check_gradient(sess, loss, v, v0, tf::feed(x, x0));
  };
  run(shape<3, 4, 4>{}, shape<3, 4>{});
  run(shape<3, 3, 4>{}, shape<3, 3>{});
  run(shape<3, 4, 3>{}, shape<3, 3>{});
}

TEST_CASE("MatrixDiagPartTest.testGrad: shapes (3, 3), (2, 3), (3, 2), (5, 3, 3)") {
  check_fd<"mdp_w33", shape<3, 3>>([](auto x) { return tf::matrix_diag_part(x); });
  check_fd<"mdp_w23", shape<2, 3>>([](auto x) { return tf::matrix_diag_part(x); });
  check_fd<"mdp_w32", shape<3, 2>>([](auto x) { return tf::matrix_diag_part(x); });
  check_fd<"mdp_w533", shape<5, 3, 3>>([](auto x) { return tf::matrix_diag_part(x); });
}

TEST_CASE("DiagGradOpTest.testDiagGrad and DiagGradPartOpTest.testDiagGradPart") {
  check_fd<"dg_w3", shape<3>>([](auto x) { return tf::diag(x); });
  check_fd<"dg_w33", shape<3, 3>>([](auto x) { return tf::diag(x); });
  check_fd<"dg_w333", shape<3, 3, 3>>([](auto x) { return tf::diag(x); });
  check_fd<"dgp_w33", shape<3, 3>>([](auto x) { return tf::diag_part(x); });
  check_fd<"dgp_w3333", shape<3, 3, 3, 3>>([](auto x) { return tf::diag_part(x); });
}

TEST_CASE("MatrixBandPartGradTest: shapes (1,1) (1,2) (2,1) (3,3) (5,3) (3,5), batch () and (2,)") {
  auto x = tf::placeholder<"x", double, shape<dyn, dyn, dyn>>();
  auto w = tf::placeholder<"w", double, shape<dyn, dyn, dyn>>();
  auto lo = tf::placeholder<"lo", std::int32_t, tf::scalar>();
  auto up = tf::placeholder<"up", std::int32_t, tf::scalar>();
  const auto loss = tf::reduce_sum(tf::matrix_band_part(x, lo, up) * w);
  tf::session sess(loss);
  const std::array<std::array<std::size_t, 2>, 6> shapes{{{1, 1}, {1, 2}, {2, 1}, {3, 3}, {5, 3}, {3, 5}}};
  for (std::size_t batch : {std::size_t{1}, std::size_t{2}})
    for (const auto& s : shapes)
      for (int lower : {-1, 0, 1, static_cast<int>(s[0]) - 1})
        for (int upper : {-1, 0, 1, static_cast<int>(s[1]) - 1}) {
          INFO("batch " << batch << " shape " << s[0] << "x" << s[1] << " lower " << lower << " upper " << upper);
          const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 3>::from_shape({batch, s[0], s[1]}));
          const auto w0 = fd_check::fill_uniform(xt::xtensor<double, 3>::from_shape({batch, s[0], s[1]}));
          fd_check::check_gradient(sess, loss, x, x0, tf::feed(w, w0), tf::feed(lo, lower), tf::feed(up, upper));
        }
  check_fd<"bp_w", shape<2, 3, 4>>([](auto v) { return tf::matrix_band_part<1, 0>(v); });
}

TEST_CASE("BroadcastToTest.testGradientForScalar, testGradientWithSameRank, testGradientWithIncreasingRank") {
  // out = 2 * broadcast_to(1.0, [2, 4, 3]): d sum(out * w) / dx = 2 sum(w).
  check_fd<"bt_w0", tf::scalar>([](auto x) { return tf::broadcast_to<shape<2, 4, 3>>(x) * tf::constant<2.0>(); });
  check_fd<"bt_w1", shape<2, 1, 3>>([](auto x) { return tf::broadcast_to<shape<2, 5, 3>>(x); });
  check_fd<"bt_w2", shape<2, 1>>([](auto x) { return tf::broadcast_to<shape<5, 2, 3>>(x); });
  // dyn dims of x: summed back to its run-time shape.
  auto x = tf::placeholder<"x", double, shape<dyn, 1>>();
  const auto w = tf::constant<"bt_wd">(fd_check::uniform<shape<5, 2, 3>>());
  const auto loss = tf::reduce_sum(tf::broadcast_to<shape<5, 2, 3>>(x) * w);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, x, fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({2, 1})));
}

