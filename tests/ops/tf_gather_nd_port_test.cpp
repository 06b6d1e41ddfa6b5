// gather_nd and scatter_nd (ops/gather_nd.hpp), ported from TensorFlow 1.x's
// gather_nd_op_test.py (GatherNdTest) and scatter_nd_ops_test.py (ScatterNdTest, and
// testScatterOutOfRangeCpu of StatefulScatterNdTest for scatter_nd's message). Each TEST_CASE
// names the TensorFlow test it ports; expected values are the tests' literals, or numpy's
// computation done here by index arithmetic (params[tuple(indices.T)], np.sum). Gradients are
// also checked against central differences (tests/autodiff/fd_check.hpp).
//
// Not ported, and why:
// - complex, string and float16 dtypes (testSimpleDtype's, testString, GRADIENT_TESTS_DTYPES'
//   float16): typeflow has no such element types.
// - testUnknownIndices, testUndefinedIndicesShape: typeflow's ranks are static and the index
//   depth must be too (a compile error otherwise); ported with dyn dims elsewhere.
// - testRank3InvalidShape1/2, testInvalidShape: compile errors here (compile-fail test
//   scatter_nd_updates_shape, tests/ops/CMakeLists.txt); with dyn dims, a run-time error below.
// - testEmptyOutputShape1 (a ValueError at graph construction in TensorFlow): a run-time
//   InvalidArgument here, as TensorFlow's testEmptyOutputShape2.
// - ScatterNdNonAliasingAddTest, the stateful scatter_nd_update/add/sub: other ops.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "ops_testing.hpp"
#include "tf_port_testing.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;
using tf_port_testing::check_all;
using tf_port_testing::dynamic;
using tf_port_testing::fixed;
using tf_port_testing::has_shape;
using tf_port_testing::invalid_argument_message;

namespace {

// np.concatenate of the rows `rows` of `flat`, rows of `row` elements (params[[4, 4, 0]]).
std::vector<double> take_rows(const std::vector<double>& flat, std::size_t row, std::initializer_list<std::size_t> rows) {
  std::vector<double> out;
  for (std::size_t r : rows) out.insert(out.end(), flat.begin() + std::ptrdiff_t(r * row), flat.begin() + std::ptrdiff_t((r + 1) * row));
  return out;
}

// np.array([[-8, -1, -2, -3, -7, -5], [8, 1, 2, 3, 7, 5]]).T, [6, 2].
const std::vector<double> params_6x2{-8, 8, -1, 1, -2, 2, -3, 3, -7, 7, -5, 5};
// np.array([[[-8, -1, ...], [8, 1, ...]], [[-80, -10, ...], [80, 10, ...]]]).T, [6, 2, 2].
const std::vector<double> params_6x2x2{-8, -80, 8, 80, -1, -10, 1, 10, -2, -20, 2, 20,
                                       -3, -30, 3, 30, -7, -70, 7, 70, -5, -50, 5, 50};

auto p6x2() { return tf::placeholder<"p6x2", float, shape<6, 2>>(); }
auto p6x2x2() { return tf::placeholder<"p6x2x2", float, shape<6, 2, 2>>(); }

}  // namespace

// --- gather_nd: values --------------------------------------------------------------------

TEST_CASE("GatherNdTest.testSimpleDtype: [8, 1, 2, 3, 7, 5] at [[4], [4], [0]] is [7, 7, 8], shape [3]") {
  auto run = [](auto tag) {
    using T = decltype(tag);
    auto params = tf::placeholder<"params", T, shape<6>>();
    auto indices = tf::constant<"sd_indices">(fixed<std::int32_t, 3, 1>({4, 4, 0}));
    auto g = tf::gather_nd(params, indices);
    static_assert(has_shape<decltype(g), shape<3>>);
    static_assert(std::is_same_v<tf::value_type_of<decltype(g)>, T>);
    static_assert(tf::op_name_of<decltype(g)>() == "GatherNd");
    tf::session sess(g);
    check_all(sess.run(g, tf::feed(params, fixed<T, 6>({8, 1, 2, 3, 7, 5}))), {3}, {7, 7, 8});
  };
  run(float{});
  run(double{});
  run(std::int32_t{});
  run(std::int64_t{});
}

TEST_CASE("GatherNdTest.testEmptyIndicesAndParamsOKButJustEmptyParamsFails") {
  // Static shapes: TensorFlow's get_shape() checks.
  static_assert(has_shape<decltype(tf::gather_nd(tf::placeholder<"p", float, shape<3, 3>>(),
                                                  tf::placeholder<"i", std::int32_t, shape<0, 2>>())),
                          shape<0>>);
  static_assert(has_shape<decltype(tf::gather_nd(tf::placeholder<"p", float, shape<3, 3>>(),
                                                  tf::placeholder<"i", std::int32_t, shape<0, 1>>())),
                          shape<0, 3>>);
  // Values, with the empty dims fed.
  auto params = tf::placeholder<"params", float, shape<dyn, 3>>();
  auto i2 = tf::placeholder<"i2", std::int32_t, shape<dyn, 2>>();
  auto i1 = tf::placeholder<"i1", std::int32_t, shape<dyn, 1>>();
  auto g2 = tf::gather_nd(params, i2);
  auto g1 = tf::gather_nd(params, i1);
  static_assert(has_shape<decltype(g2), shape<dyn>> && has_shape<decltype(g1), shape<dyn, 3>>);
  tf::session sess(g1, g2);
  const auto ones = dynamic<float, 2>({3, 3}, std::vector<double>(9, 1.0));
  check_all(sess.run(g2, tf::feed(params, ones), tf::feed(i2, dynamic<std::int32_t, 2>({0, 2}, {}))), {0}, {});
  check_all(sess.run(g1, tf::feed(params, ones), tf::feed(i1, dynamic<std::int32_t, 2>({0, 1}, {}))), {0, 3}, {});
  const auto params_empty = dynamic<float, 2>({0, 3}, {});
  check_all(sess.run(g2, tf::feed(params, params_empty), tf::feed(i2, dynamic<std::int32_t, 2>({0, 2}, {}))), {0},
            {});
  CHECK(invalid_argument_message([&] {
          sess.run(g2, tf::feed(params, params_empty), tf::feed(i2, dynamic<std::int32_t, 2>({1, 2}, {0, 0})));
        }) == "GatherNd: Requested more than 0 entries, but params is empty. Params shape: [0,3]");
}

TEST_CASE("GatherNdTest.testIndexScalar: params [6, 2] at [4, 1] is 7, shape []") {
  auto indices = tf::constant<"is_indices">(fixed<std::int32_t, 2>({4, 1}));
  auto g = tf::gather_nd(p6x2(), indices);
  static_assert(has_shape<decltype(g), tf::scalar>);
  tf::session sess(g);
  CHECK(sess.run(g, tf::feed(p6x2(), dynamic<float, 2>({6, 2}, params_6x2))) == 7.0f);
}

TEST_CASE("GatherNdTest.testParamsRankLargerThanIndexIndexScalarSlices: params [6, 2] at [4] is [-7, 7]") {
  auto indices = tf::constant<"ss_indices">(fixed<std::int32_t, 1>({4}));
  auto g = tf::gather_nd(p6x2(), indices);
  static_assert(has_shape<decltype(g), shape<2>>);
  tf::session sess(g);
  check_all(sess.run(g, tf::feed(p6x2(), dynamic<float, 2>({6, 2}, params_6x2))), {2}, {-7, 7});
}

TEST_CASE("GatherNdTest.testParamsRankLargerThanIndexSlices: params [6, 2] at [[4], [4], [0]]") {
  auto indices = tf::constant<"sl_indices">(fixed<std::int32_t, 3, 1>({4, 4, 0}));
  auto g = tf::gather_nd(p6x2(), indices);
  static_assert(has_shape<decltype(g), shape<3, 2>>);
  tf::session sess(g);
  check_all(sess.run(g, tf::feed(p6x2(), dynamic<float, 2>({6, 2}, params_6x2))), {3, 2}, {-7, 7, -7, 7, -8, 8});
}

TEST_CASE("GatherNdTest.testHigherRankParamsLargerThanIndexSlices and ...AndIndicesLargerThanIndexSlices") {
  auto i2 = tf::constant<"hr_i2">(fixed<std::int32_t, 3, 1>({4, 4, 0}));
  auto i3 = tf::constant<"hr_i3">(fixed<std::int32_t, 2, 3, 1>({3, 2, 1, 4, 4, 0}));
  auto g2 = tf::gather_nd(p6x2x2(), i2);
  auto g3 = tf::gather_nd(p6x2x2(), i3);
  static_assert(has_shape<decltype(g2), shape<3, 2, 2>> && has_shape<decltype(g3), shape<2, 3, 2, 2>>);
  tf::session sess(g2, g3);
  const auto p = dynamic<float, 3>({6, 2, 2}, params_6x2x2);  // a feed refers to its value
  check_all(sess.run(g2, tf::feed(p6x2x2(), p)), {3, 2, 2}, take_rows(params_6x2x2, 4, {4, 4, 0}));
  check_all(sess.run(g3, tf::feed(p6x2x2(), p)), {2, 3, 2, 2}, take_rows(params_6x2x2, 4, {3, 2, 1, 4, 4, 0}));
}

TEST_CASE("GatherNdTest.testEmptyIndicesLastRankMeansCopyEntireTensor: indices [2, 0] copy params twice") {
  auto indices = tf::placeholder<"indices", std::int32_t, shape<dyn, 0>>();
  auto g = tf::gather_nd(p6x2x2(), indices);
  static_assert(has_shape<decltype(g), shape<dyn, 6, 2, 2>>);
  tf::session sess(g);
  std::vector<double> twice = params_6x2x2;
  twice.insert(twice.end(), params_6x2x2.begin(), params_6x2x2.end());
  check_all(sess.run(g, tf::feed(p6x2x2(), dynamic<float, 3>({6, 2, 2}, params_6x2x2)),
                     tf::feed(indices, dynamic<std::int32_t, 2>({2, 0}, {}))),
            {2, 6, 2, 2}, twice);
}

TEST_CASE("GatherNdTest.testHigherRankParams and testHigherRankParamsAndIndices: params (10, 20, 5, 1, 17)") {
  static_assert(has_shape<decltype(tf::gather_nd(tf::placeholder<"p", double, shape<10, 20, 5, 1, 17>>(),
                                                  tf::placeholder<"i", std::int64_t, shape<2000, 5>>())),
                          shape<2000>>);
  static_assert(has_shape<decltype(tf::gather_nd(tf::placeholder<"p", double, shape<10, 20, 5, 1, 17>>(),
                                                  tf::placeholder<"i", std::int64_t, shape<10, 10, 20, 5>>())),
                          shape<10, 10, 20>>);
  const std::array<std::size_t, 5> dims{10, 20, 5, 1, 17};
  std::mt19937 rng(20240615u);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto params_v = xt::xtensor<double, 5>::from_shape(dims);
  for (auto& x : params_v) x = u(rng);
  std::vector<double> idx, expected;  // np.vstack([randint(0, s, 2000) for s in shape]).T
  for (std::size_t k = 0; k < 2000; ++k) {
    std::size_t flat = 0;
    for (std::size_t j = 0; j < 5; ++j) {
      const std::size_t v = std::uniform_int_distribution<std::size_t>(0, dims[j] - 1)(rng);
      idx.push_back(double(v));
      flat = flat * dims[j] + v;
    }
    expected.push_back(params_v.flat(flat));  // params[tuple(indices.T)]
  }
  auto params = tf::placeholder<"params", double, shape<dyn, dyn, dyn, dyn, dyn>>();
  auto i2 = tf::placeholder<"i2", std::int64_t, shape<dyn, 5>>();
  auto i4 = tf::placeholder<"i4", std::int64_t, shape<dyn, dyn, dyn, 5>>();
  auto g2 = tf::gather_nd(params, i2);
  auto g4 = tf::gather_nd(params, i4);
  tf::session sess(g2, g4);
  check_all(sess.run(g2, tf::feed(params, params_v), tf::feed(i2, dynamic<std::int64_t, 2>({2000, 5}, idx))), {2000},
            expected);
  check_all(sess.run(g4, tf::feed(params, params_v), tf::feed(i4, dynamic<std::int64_t, 4>({10, 10, 20, 5}, idx))),
            {10, 10, 20}, expected);
}

TEST_CASE("GatherNdTest.testUnknownIndices (dyn dims): params [1, 3], indices [?, 1] and [?, 2]") {
  auto params = tf::constant<"un_params">(fixed<std::int32_t, 1, 3>({0, 1, 2}));
  auto i1 = tf::placeholder<"i1", std::int32_t, shape<dyn, 1>>();
  auto i2 = tf::placeholder<"i2", std::int64_t, shape<dyn, dyn, 2>>();
  auto g1 = tf::gather_nd(params, i1);
  auto g2 = tf::gather_nd(params, i2);
  static_assert(has_shape<decltype(g1), shape<dyn, 3>> && has_shape<decltype(g2), shape<dyn, dyn>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(g2)>, std::int32_t>);
  tf::session sess(g1, g2);
  check_all(sess.run(g1, tf::feed(i1, dynamic<std::int32_t, 2>({2, 1}, {0, 0}))), {2, 3}, {0, 1, 2, 0, 1, 2});
  check_all(sess.run(g2, tf::feed(i2, dynamic<std::int64_t, 3>({1, 3, 2}, {0, 2, 0, 0, 0, 1}))), {1, 3}, {2, 0, 1});
}

TEST_CASE("GatherNdTest.testBadIndicesCPU and testBadIndicesWithSlicesCPU: the message names the index") {
  auto params = tf::constant<"bi_params">(fixed<std::int32_t, 3>({0, 1, 2}));
  auto indices = tf::placeholder<"indices", std::int32_t, shape<1, 2, 1>>();
  auto g = tf::gather_nd(params, indices);
  auto params13 = tf::constant<"bi_params13">(fixed<std::int32_t, 1, 3>({0, 1, 2}));
  auto indices3 = tf::placeholder<"indices3", std::int32_t, shape<1, 3, 1>>();
  auto g13 = tf::gather_nd(params13, indices3);
  tf::session sess(g, g13);
  CHECK(invalid_argument_message([&] { sess.run(g, tf::feed(indices, fixed<std::int32_t, 1, 2, 1>({0, 7}))); }) ==
        "indices[0,1] = [7] does not index into param shape [3]");
  CHECK(invalid_argument_message([&] { sess.run(g, tf::feed(indices, fixed<std::int32_t, 1, 2, 1>({-1, 0}))); }) ==
        "indices[0,0] = [-1] does not index into param shape [3]");
  CHECK(invalid_argument_message(
            [&] { sess.run(g13, tf::feed(indices3, fixed<std::int32_t, 1, 3, 1>({0, 0, 1}))); }) ==
        "indices[0,2] = [1] does not index into param shape [1,3]");
  // A run after the failed ones computes as before.
  check_all(sess.run(g, tf::feed(indices, fixed<std::int32_t, 1, 2, 1>({2, 0}))), {1, 2}, {2, 0});
  // A whole index row is printed; the output shape of the gradient is checked the same way.
  auto p2 = tf::placeholder<"p2", double, shape<2, 3>>();
  auto i2 = tf::placeholder<"i2", std::int64_t, shape<2>>();
  auto grad = tf::gradient(tf::gather_nd(p2, i2), p2);
  tf::session sess2(grad);
  CHECK(invalid_argument_message([&] {
          sess2.run(grad, tf::feed(p2, xt::xtensor_fixed<double, xt::xshape<2, 3>>{}),
                    tf::feed(i2, fixed<std::int64_t, 2>({1, 3})));
        }) == "indices = [1, 3] does not index into shape [2,3]");
}

// --- gather_nd: gradients -----------------------------------------------------------------

namespace {
// gradients([gather_nd(inputs, indices)], [inputs], [grad_vals]) with inputs fed `in`.
template <class IT, class PS, class IS, class GS, class P, class I, class GV>
auto gather_nd_grad(const P& in, const I& ix, const GV& gv) {
  auto inputs = tf::placeholder<"inputs", double, PS>();
  auto indices = tf::placeholder<"indices", IT, IS>();
  auto grad_vals = tf::placeholder<"grad_vals", double, GS>();
  auto outputs = tf::gather_nd(inputs, indices);
  static_assert(has_shape<decltype(outputs), GS>);
  auto grads = tf::gradient(tf::grad_ys(outputs, grad_vals), inputs);
  static_assert(has_shape<decltype(grads), PS>);
  tf::session sess(grads);
  return sess.run(grads, tf::feed(inputs, in), tf::feed(indices, ix), tf::feed(grad_vals, gv));
}
}  // namespace

TEST_CASE("GatherNdTest.testGradientsRank2Elements") {
  const auto g = gather_nd_grad<std::int32_t, shape<2, 2>, shape<2, 2>, shape<2>>(
      fixed<double, 2, 2>({1, 2, 3, 4}), fixed<std::int32_t, 2, 2>({0, 0, 1, 1}), fixed<double, 2>({1, 2}));
  check_all(g, {2, 2}, {1, 0, 0, 2});
}

TEST_CASE("GatherNdTest.testGradientsRank2Slices") {
  const auto g = gather_nd_grad<std::int32_t, shape<2, 2>, shape<2, 1>, shape<2, 2>>(
      fixed<double, 2, 2>({1, 2, 3, 4}), fixed<std::int32_t, 2, 1>({1, 0}), fixed<double, 2, 2>({1, 2, 3, 4}));
  check_all(g, {2, 2}, {3, 4, 1, 2});
}

TEST_CASE("GatherNdTest.testGradientsRank3Elements and testGradientsInt64Indices") {
  const auto in = fixed<double, 2, 2, 2>({1, 3, 5, 7, 2, 4, 6, 8});
  const auto gv = fixed<double, 2, 2, 2>({1, 2, 3, 4, 5, 6, 7, 8});
  const auto g32 = gather_nd_grad<std::int32_t, shape<2, 2, 2>, shape<2, 2, 2>, shape<2, 2, 2>>(
      in, fixed<std::int32_t, 2, 2, 2>({0, 1, 1, 0, 0, 0, 1, 1}), gv);
  check_all(g32, {2, 2, 2}, {5, 6, 1, 2, 3, 4, 7, 8});
  const auto g64 = gather_nd_grad<std::int64_t, shape<2, 2, 2>, shape<2, 2, 2>, shape<2, 2, 2>>(
      in, fixed<std::int64_t, 2, 2, 2>({0, 1, 1, 0, 0, 0, 1, 1}), gv);
  check_all(g64, {2, 2, 2}, {5, 6, 1, 2, 3, 4, 7, 8});
}

TEST_CASE("GatherNdTest.testGradientsRank7Elements: params [1, 1, 2, 1, 1, 2, 2], index depth 6") {
  using S7 = shape<1, 1, 2, 1, 1, 2, 2>;
  const auto g = gather_nd_grad<std::int32_t, S7, shape<1, 1, 2, 1, 1, 2, 6>, S7>(
      fixed<double, 1, 1, 2, 1, 1, 2, 2>({1, 3, 5, 7, 2, 4, 6, 8}),
      fixed<std::int32_t, 1, 1, 2, 1, 1, 2, 6>(
          {0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}),
      fixed<double, 1, 1, 2, 1, 1, 2, 2>({1, 2, 3, 4, 5, 6, 7, 8}));
  check_all(g, {1, 1, 2, 1, 1, 2, 2}, {5, 6, 1, 2, 3, 4, 7, 8});
}

TEST_CASE("GatherNdTest.testGradientsRank2SlicesWithEmptySpace: rows 2, 0, 5 of [6, 9]") {
  std::vector<double> in, gv, want;
  for (std::size_t r = 0; r < 6; ++r)
    for (std::size_t c = 0; c < 9; ++c) in.push_back(double(c + 1));
  for (double v : {1.0, 2.0, 3.0}) gv.insert(gv.end(), 9, v);
  for (double v : {2.0, 0.0, 1.0, 0.0, 0.0, 3.0}) want.insert(want.end(), 9, v);
  // dyn params: the gradient's dims come from params' value (scatter_nd with shape_op).
  const auto g = gather_nd_grad<std::int32_t, shape<dyn, 9>, shape<3, 1>, shape<3, 9>>(
      dynamic<double, 2>({6, 9}, in), fixed<std::int32_t, 3, 1>({2, 0, 5}), dynamic<double, 2>({3, 9}, gv));
  check_all(g, {6, 9}, want);
}

TEST_CASE("gather_nd: gradients against central differences (static, dyn, repeated indices, second order)") {
  using PS = shape<4, 3, 2>;
  auto x = tf::placeholder<"x", double, PS>();
  auto indices = tf::constant<"fd_indices">(fixed<std::int32_t, 5, 2>({1, 2, 0, 0, 3, 1, 1, 2, 2, 0}));
  const auto w = tf::constant<"fd_w">(fd_check::uniform<shape<5, 2>>());
  const auto loss = tf::reduce_sum(tf::gather_nd(x, indices) * w);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<PS>());
  // dyn dims of params.
  auto xd = tf::placeholder<"xd", double, shape<dyn, 3, dyn>>();
  const auto w2 = tf::constant<"fd_w2">(fd_check::uniform<shape<5>>());
  auto ix3 = tf::constant<"fd_ix3">(fixed<std::int64_t, 5, 3>({1, 2, 0, 0, 0, 1, 3, 1, 1, 1, 2, 0, 1, 2, 0}));
  const auto lossd = tf::reduce_sum(tf::gather_nd(xd, ix3) * w2);
  tf::session sessd(lossd);
  fd_check::check_gradient(sessd, lossd, xd, fd_check::fill_uniform(xt::xtensor<double, 3>::from_shape({4, 3, 2})));
  // Second order: d/dv of sum(gradient(grad_ys(gather_nd(x), v), x) * u) is gather_nd(u).
  auto v = tf::placeholder<"v", double, shape<5, 2>>();
  const auto u = tf::constant<"fd_u">(fd_check::uniform<PS>());
  const auto loss2 = tf::reduce_sum(tf::gradient(tf::grad_ys(tf::gather_nd(x, indices), v), x) * u);
  tf::session sess2(loss2);
  fd_check::check_gradient(sess2, loss2, v, fd_check::uniform<shape<5, 2>>(), tf::feed(x, fd_check::uniform<PS>()));
}

// --- scatter_nd ---------------------------------------------------------------------------

TEST_CASE("ScatterNdTest.testRank3ValidShape and testExtraIndicesDimensions") {
  auto indices = tf::constant<"vs_indices">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 2>>{});
  auto updates = tf::constant<"vs_updates">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 2>>{});
  auto s = tf::scatter_nd<shape<2, 2, 2>>(indices, updates);
  static_assert(has_shape<decltype(s), shape<2, 2, 2>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(s)>, std::int32_t>);
  static_assert(tf::op_name_of<decltype(s)>() == "ScatterNd");
  auto ie = tf::constant<"ed_indices">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 1, 2>>{});
  auto ue = tf::constant<"ed_updates">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 1>>{});
  auto e = tf::scatter_nd<shape<2, 2>>(ie, ue);
  static_assert(has_shape<decltype(e), shape<2, 2>>);
  tf::session sess(s, e);
  check_all(sess.run(s), {2, 2, 2}, std::vector<double>(8, 0.0));
  check_all(sess.run(e), {2, 2}, {0, 0, 0, 0});
}

TEST_CASE("ScatterNdTest.testUndefinedIndicesShape, ...UpdatesShape, ...OutputShape (dyn dims)") {
  auto ind = tf::placeholder<"indices", std::int32_t, shape<dyn, dyn, 2>>();
  auto upd = tf::placeholder<"updates", std::int32_t, shape<2, 2, 2>>();
  auto s1 = tf::scatter_nd<shape<2, 2, 2>>(ind, upd);
  auto ind_s = tf::placeholder<"indices_s", std::int32_t, shape<2, 2, 2>>();
  auto upd_d = tf::placeholder<"updates_d", std::int32_t, shape<dyn, dyn, dyn>>();
  auto s2 = tf::scatter_nd<shape<2, 2, 2>>(ind_s, upd_d);
  auto dims = tf::placeholder<"shape", std::int32_t, shape<3>>();
  auto s3 = tf::scatter_nd(ind_s, upd, dims);
  static_assert(has_shape<decltype(s1), shape<2, 2, 2>> && has_shape<decltype(s2), shape<2, 2, 2>>);
  static_assert(has_shape<decltype(s3), shape<dyn, dyn, dyn>>);
  tf::session sess(s1, s2, s3);
  const auto ix = fixed<std::int32_t, 2, 2, 2>({0, 1, 1, 0, 1, 1, 0, 1});
  const auto up = fixed<std::int32_t, 2, 2, 2>({1, 2, 3, 4, 5, 6, 7, 8});
  // Rows (0,1) and (0,1) again: [1, 2] + [7, 8]; (1,0): [3, 4]; (1,1): [5, 6].
  const std::vector<double> want{0, 0, 8, 10, 3, 4, 5, 6};
  check_all(sess.run(s1, tf::feed(ind, dynamic<std::int32_t, 3>({2, 2, 2}, {0, 1, 1, 0, 1, 1, 0, 1})),
                     tf::feed(upd, up)),
            {2, 2, 2}, want);
  check_all(sess.run(s2, tf::feed(ind_s, ix), tf::feed(upd_d, dynamic<std::int32_t, 3>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}))),
            {2, 2, 2}, want);
  check_all(sess.run(s3, tf::feed(ind_s, ix), tf::feed(upd, up), tf::feed(dims, fixed<std::int32_t, 3>({2, 2, 2}))),
            {2, 2, 2}, want);
  // The shape [3, 2, 2] leaves row 2 at zero.
  std::vector<double> want3 = want;
  want3.insert(want3.end(), 4, 0.0);
  check_all(sess.run(s3, tf::feed(ind_s, ix), tf::feed(upd, up), tf::feed(dims, fixed<std::int32_t, 3>({3, 2, 2}))),
            {3, 2, 2}, want3);
  // Updates whose dyn dims disagree with indices.shape[:-1] + shape[2:] (testRank3InvalidShape1
  // at run time), and a shape whose inner dims disagree with updates.
  CHECK(invalid_argument_message([&] {
          sess.run(s1, tf::feed(ind, dynamic<std::int32_t, 3>({3, 2, 2}, std::vector<double>(12, 0.0))),
                   tf::feed(upd, up));
        }) == "ScatterNd: updates has shape [2,2,2] but must have indices.shape[:-1] + shape[2:] = [3,2,2]");
  CHECK(invalid_argument_message([&] {
          sess.run(s3, tf::feed(ind_s, ix), tf::feed(upd, up), tf::feed(dims, fixed<std::int32_t, 3>({2, 2, 3})));
        }) == "ScatterNd: updates has shape [2,2,2] but must have indices.shape[:-1] + shape[2:] = [2,2,3]");
  CHECK(invalid_argument_message([&] {
          sess.run(s3, tf::feed(ind_s, ix), tf::feed(upd, up), tf::feed(dims, fixed<std::int32_t, 3>({2, -2, 2})));
        }) == "ScatterNd: dims must be >= 0, got dims[1] = -2");
}

TEST_CASE("ScatterNdTest.testEmptyOutputShape1/2 (run time) and testEmptyOutputShape3") {
  auto ind = tf::placeholder<"indices", std::int32_t, shape<2, 2, 2>>();
  auto upd = tf::placeholder<"updates", std::int32_t, shape<2, 2, 2>>();
  auto dims = tf::placeholder<"shape", std::int32_t, shape<3>>();
  auto s = tf::scatter_nd(ind, upd, dims);
  auto i0 = tf::placeholder<"i0", std::int32_t, shape<0>>();
  auto u0 = tf::placeholder<"u0", std::int32_t, shape<dyn>>();
  auto s0 = tf::scatter_nd<shape<0>>(i0, u0);
  tf::session sess(s, s0);
  CHECK(invalid_argument_message([&] {
          sess.run(s, tf::feed(ind, xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 2>>{}),
                   tf::feed(upd, xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2, 2>>{}),
                   tf::feed(dims, fixed<std::int32_t, 3>({0, 3, 2})));
        }) == "ScatterNd: Indices and updates specified for empty output shape [0,3,2]");
  // indices [0]: index depth 0, one (empty) index; updates [0] = [] + shape[0:].
  CHECK(sess.run(s0, tf::feed(i0, xt::xtensor_fixed<std::int32_t, xt::xshape<0>>{}),
               tf::feed(u0, dynamic<std::int32_t, 1>({0}, {})))
            .size() == 0);
}

TEST_CASE("StatefulScatterNdTest.testScatterOutOfRangeCpu, for scatter_nd: the message names the index") {
  auto ind = tf::placeholder<"indices", std::int64_t, shape<3, 1>>();
  auto upd = tf::constant<"or_updates">(fixed<float, 3>({-3, -4, -5}));
  auto s = tf::scatter_nd<shape<6>>(ind, upd);
  tf::session sess(s);
  check_all(sess.run(s, tf::feed(ind, fixed<std::int64_t, 3, 1>({2, 0, 5}))), {6}, {-4, 0, -3, 0, 0, -5});
  CHECK(invalid_argument_message([&] { sess.run(s, tf::feed(ind, fixed<std::int64_t, 3, 1>({-1, 0, 5}))); }) ==
        "indices[0] = [-1] does not index into shape [6]");
  CHECK(invalid_argument_message([&] { sess.run(s, tf::feed(ind, fixed<std::int64_t, 3, 1>({2, 0, 6}))); }) ==
        "indices[2] = [6] does not index into shape [6]");
}

TEST_CASE("ScatterNdTest.testBool: updates at [[4], [3], [1], [7]], a repeated index ORs") {
  auto ind = tf::placeholder<"indices", std::int32_t, shape<4, 1>>();
  auto upd = tf::placeholder<"updates", bool, shape<4>>();
  auto s = tf::scatter_nd<shape<8>>(ind, upd);
  tf::session sess(s);
  check_all(sess.run(s, tf::feed(ind, fixed<std::int32_t, 4, 1>({4, 3, 1, 7})),
                     tf::feed(upd, xt::xtensor_fixed<bool, xt::xshape<4>>{false, true, false, true})),
            {8}, {0, 0, 0, 1, 0, 0, 0, 1});
  check_all(sess.run(s, tf::feed(ind, fixed<std::int32_t, 4, 1>({4, 3, 3, 7})),
                     tf::feed(upd, xt::xtensor_fixed<bool, xt::xshape<4>>{false, true, true, true})),
            {8}, {0, 0, 0, 1, 0, 0, 0, 1});
}

namespace {
// gradients([scatter_nd(indices, updates, shape)], [updates], [grad_vals]) for T in float, double.
template <class S, class IS, class US, class I, class U>
void scatter_nd_grad(const I& ix, const U& up, std::initializer_list<double> gv, const std::vector<double>& want) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    auto indices = tf::placeholder<"indices", std::int32_t, IS>();
    auto updates = tf::placeholder<"updates", T, US>();
    auto grad_vals = tf::placeholder<"grad_vals", T, S>();
    auto outputs = tf::scatter_nd<S>(indices, updates);
    auto grads = tf::gradient(tf::grad_ys(outputs, grad_vals), updates);
    static_assert(has_shape<decltype(grads), US>);
    tf::session sess(grads);
    tf::storage_t<T, US> u{};
    tf::storage_t<T, S> g{};
    std::size_t i = 0;
    for (double v : up) u.flat(i++) = T(v);
    i = 0;
    for (double v : gv) g.flat(i++) = T(v);
    std::vector<std::size_t> dims(US::dims.begin(), US::dims.end());
    check_all(sess.run(grads, tf::feed(indices, ix), tf::feed(updates, u), tf::feed(grad_vals, g)), dims, want);
  };
  run(float{});
  run(double{});
}
}  // namespace

TEST_CASE("ScatterNdTest.testGradientsRank2ElementUpdate and testGradientsRank2SliceUpdate") {
  scatter_nd_grad<shape<2, 2>, shape<2, 2>, shape<2>>(fixed<std::int32_t, 2, 2>({0, 0, 1, 1}), std::vector<double>{1, 4},
                                                      {1, 2, 3, 4}, {1, 4});
  scatter_nd_grad<shape<2, 2>, shape<2, 1>, shape<2, 2>>(fixed<std::int32_t, 2, 1>({1, 0}),
                                                         std::vector<double>{3, 4, 1, 2}, {3, 4, 1, 2}, {1, 2, 3, 4});
}

TEST_CASE("ScatterNdTest.testGradientsRank3SliceUpdate and testGradientsRank7SliceUpdate") {
  scatter_nd_grad<shape<2, 2, 2>, shape<2, 2, 2>, shape<2, 2, 2>>(
      fixed<std::int32_t, 2, 2, 2>({0, 1, 1, 0, 0, 0, 1, 1}), std::vector<double>{5, 7, 2, 4, 1, 3, 6, 8},
      {1, 2, 3, 4, 5, 6, 7, 8}, {3, 4, 5, 6, 1, 2, 7, 8});
  using S7 = shape<1, 1, 2, 1, 1, 2, 2>;
  scatter_nd_grad<S7, shape<1, 1, 2, 1, 1, 2, 6>, S7>(
      fixed<std::int32_t, 1, 1, 2, 1, 1, 2, 6>(
          {0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}),
      std::vector<double>{5, 6, 2, 4, 1, 3, 6, 8}, {1, 2, 3, 4, 5, 6, 7, 8}, {3, 4, 5, 6, 1, 2, 7, 8});
}

TEST_CASE("ScatterNdTest.testScatterNdRepatedIndicesAdd: 100000 updates at [0] sum") {
  auto ind = tf::placeholder<"indices", std::int32_t, shape<dyn, 1>>();
  auto upd = tf::placeholder<"updates", double, shape<dyn>>();
  auto s = tf::scatter_nd<shape<1>>(ind, upd);
  tf::session sess(s);
  std::mt19937 rng(20240616u);
  std::normal_distribution<double> n01;
  auto values = xt::xtensor<double, 1>::from_shape({100000});
  double sum = 0;
  for (auto& v : values) sum += (v = n01(rng));
  auto zeros = xt::xtensor<std::int32_t, 2>::from_shape({100000, 1});
  zeros.fill(0);
  const auto r = sess.run(s, tf::feed(ind, zeros), tf::feed(upd, values));
  CHECK(r(0) == doctest::Approx(sum).epsilon(1e-9));
}

TEST_CASE("ScatterNdTest.testSmokeScatterNdBatch2DSliceDim2, Batch1DSliceDim2, ...Dim3ShapeRank7") {
  auto s1 = tf::scatter_nd<shape<4, 6, 7>>(tf::constant<"sm_i1">(xt::xtensor_fixed<std::int32_t, xt::xshape<3, 5, 2>>{}),
                                           tf::constant<"sm_u1">(xt::xtensor_fixed<float, xt::xshape<3, 5, 7>>{}));
  auto i2 = tf::placeholder<"i2", std::int32_t, shape<dyn, 2>>();
  auto u2 = tf::placeholder<"u2", float, shape<dyn, 7>>();
  auto s2 = tf::scatter_nd<shape<4, 6, 7>>(i2, u2);
  // Rank 7, [3, 4, 5, 6, 7, 8, 9]: the shape a dims node, so the output's storage is dynamic.
  auto dims = tf::placeholder<"shape", std::int64_t, shape<7>>();
  auto i3 = tf::placeholder<"i3", std::int32_t, shape<1, 3>>();
  auto u3 = tf::placeholder<"u3", float, shape<1, 6, 7, 8, 9>>();
  auto s3 = tf::scatter_nd(i3, u3, dims);
  auto i4 = tf::placeholder<"i4", std::int32_t, shape<1, 2, 3>>();
  auto u4 = tf::placeholder<"u4", float, shape<1, 2, 6, 7, 8, 9>>();
  auto s4 = tf::scatter_nd(i4, u4, dims);
  static_assert(has_shape<decltype(s4), shape<dyn, dyn, dyn, dyn, dyn, dyn, dyn>>);
  tf::session sess(s1, s2, s3, s4);
  check_all(sess.run(s1), {4, 6, 7}, std::vector<double>(4 * 6 * 7, 0.0));
  check_all(sess.run(s2, tf::feed(i2, dynamic<std::int32_t, 2>({0, 2}, {})), tf::feed(u2, dynamic<float, 2>({0, 7}, {}))),
            {4, 6, 7}, std::vector<double>(4 * 6 * 7, 0.0));
  const auto d7 = fixed<std::int64_t, 7>({3, 4, 5, 6, 7, 8, 9});
  auto zeros3 = xt::xtensor<float, 5>::from_shape({1, 6, 7, 8, 9});
  auto zeros4 = xt::xtensor<float, 6>::from_shape({1, 2, 6, 7, 8, 9});
  zeros3.fill(0.0f);
  zeros4.fill(0.0f);
  const auto r3 = sess.run(s3, tf::feed(dims, d7), tf::feed(i3, xt::xtensor_fixed<std::int32_t, xt::xshape<1, 3>>{}),
                           tf::feed(u3, zeros3));
  CHECK(ops_testing::shape_vector(r3) == std::vector<std::size_t>{3, 4, 5, 6, 7, 8, 9});
  const auto r4 = sess.run(s4, tf::feed(dims, d7), tf::feed(i4, xt::xtensor_fixed<std::int32_t, xt::xshape<1, 2, 3>>{}),
                           tf::feed(u4, zeros4));
  CHECK(ops_testing::shape_vector(r4) == std::vector<std::size_t>{3, 4, 5, 6, 7, 8, 9});
  CHECK(std::count(r4.begin(), r4.end(), 0.0f) == std::ptrdiff_t(r4.size()));
}

TEST_CASE("scatter_nd: gradient against central differences (static and dims node), and its gradient") {
  auto u = tf::placeholder<"u", double, shape<4, 2>>();
  auto indices = tf::constant<"sfd_indices">(fixed<std::int32_t, 4, 2>({2, 0, 0, 1, 2, 0, 1, 1}));  // (2,0) twice
  const auto w = tf::constant<"sfd_w">(fd_check::uniform<shape<3, 2, 2>>());
  const auto loss = tf::reduce_sum(tf::scatter_nd<shape<3, 2, 2>>(indices, u) * w);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, u, fd_check::uniform<shape<4, 2>>());
  auto dims = tf::constant<"sfd_dims">(fixed<std::int32_t, 3>({3, 2, 2}));
  const auto wd = tf::constant<"sfd_wd">(fd_check::fill_uniform(xt::xtensor<double, 3>::from_shape({3, 2, 2})));
  const auto lossd = tf::reduce_sum(tf::scatter_nd(indices, u, dims) * wd);
  tf::session sessd(lossd);
  fd_check::check_gradient(sessd, lossd, u, fd_check::uniform<shape<4, 2>>());
  // dyn dims of updates: the gradient has updates' shape.
  auto ud = tf::placeholder<"ud", double, shape<dyn, 2>>();
  const auto lossu = tf::reduce_sum(tf::scatter_nd<shape<3, 2, 2>>(indices, ud) * w);
  static_assert(has_shape<decltype(tf::gradient(lossu, ud)), shape<dyn, 2>>);
  tf::session sessu(lossu);
  fd_check::check_gradient(sessu, lossu, ud, fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 2})));
  // Second order: d/dv of sum(gradient(grad_ys(scatter_nd(u), v), u) * c) is scatter_nd(c).
  auto v = tf::placeholder<"v", double, shape<3, 2, 2>>();
  const auto c = tf::constant<"sfd_c">(fd_check::uniform<shape<4, 2>>());
  const auto loss2 = tf::reduce_sum(tf::gradient(tf::grad_ys(tf::scatter_nd<shape<3, 2, 2>>(indices, u), v), u) * c);
  tf::session sess2(loss2);
  fd_check::check_gradient(sess2, loss2, v, fd_check::uniform<shape<3, 2, 2>>(),
                           tf::feed(u, fd_check::uniform<shape<4, 2>>()));
}
