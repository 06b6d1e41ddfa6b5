// Gradient cases ported from TensorFlow 1.x's kernel tests for the array ops that sequence
// models use, with the values TensorFlow asserts: the gradient of concat, split, slice,
// strided_slice, tile, gather, reduce_max / reduce_min and clip_by_value for a given incoming
// gradient G (TensorFlow's grad_ys), compared with the numpy computation of the test (G placed
// back into zeros, summed over tiles, scatter-added at the gathered indices, sent to the
// extremum), done here by loops. The finite-difference checks of the same rules are in
// joining_gradient_test.cpp, slicing_gradient_test.cpp and extremum_gradient_test.cpp.
// An incoming gradient G is written as the loss reduce_sum(op(x) * G).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::ints;
using tf::shape;

namespace {
// Distinct, deterministic values (TensorFlow's np.random.rand), `seed` apart from other tensors.
template <class T, std::size_t... D>
xt::xtensor_fixed<T, xt::xshape<D...>> values(double seed) {
  xt::xtensor_fixed<T, xt::xshape<D...>> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<T>(std::sin(seed + 0.37 * static_cast<double>(i)));
  return v;
}

template <class T, std::size_t... D>
xt::xtensor_fixed<T, xt::xshape<D...>> arange(T from) {
  xt::xtensor_fixed<T, xt::xshape<D...>> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<T>(from + static_cast<T>(i));
  return v;
}

// A zero float tensor of the static shape S.
template <class S>
struct float_value;
template <std::ptrdiff_t... D>
struct float_value<shape<D...>> {
  using type = xt::xtensor_fixed<float, xt::xshape<static_cast<std::size_t>(D)...>>;
};
template <class S>
using float_value_t = typename float_value<S>::type;

template <class A, class B>
void check_equal(const A& got, const B& want) {
  REQUIRE(std::vector<std::size_t>(got.shape().begin(), got.shape().end()) ==
          std::vector<std::size_t>(want.shape().begin(), want.shape().end()));
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(got.flat(i) == want.flat(i));
  }
}
}  // namespace

// --- concat ------------------------------------------------------------------------------------

// concat_op_test.py testGradientsSimple (axis 1 and -2 of [10, x, 2], x in 1, 2, 6),
// testGradientsFirstDim (axis 0 of [x, 10, 2]) and testGradientsLastDim (axis 2 and -1 of
// [10, 2, x]): the gradients, concatenated along the same axis, are grad_inp.
template <std::ptrdiff_t Axis, class S0, class S1, class S2, class G>
void concat_gradients(const G& grad_inp) {
  auto x0 = tf::placeholder<"cg_x0", float, S0>();
  auto x1 = tf::placeholder<"cg_x1", float, S1>();
  auto x2 = tf::placeholder<"cg_x2", float, S2>();
  auto g = tf::constant<"cg_g">(grad_inp);
  auto [d0, d1, d2] = tf::gradients(tf::reduce_sum(tf::concat<Axis>(x0, x1, x2) * g), x0, x1, x2);
  auto joined = tf::concat<Axis>(d0, d1, d2);
  tf::session sess(joined);
  check_equal(sess.run(joined, tf::feed(x0, float_value_t<S0>{}), tf::feed(x1, float_value_t<S1>{}),
                       tf::feed(x2, float_value_t<S2>{})),
              grad_inp);
}

TEST_CASE("concat: testGradientsSimple, testGradientsFirstDim, testGradientsLastDim") {
  concat_gradients<1, shape<10, 1, 2>, shape<10, 2, 2>, shape<10, 6, 2>>(values<float, 10, 9, 2>(0.1));
  concat_gradients<-2, shape<10, 1, 2>, shape<10, 2, 2>, shape<10, 6, 2>>(values<float, 10, 9, 2>(0.2));
  concat_gradients<0, shape<1, 10, 2>, shape<2, 10, 2>, shape<6, 10, 2>>(values<float, 9, 10, 2>(0.3));
  concat_gradients<-1, shape<10, 2, 1>, shape<10, 2, 2>, shape<10, 2, 6>>(values<float, 10, 2, 9>(0.4));
}

// concat_op_test.py testGradientsNegativeAxis: x1 = [[1, 2, 3], [4, 5, 6]], x2 = [[7, 8, 9],
// [10, 11, 12]]; along -2 the gradients concatenated are grad_inp; along -1 of inputs of
// unknown shape (here [?, ?]) too; and for gather(concat(xs, -2), [2, 0]) the gradients
// concatenated and gathered again at [2, 0] are grad_inp (_testIndexedSlicesGradientsForAxis).
TEST_CASE("concat: testGradientsNegativeAxis") {
  const xt::xtensor_fixed<float, xt::xshape<2, 3>> x1{{1, 2, 3}, {4, 5, 6}}, x2{{7, 8, 9}, {10, 11, 12}};
  auto a = tf::placeholder<"cgn_a", float, shape<2, 3>>();
  auto b = tf::placeholder<"cgn_b", float, shape<2, 3>>();
  const auto g43 = values<float, 4, 3>(0.7);
  auto [da, db] = tf::gradients(tf::reduce_sum(tf::concat<-2>(a, b) * tf::constant<"cgn_g43">(g43)), a, b);
  auto pa = tf::placeholder<"cgn_pa", float, shape<dyn, dyn>>();
  auto pb = tf::placeholder<"cgn_pb", float, shape<dyn, dyn>>();
  const auto g26 = values<float, 2, 6>(1.7);
  auto [dpa, dpb] = tf::gradients(tf::reduce_sum(tf::concat<-1>(pa, pb) * tf::constant<"cgn_g26">(g26)), pa, pb);
  auto idx = tf::constant<"cgn_idx">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{2, 0});
  const auto g23 = values<float, 2, 3>(2.7);
  auto [ia, ib] = tf::gradients(tf::reduce_sum(tf::gather(tf::concat<-2>(a, b), idx) * tf::constant<"cgn_g23">(g23)), a, b);
  auto joined = tf::concat<-2>(da, db);
  auto joined_dyn = tf::concat<-1>(dpa, dpb);
  auto regathered = tf::gather(tf::concat<-2>(ia, ib), idx);
  tf::session sess(joined, joined_dyn, regathered);
  check_equal(sess.run(joined, tf::feed(a, x1), tf::feed(b, x2)), g43);
  check_equal(sess.run(joined_dyn, tf::feed(pa, xt::xtensor<float, 2>(x1)), tf::feed(pb, xt::xtensor<float, 2>(x2))), g26);
  check_equal(sess.run(regathered, tf::feed(a, x1), tf::feed(b, x2)), g23);
}

// concat_op_test.py testIndexedSlicesConcatDim0Grad and testIndexedSlicesConcatDim1Grad:
// gather(concat(xs, axis), [1, 2, 0, 5]); the gradient of each x is the incoming gradient's
// rows scattered back to the gathered rows of its own part of the concatenation.
TEST_CASE("concat: testIndexedSlicesConcatDim0Grad and testIndexedSlicesConcatDim1Grad") {
  const std::size_t rows[4] = {1, 2, 0, 5};
  auto idx = tf::constant<"cgi_idx">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{1, 2, 0, 5});
  {
    auto x0 = tf::placeholder<"cgi_a0", double, shape<20, 7, 3>>();
    auto x1 = tf::placeholder<"cgi_a1", double, shape<10, 7, 3>>();
    auto x2 = tf::placeholder<"cgi_a2", double, shape<14, 7, 3>>();
    const auto gv = values<double, 4, 7, 3>(1.0);
    auto g = tf::constant<"cgi_ga">(gv);
    auto [d0, d1, d2] = tf::gradients(tf::reduce_sum(tf::gather(tf::concat<0>(x0, x1, x2), idx) * g), x0, x1, x2);
    tf::session sess(d0, d1, d2);
    const auto [v0, v1, v2] = sess.run(std::tuple{d0, d1, d2}, tf::feed(x0, values<double, 20, 7, 3>(0)),
                                       tf::feed(x1, values<double, 10, 7, 3>(1)), tf::feed(x2, values<double, 14, 7, 3>(2)));
    xt::xtensor_fixed<double, xt::xshape<20, 7, 3>> want{};
    for (std::size_t k = 0; k < 4; ++k)
      for (std::size_t j = 0; j < 7; ++j)
        for (std::size_t c = 0; c < 3; ++c) want(rows[k], j, c) += gv(k, j, c);
    check_equal(v0, want);
    check_equal(v1, xt::xtensor_fixed<double, xt::xshape<10, 7, 3>>{});
    check_equal(v2, xt::xtensor_fixed<double, xt::xshape<14, 7, 3>>{});
  }
  {
    auto x0 = tf::placeholder<"cgi_b0", double, shape<20, 7, 3>>();
    auto x1 = tf::placeholder<"cgi_b1", double, shape<20, 3, 3>>();
    auto x2 = tf::placeholder<"cgi_b2", double, shape<20, 1, 3>>();
    const auto gv = values<double, 4, 11, 3>(2.0);
    auto g = tf::constant<"cgi_gb">(gv);
    auto [d0, d1, d2] = tf::gradients(tf::reduce_sum(tf::gather(tf::concat<1>(x0, x1, x2), idx) * g), x0, x1, x2);
    tf::session sess(d0, d1, d2);
    const auto [v0, v1, v2] = sess.run(std::tuple{d0, d1, d2}, tf::feed(x0, values<double, 20, 7, 3>(0)),
                                       tf::feed(x1, values<double, 20, 3, 3>(1)), tf::feed(x2, values<double, 20, 1, 3>(2)));
    xt::xtensor_fixed<double, xt::xshape<20, 7, 3>> w0{};
    xt::xtensor_fixed<double, xt::xshape<20, 3, 3>> w1{};
    xt::xtensor_fixed<double, xt::xshape<20, 1, 3>> w2{};
    for (std::size_t k = 0; k < 4; ++k)
      for (std::size_t c = 0; c < 3; ++c) {
        for (std::size_t j = 0; j < 7; ++j) w0(rows[k], j, c) += gv(k, j, c);
        for (std::size_t j = 0; j < 3; ++j) w1(rows[k], j, c) += gv(k, 7 + j, c);
        w2(rows[k], 0, c) += gv(k, 10, c);
      }
    check_equal(v0, w0);
    check_equal(v1, w1);
    check_equal(v2, w2);
  }
}

// --- split and slice ---------------------------------------------------------------------------

// split_op_test.py _testGradientsSimple (4 pieces of a [4, 4] along axis 1) and
// _testGradientsSimpleVariable (sizes [1, 3] along axis 1): result[:, i:i + 1] is inp_grads[i].
TEST_CASE("split: testGradientsAll (_testGradientsSimple and _testGradientsSimpleVariable)") {
  auto x = tf::placeholder<"sg_x", float, shape<4, 4>>();
  const auto g0 = values<float, 4, 1>(0.0), g1 = values<float, 4, 1>(1.0), g2 = values<float, 4, 1>(2.0),
             g3 = values<float, 4, 1>(3.0);
  auto [p0, p1, p2, p3] = tf::split<4, 1>(x);
  auto loss = tf::reduce_sum(p0 * tf::constant<"sg_g0">(g0)) + tf::reduce_sum(p1 * tf::constant<"sg_g1">(g1)) +
              tf::reduce_sum(p2 * tf::constant<"sg_g2">(g2)) + tf::reduce_sum(p3 * tf::constant<"sg_g3">(g3));
  auto [d] = tf::gradients(loss, x);
  const auto h0 = values<float, 4, 1>(4.0);
  const auto h1 = values<float, 4, 3>(5.0);
  auto [q0, q1] = tf::split<ints<1, 3>, 1>(x);
  auto [dv] = tf::gradients(tf::reduce_sum(q0 * tf::constant<"sg_h0">(h0)) + tf::reduce_sum(q1 * tf::constant<"sg_h1">(h1)), x);
  tf::session sess(d, dv);
  const auto xv = values<float, 4, 4>(9.0);
  const auto r = sess.run(d, tf::feed(x, xv));
  const auto rv = sess.run(dv, tf::feed(x, xv));
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(r(i, 0) == g0(i, 0));
    CHECK(r(i, 1) == g1(i, 0));
    CHECK(r(i, 2) == g2(i, 0));
    CHECK(r(i, 3) == g3(i, 0));
    CHECK(rv(i, 0) == h0(i, 0));
    for (std::size_t j = 0; j < 3; ++j) CHECK(rv(i, 1 + j) == h1(i, j));
  }
}

// slice_op_test.py testGradientsAll: _testGradientSlice (the grads placed into zeros of the
// input's shape at [begin, begin + size)), _testGradientVariableSize (slice([1., 2., 3.], [1],
// [-1]) has gradient [0., 1., 1.]) and _testGradientVariableSize2D (x[:-1, :-1] and
// x[:-1][:, :-1] have the same gradient).
template <class Begin, class Size, class S, class G>
void slice_gradient(const G& grads, std::vector<std::size_t> begin) {
  auto a = tf::placeholder<"slg_a", float, S>();
  auto [d] = tf::gradients(tf::reduce_sum(tf::slice<Begin, Size>(a) * tf::constant<"slg_g">(grads)), a);
  tf::session sess(d);
  const auto got = sess.run(d, tf::feed(a, float_value_t<S>{}));
  float_value_t<S> want{};
  if constexpr (S::rank == 2) {
    for (std::size_t i = 0; i < grads.shape()[0]; ++i)
      for (std::size_t j = 0; j < grads.shape()[1]; ++j) want(begin[0] + i, begin[1] + j) = grads(i, j);
  } else {
    for (std::size_t i = 0; i < grads.shape()[0]; ++i)
      for (std::size_t j = 0; j < grads.shape()[1]; ++j)
        for (std::size_t k = 0; k < grads.shape()[2]; ++k) want(begin[0] + i, begin[1] + j, begin[2] + k) = grads(i, j, k);
  }
  check_equal(got, want);
}

TEST_CASE("slice: testGradientsAll") {
  slice_gradient<ints<1, 1>, ints<2, 2>, shape<4, 4>>(values<float, 2, 2>(0.5), {1, 1});
  slice_gradient<ints<0, 0>, ints<2, 2>, shape<4, 4>>(values<float, 2, 2>(1.5), {0, 0});
  slice_gradient<ints<2, 1>, ints<1, 2>, shape<4, 4>>(values<float, 1, 2>(2.5), {2, 1});
  slice_gradient<ints<0, 1, 0>, ints<2, 1, 1>, shape<3, 3, 3>>(values<float, 2, 1, 1>(3.5), {0, 1, 0});

  auto inp = tf::placeholder<"slg_in", float, shape<3>>();
  auto [gv] = tf::gradients(tf::reduce_sum(tf::slice<ints<1>, ints<-1>>(inp)), inp);
  auto x = tf::placeholder<"slg_x", float, shape<3, 3>>();
  auto loss1 = tf::reduce_sum(tf::strided_slice<ints<0, 0>, ints<-1, -1>, ints<>, 3>(x) * tf::constant<1.0f>());
  auto loss2 = tf::reduce_sum(tf::strided_slice<ints<0, 0>, ints<0, -1>, ints<>, 3, 1>(tf::strided_slice<ints<0>, ints<-1>, ints<>, 1>(x)));
  auto [g1] = tf::gradients(loss1, x);
  auto [g2] = tf::gradients(loss2, x);
  tf::session sess(gv, g1, g2);
  CHECK(sess.run(gv, tf::feed(inp, xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3})) ==
        xt::xtensor_fixed<float, xt::xshape<3>>{0, 1, 1});
  const xt::xtensor_fixed<float, xt::xshape<3, 3>> xv{{1, 2, 3}, {4, 5, 6}, {7, 8, 7}};
  const auto v1 = sess.run(g1, tf::feed(x, xv));
  const auto v2 = sess.run(g2, tf::feed(x, xv));
  check_equal(v1, v2);
  check_equal(v1, xt::xtensor_fixed<float, xt::xshape<3, 3>>{{1, 1, 0}, {1, 1, 0}, {0, 0, 0}});
}

// --- strided_slice ---------------------------------------------------------------------------

// array_ops_test.py StridedSliceGradTest.testGradient (GradSliceChecker): var = range(1, 97)
// as (6, 4, 4), val = var * var, dy = var[spec]; the gradient of val[spec] with grad_ys dy is
// np_sliceval_grad: 2 * var * var at the positions of the slice, 0 elsewhere.
template <class Begin, class End, class Strides, unsigned BM, unsigned EM, unsigned SM, class In>
void strided_slice_gradient(In in) {
  auto var = tf::placeholder<"ssg_var", float, shape<6, 4, 4>>();
  auto slice_var = tf::strided_slice<Begin, End, Strides, BM, EM, SM>(var);
  auto slice_val = tf::strided_slice<Begin, End, Strides, BM, EM, SM>(var * var);
  auto [d] = tf::gradients(tf::reduce_sum(slice_val * tf::stop_gradient(slice_var)), var);
  tf::session sess(d);
  const auto v = arange<float, 6, 4, 4>(1);
  const auto got = sess.run(d, tf::feed(var, v));
  xt::xtensor_fixed<float, xt::xshape<6, 4, 4>> want{};
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 4; ++j)
      for (std::size_t k = 0; k < 4; ++k)
        if (in(i, j, k)) want(i, j, k) = 2 * v(i, j, k) * v(i, j, k);
  check_equal(got, want);
}

TEST_CASE("strided_slice: StridedSliceGradTest.testGradient and testInt64Indices") {
  // [2:6:2, 1:3, 1:3]
  strided_slice_gradient<ints<2, 1, 1>, ints<6, 3, 3>, ints<2, 1, 1>, 0, 0, 0>(
      [](std::size_t i, std::size_t j, std::size_t k) { return (i == 2 || i == 4) && j >= 1 && j < 3 && k >= 1 && k < 3; });
  // [3:0:-2, 1:3, 1:3]
  strided_slice_gradient<ints<3, 1, 1>, ints<0, 3, 3>, ints<-2, 1, 1>, 0, 0, 0>(
      [](std::size_t i, std::size_t j, std::size_t k) { return (i == 3 || i == 1) && j >= 1 && j < 3 && k >= 1 && k < 3; });
  // [3:0:-2, 1:3, 2]
  strided_slice_gradient<ints<3, 1, 2>, ints<0, 3, 3>, ints<-2, 1, 1>, 0, 0, 4>(
      [](std::size_t i, std::size_t j, std::size_t k) { return (i == 3 || i == 1) && j >= 1 && j < 3 && k == 2; });
  // [:, -1, :]
  strided_slice_gradient<ints<0, -1, 0>, ints<0, 0, 0>, ints<>, 5, 5, 2>(
      [](std::size_t, std::size_t j, std::size_t) { return j == 3; });
  // [:, -2, :]
  strided_slice_gradient<ints<0, -2, 0>, ints<0, -1, 0>, ints<>, 5, 5, 2>(
      [](std::size_t, std::size_t j, std::size_t) { return j == 2; });
  // testInt64Indices: the gradient of 2. * a[1], a = range(3), is [0., 2., 0.].
  auto a = tf::placeholder<"ssg_a", float, shape<3>>();
  auto [g] = tf::gradients(tf::constant<2.0f>() * tf::strided_slice<ints<1>, ints<2>, ints<>, 0, 0, 1>(a), a);
  tf::session sess(g);
  CHECK(sess.run(g, tf::feed(a, xt::xtensor_fixed<float, xt::xshape<3>>{0, 1, 2})) ==
        xt::xtensor_fixed<float, xt::xshape<3>>{0, 2, 0});
}

// --- tile --------------------------------------------------------------------------------------

// shape_ops_test.py TileTest.testGradientSimpleReduction (tile [4, 1] by [1, 4]: np.sum(grad_inp,
// axis=1)), testGradientStridedReduction (tile [4, 2] by [1, 2]: expected[:, 0] = grad_inp[:, 0]
// + grad_inp[:, 2], expected[:, 1] = grad_inp[:, 1] + grad_inp[:, 3]), and
// testGradientWithSparseGradWithRank1 / Rank3 (gather of a tile, its gradient exactly: each
// gathered row's gradient added to the input row it tiles).
TEST_CASE("tile: testGradientSimpleReduction, testGradientStridedReduction, testGradientWithSparseGrad") {
  const auto grad_inp = values<float, 4, 4>(0.25);
  auto a = tf::placeholder<"tg_a", float, shape<4, 1>>();
  auto b = tf::placeholder<"tg_b", float, shape<4, 2>>();
  auto g = tf::constant<"tg_g">(grad_inp);
  auto [da] = tf::gradients(tf::reduce_sum(tf::tile<1, 4>(a) * g), a);
  auto [db] = tf::gradients(tf::reduce_sum(tf::tile<1, 2>(b) * g), b);
  tf::session sess(da, db);
  const auto va = sess.run(da, tf::feed(a, values<float, 4, 1>(1)));
  const auto vb = sess.run(db, tf::feed(b, values<float, 4, 2>(2)));
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(va(i, 0) == doctest::Approx(grad_inp(i, 0) + grad_inp(i, 1) + grad_inp(i, 2) + grad_inp(i, 3)).epsilon(1e-6));
    CHECK(vb(i, 0) == doctest::Approx(grad_inp(i, 0) + grad_inp(i, 2)).epsilon(1e-6));
    CHECK(vb(i, 1) == doctest::Approx(grad_inp(i, 1) + grad_inp(i, 3)).epsilon(1e-6));
  }
  const std::size_t idx[8] = {1, 5, 9, 3, 7, 2, 2, 2};
  auto indices = tf::constant<"tg_idx">(xt::xtensor_fixed<std::int32_t, xt::xshape<8>>{1, 5, 9, 3, 7, 2, 2, 2});
  auto in1 = tf::placeholder<"tg_in1", double, shape<4>>();
  auto in3 = tf::placeholder<"tg_in3", double, shape<4, 1, 1>>();
  const auto w1 = values<double, 8>(3);
  const auto w3 = values<double, 8, 4, 2>(4);
  auto [d1] = tf::gradients(tf::reduce_sum(tf::gather(tf::tile<3>(in1), indices) * tf::constant<"tg_w1">(w1)), in1);
  auto [d3] = tf::gradients(tf::reduce_sum(tf::gather(tf::tile<3, 4, 2>(in3), indices) * tf::constant<"tg_w3">(w3)), in3);
  tf::session ss(d1, d3);
  const xt::xtensor_fixed<double, xt::xshape<4>> inputs{1, 2, 3, 4};
  const auto v1 = ss.run(d1, tf::feed(in1, inputs));
  const auto v3 = ss.run(d3, tf::feed(in3, xt::xtensor_fixed<double, xt::xshape<4, 1, 1>>{{{1}}, {{2}}, {{3}}, {{4}}}));
  double want1[4] = {0, 0, 0, 0}, want3[4] = {0, 0, 0, 0};
  for (std::size_t k = 0; k < 8; ++k) {
    want1[idx[k] % 4] += w1(k);
    for (std::size_t j = 0; j < 4; ++j)
      for (std::size_t c = 0; c < 2; ++c) want3[idx[k] % 4] += w3(k, j, c);
  }
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(v1(i) == doctest::Approx(want1[i]).epsilon(1e-12));
    CHECK(v3(i, 0, 0) == doctest::Approx(want3[i]).epsilon(1e-12));
  }
}

// --- gather ------------------------------------------------------------------------------------

// gather_op_test.py testHigherRank, the gradient for axis 0: params of shape (2, 1, 3, 2),
// indices of shape (2, 3) with repeats, () and (0,); correct_params_grad adds each slice of
// gather_grad at its index (dest_slice += source_slice).
TEST_CASE("gather: testHigherRank gradients (axis 0), repeated indices accumulate") {
  auto params = tf::placeholder<"gg_params", double, shape<2, 1, 3, 2>>();
  const std::size_t idx[6] = {1, 0, 1, 1, 1, 0};
  auto grid = tf::constant<"gg_grid">(xt::xtensor_fixed<std::int64_t, xt::xshape<2, 3>>{{1, 0, 1}, {1, 1, 0}});
  auto scalar = tf::constant<"gg_scalar">(std::int32_t{1});
  auto none = tf::placeholder<"gg_none", std::int32_t, shape<0>>();
  const auto gg = values<double, 2, 3, 1, 3, 2>(0.5);
  const auto gs = values<double, 1, 3, 2>(1.5);
  auto [dg] = tf::gradients(tf::reduce_sum(tf::gather(params, grid) * tf::constant<"gg_gg">(gg)), params);
  auto [ds] = tf::gradients(tf::reduce_sum(tf::gather(params, scalar) * tf::constant<"gg_gs">(gs)), params);
  auto [dn] = tf::gradients(tf::reduce_sum(tf::gather(params, none)), params);
  tf::session sess(dg, ds, dn);
  const auto pv = values<double, 2, 1, 3, 2>(2.5);
  const auto vg = sess.run(dg, tf::feed(params, pv));
  const auto vs = sess.run(ds, tf::feed(params, pv));
  const auto vn = sess.run(dn, tf::feed(params, pv), tf::feed(none, xt::xtensor<std::int32_t, 1>::from_shape({0})));
  xt::xtensor_fixed<double, xt::xshape<2, 1, 3, 2>> wg{}, ws{};
  for (std::size_t s = 0; s < 6; ++s)
    for (std::size_t c = 0; c < 3; ++c)
      for (std::size_t d = 0; d < 2; ++d) wg(idx[s], 0, c, d) += gg(s / 3, s % 3, 0, c, d);
  for (std::size_t c = 0; c < 3; ++c)
    for (std::size_t d = 0; d < 2; ++d) ws(1, 0, c, d) += gs(0, c, d);
  for (std::size_t i = 0; i < wg.size(); ++i) {
    CHECK(vg.flat(i) == doctest::Approx(wg.flat(i)).epsilon(1e-12));
    CHECK(vs.flat(i) == ws.flat(i));
    CHECK(vn.flat(i) == 0.0);
  }
}

// --- reduce_max and reduce_min -----------------------------------------------------------------

// reduction_ops_test.py MaxReductionTest / MinReductionTest testGradient, testGradient2,
// testGradient3 and testGradient4: x = np.arange(1.0, 49.0) as [2, 3, 4, 2], reduced over [1, 2],
// [1], [2] and all axes. The values are distinct, so the gradient of each output goes to its
// one argmax (argmin): the Jacobian gradient_checker compares with central differences.
template <bool Max, std::ptrdiff_t... Axes>
void extremum_gradient(unsigned mask) {
  auto x = tf::placeholder<"eg_x", double, shape<2, 3, 4, 2>>();
  auto y = [&] {
    if constexpr (Max) return tf::reduce_max<Axes...>(x, tf::keep_dims);
    else return tf::reduce_min<Axes...>(x, tf::keep_dims);
  }();
  using Y = tf::shape_of<decltype(y)>;
  const auto w = fd_check::uniform<Y>();
  auto [d] = tf::gradients(tf::reduce_sum(y * tf::constant<"eg_w">(w)), x);
  tf::session sess(d);
  const auto xv = arange<double, 2, 3, 4, 2>(1.0);
  const auto got = sess.run(d, tf::feed(x, xv));
  // the position of each output's extremum, by a scan in row-major order
  xt::xtensor_fixed<double, xt::xshape<2, 3, 4, 2>> want{};
  const std::size_t dims[4] = {2, 3, 4, 2};
  std::vector<std::array<std::size_t, 4>> best(w.size());
  std::vector<bool> seen(w.size(), false);
  for (std::size_t f = 0; f < xv.size(); ++f) {
    std::array<std::size_t, 4> i{f / 24, f / 8 % 3, f / 2 % 4, f % 2};
    std::size_t o = 0;
    for (std::size_t a = 0; a < 4; ++a) o = o * ((mask >> a) & 1 ? 1 : dims[a]) + ((mask >> a) & 1 ? 0 : i[a]);
    const double v = xv(i[0], i[1], i[2], i[3]);
    const auto& b = best[o];
    if (!seen[o] || (Max ? v > xv(b[0], b[1], b[2], b[3]) : v < xv(b[0], b[1], b[2], b[3]))) best[o] = i, seen[o] = true;
  }
  for (std::size_t o = 0; o < w.size(); ++o) want(best[o][0], best[o][1], best[o][2], best[o][3]) = w.flat(o);
  check_equal(got, want);
}

TEST_CASE("reduce_max and reduce_min: testGradient, testGradient2, testGradient3, testGradient4") {
  extremum_gradient<true, 1, 2>(0b0110);
  extremum_gradient<true, 1>(0b0010);
  extremum_gradient<true, 2>(0b0100);
  extremum_gradient<true>(0b1111);
  extremum_gradient<false, 1, 2>(0b0110);
  extremum_gradient<false, 1>(0b0010);
  extremum_gradient<false, 2>(0b0100);
  extremum_gradient<false>(0b1111);
}

// reduction_ops_test.py MaxReductionTest / MinReductionTest testEmptyGradients: reduce over
// axis 1 of a [0, 3]; the gradient is empty, of x's shape.
TEST_CASE("reduce_max and reduce_min: testEmptyGradients") {
  auto x = tf::placeholder<"eeg_x", float, shape<dyn, 3>>();
  auto [dmax] = tf::gradients(tf::reduce_sum(tf::reduce_max<1>(x)), x);
  auto [dmin] = tf::gradients(tf::reduce_sum(tf::reduce_min<1>(x)), x);
  tf::session sess(dmax, dmin);
  const auto empty = xt::xtensor<float, 2>::from_shape({0, 3});
  const auto a = sess.run(dmax, tf::feed(x, empty));
  const auto b = sess.run(dmin, tf::feed(x, empty));
  CHECK(std::vector<std::size_t>(a.shape().begin(), a.shape().end()) == std::vector<std::size_t>{0, 3});
  CHECK(std::vector<std::size_t>(b.shape().begin(), b.shape().end()) == std::vector<std::size_t>{0, 3});
}

// --- clip_by_value -----------------------------------------------------------------------------

// clip_ops_test.py testClipByValueGradient: inputs [1, 2, 3, 4] clipped to [0.5, 3.5] by scalar
// bounds and by [4] tensors of them; gradient_checker's error below 1e-4 (central differences,
// here fd_check), and the gradient itself: 1 inside the bounds, 0 at 4 (above 3.5). At a
// bound (inputs [0.5, 2, 3.5, 4]) the gradient still flows to the input, as through
// TensorFlow's minimum and maximum, and none to the bound.
TEST_CASE("clip_by_value: testClipByValueGradient, and the gradient at the bounds") {
  auto t = tf::placeholder<"cbg_t", double, shape<4>>();
  auto lo = tf::placeholder<"cbg_lo", double, shape<4>>();
  auto hi = tf::placeholder<"cbg_hi", double, shape<4>>();
  auto out1 = tf::clip_by_value(t, tf::constant<0.5>(), tf::constant<3.5>());
  auto out2 = tf::clip_by_value(t, lo, hi);
  const xt::xtensor_fixed<double, xt::xshape<4>> inputs{1, 2, 3, 4}, min_val{0.5, 0.5, 0.5, 0.5}, max_val{3.5, 3.5, 3.5, 3.5};
  auto w = tf::placeholder<"cbg_w", double, shape<4>>();
  const auto wv = fd_check::uniform<shape<4>>();
  auto loss1 = tf::reduce_sum(out1 * w);
  auto loss2 = tf::reduce_sum(out2 * w);
  tf::session s1(loss1, loss2);
  fd_check::check_gradient(s1, loss1, t, inputs, tf::feed(w, wv));
  fd_check::check_gradient(s1, loss2, t, inputs, tf::feed(w, wv), tf::feed(lo, min_val), tf::feed(hi, max_val));
  auto [g1] = tf::gradients(tf::reduce_sum(out1), t);
  auto [g2, glo, ghi] = tf::gradients(tf::reduce_sum(out2), t, lo, hi);
  tf::session s2(g1, g2, glo, ghi);
  using v4 = xt::xtensor_fixed<double, xt::xshape<4>>;
  CHECK(s2.run(g1, tf::feed(t, inputs)) == v4{1, 1, 1, 0});
  const auto [a2, alo, ahi] = s2.run(std::tuple{g2, glo, ghi}, tf::feed(t, inputs), tf::feed(lo, min_val), tf::feed(hi, max_val));
  CHECK(a2 == v4{1, 1, 1, 0});
  CHECK(alo == v4{0, 0, 0, 0});
  CHECK(ahi == v4{0, 0, 0, 1});
  const v4 at{0.5, 2, 3.5, 4};
  CHECK(s2.run(g1, tf::feed(t, at)) == v4{1, 1, 1, 0});
  const auto [b2, blo, bhi] = s2.run(std::tuple{g2, glo, ghi}, tf::feed(t, at), tf::feed(lo, min_val), tf::feed(hi, max_val));
  CHECK(b2 == v4{1, 1, 1, 0});
  CHECK(blo == v4{0, 0, 0, 0});
  CHECK(bhi == v4{0, 0, 0, 1});
  const v4 below{0.25, 2, 3, 0.5};
  const auto [c2, clo, chi] = s2.run(std::tuple{g2, glo, ghi}, tf::feed(t, below), tf::feed(lo, min_val), tf::feed(hi, max_val));
  CHECK(c2 == v4{0, 1, 1, 1});
  CHECK(clo == v4{1, 0, 0, 0});
  CHECK(chi == v4{0, 0, 0, 0});
}
