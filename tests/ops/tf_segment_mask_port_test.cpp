// Segment reductions (ops/segment.hpp) and boolean_mask (ops/boolean_mask.hpp), ported from
// TensorFlow 1.x's segment_reduction_ops_test.py (SegmentReductionOpTest, UnsortedSegmentTest)
// and array_ops_test.py (BooleanMaskTest). Each TEST_CASE names the tests it ports; expected
// values are the tests' literals, or numpy's computation (_segmentReduce, arr[mask]) done here
// by a loop, on data np.arange(1, n + 1) as the tests' _input (BooleanMaskTest's random draws
// are replaced by fixed values). Gradients are checked against central differences
// (tests/autodiff/fd_check.hpp) and TensorFlow's literal Jacobian of testProdGrad.
//
// Not ported, and why:
// - complex and float16 dtypes: typeflow has no such element types.
// - testSegmentIdsShape, testMaskHasMoreDimsThanTensorRaises, testMaskIsScalarRaises,
//   testMaskShapeDifferentThanFirstPartOfTensorShapeRaises: compile errors here (compile-fail
//   tests segment_ids_not_vector, boolean_mask_*, tests/ops/CMakeLists.txt).
// - testMaskDimensionsSetToNoneRaises (a mask of unknown rank): typeflow's ranks are static.
// - GPU variants, sqrt_n/unsorted mean (not TensorFlow 1.x ops), sparse segment ops.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
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

enum class red { sum, mean, max, min, prod };

// numpy's _segmentReduce: rows of `row` elements of x reduced by id into `rows` rows; empty
// segments hold the kernels' identities (mean: 0); negative ids dropped.
std::vector<double> segment_reduce(red r, const std::vector<double>& x, std::size_t row, const std::vector<int>& ids,
                                   std::size_t rows, bool is_float = true) {
  const double lowest = is_float ? double(std::numeric_limits<float>::lowest()) : double(std::numeric_limits<std::int32_t>::lowest());
  const double highest = is_float ? double(std::numeric_limits<float>::max()) : double(std::numeric_limits<std::int32_t>::max());
  const double init = r == red::max ? lowest : r == red::min ? highest : r == red::prod ? 1.0 : 0.0;
  std::vector<double> out(rows * row, init);
  std::vector<double> count(rows, 0);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] < 0) continue;
    const auto j = static_cast<std::size_t>(ids[k]);
    ++count[j];
    for (std::size_t e = 0; e < row; ++e) {
      double& o = out[j * row + e];
      const double v = x[k * row + e];
      o = r == red::max ? std::max(o, v) : r == red::min ? std::min(o, v) : r == red::prod ? o * v : o + v;
    }
  }
  if (r == red::mean)
    for (std::size_t j = 0; j < rows; ++j)
      for (std::size_t e = 0; e < row; ++e)
        if (count[j] > 0) out[j * row + e] /= count[j];
  return out;
}

std::vector<double> arange1(std::size_t n) {  // np.arange(1, n + 1)
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = double(i + 1);
  return v;
}

template <red R, class D, class I>
auto sorted(const D& d, const I& i) {
  if constexpr (R == red::sum) return tf::segment_sum(d, i);
  else if constexpr (R == red::mean) return tf::segment_mean(d, i);
  else if constexpr (R == red::max) return tf::segment_max(d, i);
  else if constexpr (R == red::min) return tf::segment_min(d, i);
  else return tf::segment_prod(d, i);
}

template <red R, std::size_t N, class D, class I>
auto unsorted(const D& d, const I& i) {
  if constexpr (R == red::sum) return tf::unsorted_segment_sum<N>(d, i);
  else if constexpr (R == red::max) return tf::unsorted_segment_max<N>(d, i);
  else if constexpr (R == red::min) return tf::unsorted_segment_min<N>(d, i);
  else return tf::unsorted_segment_prod<N>(d, i);
}

// SegmentReductionOpTest.testValues for one op and dtype: shape [10, 2], ids i // 3.
template <red R, class T>
void sorted_values() {
  auto x = tf::placeholder<"x", T, shape<10, 2>>();
  auto ids = tf::placeholder<"ids", std::int32_t, shape<10>>();
  auto s = sorted<R>(x, ids);
  static_assert(has_shape<decltype(s), shape<dyn, 2>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(s)>, T>);
  tf::session sess(s);
  const auto xv = arange1(20);
  const std::vector<int> iv{0, 0, 0, 1, 1, 1, 2, 2, 2, 3};
  std::vector<double> iflat(iv.begin(), iv.end());
  const auto got = sess.run(s, tf::feed(x, dynamic<T, 2>({10, 2}, xv)), tf::feed(ids, dynamic<std::int32_t, 1>({10}, iflat)));
  auto want = segment_reduce(R, xv, 2, iv, 4);
  if constexpr (std::is_integral_v<T>)
    for (double& w : want) w = double(static_cast<T>(w));  // integer mean truncates, as TensorFlow's
  check_all(got, {4, 2}, want);
}

}  // namespace

TEST_CASE("SegmentReductionOpTest.testValues: sum, mean, prod, min, max in float, double, int32, int64") {
  sorted_values<red::sum, float>();
  sorted_values<red::mean, float>();
  sorted_values<red::prod, double>();
  sorted_values<red::min, std::int32_t>();
  sorted_values<red::max, std::int64_t>();
  sorted_values<red::mean, std::int32_t>();
  sorted_values<red::sum, std::int64_t>();
}

TEST_CASE("SegmentReductionOpTest: testSegmentIdsValid, testSegmentIdsGreaterThanZero, testSegmentIdsHole, empty segments") {
  auto x = tf::placeholder<"x", float, shape<4, 4>>();
  auto ids = tf::placeholder<"ids", std::int64_t, shape<4>>();
  tf::session sess(tf::segment_sum(x, ids));
  const auto xv = fixed<float, 4, 4>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  // testSegmentIdsValid
  check_all(sess.run(tf::segment_sum(x, ids), tf::feed(x, xv), tf::feed(ids, fixed<std::int64_t, 4>({0, 0, 0, 1}))),
            {2, 4}, {15, 18, 21, 24, 13, 14, 15, 16});
  // testSegmentIdsGreaterThanZero and testSegmentIdsHole, all five ops: empty segments hold
  // the identities.
  const auto xs = arange1(16);
  for (const std::vector<int>& iv : {std::vector<int>{1, 1, 2, 2}, std::vector<int>{0, 0, 3, 3}}) {
    const auto idv = fixed<std::int64_t, 4>({double(iv[0]), double(iv[1]), double(iv[2]), double(iv[3])});
    const std::size_t rows = std::size_t(iv[3] + 1);
    check_all(sess.run(tf::segment_sum(x, ids), tf::feed(x, xv), tf::feed(ids, idv)), {rows, 4},
              segment_reduce(red::sum, xs, 4, iv, rows));
    check_all(sess.run(tf::segment_mean(x, ids), tf::feed(x, xv), tf::feed(ids, idv)), {rows, 4},
              segment_reduce(red::mean, xs, 4, iv, rows));
    check_all(sess.run(tf::segment_max(x, ids), tf::feed(x, xv), tf::feed(ids, idv)), {rows, 4},
              segment_reduce(red::max, xs, 4, iv, rows));
    check_all(sess.run(tf::segment_min(x, ids), tf::feed(x, xv), tf::feed(ids, idv)), {rows, 4},
              segment_reduce(red::min, xs, 4, iv, rows));
    check_all(sess.run(tf::segment_prod(x, ids), tf::feed(x, xv), tf::feed(ids, idv)), {rows, 4},
              segment_reduce(red::prod, xs, 4, iv, rows));
  }
  // Literal values of testSegmentIdsHole's segment_sum.
  check_all(sess.run(tf::segment_sum(x, ids), tf::feed(x, xv), tf::feed(ids, fixed<std::int64_t, 4>({0, 0, 3, 3}))),
            {4, 4}, {6, 8, 10, 12, 0, 0, 0, 0, 0, 0, 0, 0, 22, 24, 26, 28});
}

TEST_CASE("SegmentReductionOpTest: testSegmentIdsInvalid1..4 (unsorted and negative ids), testSegmentIdsSize") {
  auto x = tf::placeholder<"x", float, shape<4, 4>>();
  auto ids = tf::placeholder<"ids", std::int32_t, shape<4>>();
  const auto s = tf::segment_sum(x, ids);
  tf::session sess(s);
  const auto xv = fixed<float, 4, 4>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  auto msg = [&](std::initializer_list<double> iv) {
    return invalid_argument_message([&] { sess.run(s, tf::feed(x, xv), tf::feed(ids, fixed<std::int32_t, 4>(iv))); });
  };
  CHECK(msg({-1, -1, 0, 0}) == "Segment id -1 out of range [0, 1), possibly because 'segment_ids' input is not sorted.");
  CHECK(msg({0, 1, 0, 1}) == "segment ids are not increasing");
  CHECK(msg({0, 1, 2, 0}) == "Segment id 1 out of range [0, 1), possibly because 'segment_ids' input is not sorted.");
  CHECK(msg({0, 0, 0, -1}) == "segment ids must be >= 0");
  // testSegmentIdsSize: 2 ids for 20 rows (static shapes: a compile error; dyn here).
  auto xd = tf::placeholder<"xd", float, shape<dyn, 10>>();
  auto idd = tf::placeholder<"idd", std::int32_t, shape<dyn>>();
  const auto sd = tf::segment_sum(xd, idd);
  tf::session sessd(sd);
  CHECK(invalid_argument_message([&] {
          sessd.run(sd, tf::feed(xd, xt::xtensor<float, 2>::from_shape({20, 10})),
                    tf::feed(idd, dynamic<std::int32_t, 1>({2}, {0, 1})));
        }) == "segment_ids should be the same size as dimension 0 of data");
  // No ids: no rows.
  check_all(sessd.run(sd, tf::feed(xd, xt::xtensor<float, 2>::from_shape({0, 10})),
                      tf::feed(idd, xt::xtensor<std::int32_t, 1>::from_shape({0}))),
            {0, 10}, {});
}

TEST_CASE("UnsortedSegmentTest.testValues and testDropNegatives: ids flat and [5, 2], num_segments 12") {
  const std::vector<int> flat{0, 4, 0, 8, 3, 8, 4, 7, 7, 3};
  std::vector<int> dropped = flat;
  for (int& i : dropped)
    if (i == 8) i = -1;
  const auto xs = arange1(20);
  auto x1 = tf::placeholder<"x1", double, shape<10, 2>>();
  auto i1 = tf::placeholder<"i1", std::int32_t, shape<10>>();
  auto x2 = tf::placeholder<"x2", float, shape<5, 2, 2>>();
  auto i2 = tf::placeholder<"i2", std::int64_t, shape<5, 2>>();
  static_assert(has_shape<decltype(tf::unsorted_segment_sum<12>(x2, i2)), shape<12, 2>>);
  tf::session sess;
  for (const std::vector<int>* iv : std::array<const std::vector<int>*, 2>{&flat, &dropped}) {
    const std::vector<double> idd(iv->begin(), iv->end());
    const auto x1v = dynamic<double, 2>({10, 2}, xs);
    const auto i1v = dynamic<std::int32_t, 1>({10}, idd);
    const auto x2v = dynamic<float, 3>({5, 2, 2}, xs);
    const auto i2v = dynamic<std::int64_t, 2>({5, 2}, idd);
    const auto f1 = tf::feed(x1, x1v);  // feeds refer to their values
    const auto g1 = tf::feed(i1, i1v);
    const auto f2 = tf::feed(x2, x2v);
    const auto g2 = tf::feed(i2, i2v);
    check_all(sess.run(tf::unsorted_segment_sum<12>(x1, i1), f1, g1), {12, 2}, segment_reduce(red::sum, xs, 2, *iv, 12));
    check_all(sess.run(tf::unsorted_segment_sum<12>(x2, i2), f2, g2), {12, 2}, segment_reduce(red::sum, xs, 2, *iv, 12));
    check_all(sess.run(tf::unsorted_segment_max<12>(x2, i2), f2, g2), {12, 2}, segment_reduce(red::max, xs, 2, *iv, 12));
    check_all(sess.run(tf::unsorted_segment_min<12>(x2, i2), f2, g2), {12, 2}, segment_reduce(red::min, xs, 2, *iv, 12));
    check_all(sess.run(tf::unsorted_segment_prod<12>(x1, i1), f1, g1), {12, 2},
              segment_reduce(red::prod, xs, 2, *iv, 12));
  }
  // testDropNegatives' construction: np_ans[8:] = 0 of the sum with 8s equals the sum with -1s.
  auto want = segment_reduce(red::sum, xs, 2, flat, 12);
  for (std::size_t k = 16; k < 24; ++k) want[k] = 0;
  CHECK(want == segment_reduce(red::sum, xs, 2, dropped, 12));
}

TEST_CASE("UnsortedSegmentTest: testBadIndices, testNumSegmentsTooSmall-style, testEmptySecondDimension") {
  auto x = tf::placeholder<"x", std::int32_t, shape<1, 1>>();
  auto ids = tf::placeholder<"ids", std::int32_t, shape<1, 1>>();
  const auto s = tf::unsorted_segment_sum<2>(x, ids);
  tf::session sess(s);
  for (int bad : {2, 7})
    CHECK(invalid_argument_message([&] {
            sess.run(s, tf::feed(x, fixed<std::int32_t, 1, 1>({17})), tf::feed(ids, fixed<std::int32_t, 1, 1>({double(bad)})));
          }) == "segment_ids[0,0] = " + std::to_string(bad) + " is out of range [0, 2)");
  // num_segments smaller than the largest id + 1.
  auto xv = tf::placeholder<"xv", float, shape<4>>();
  auto iv = tf::placeholder<"iv", std::int64_t, shape<4>>();
  const auto small = tf::unsorted_segment_sum<3>(xv, iv);
  tf::session sess2(small);
  CHECK(invalid_argument_message([&] {
          sess2.run(small, tf::feed(xv, fixed<float, 4>({1, 2, 3, 4})), tf::feed(iv, fixed<std::int64_t, 4>({0, 1, 2, 3})));
        }) == "segment_ids[3] = 3 is out of range [0, 3)");
  // testEmptySecondDimension: data zeros((2, 0)), ids [0, 1] -> zeros((2, 0)).
  auto xe = tf::placeholder<"xe", double, shape<dyn, dyn>>();
  auto ie = tf::placeholder<"ie", std::int64_t, shape<dyn>>();
  check_all(sess.run(tf::unsorted_segment_sum<2>(xe, ie), tf::feed(xe, xt::xtensor<double, 2>::from_shape({2, 0})),
                     tf::feed(ie, dynamic<std::int64_t, 1>({2}, {0, 1}))),
            {2, 0}, {});
  // Shapes that differ at run time.
  CHECK(invalid_argument_message([&] {
          sess.run(tf::unsorted_segment_sum<2>(xe, ie), tf::feed(xe, xt::xtensor<double, 2>::from_shape({3, 1})),
                   tf::feed(ie, dynamic<std::int64_t, 1>({2}, {0, 1})));
        }) == "data.shape = [3,1] does not start with segment_ids.shape = [2]");
}

TEST_CASE("UnsortedSegmentTest.testProdGrad: TensorFlow's literal Jacobians, zeros handled") {
  auto v = tf::placeholder<"v", float, shape<9>>();
  auto ids = tf::placeholder<"ids", std::int32_t, shape<9>>();
  const auto d = tf::gradient(tf::reduce_sum(tf::unsorted_segment_prod<3>(v, ids)), v);
  tf::session sess(d);
  const auto values = fixed<float, 9>({0, 0, 1, 0, 2, 2, 3, 3, 3});
  // Each element feeds one segment: row i of the Jacobian has one non-zero, gradient i.
  check_all(sess.run(d, tf::feed(v, values), tf::feed(ids, fixed<std::int32_t, 9>({0, 0, 0, 1, 1, 1, 2, 2, 2}))), {9},
            {0, 0, 0, 4, 0, 0, 9, 9, 9});
  check_all(sess.run(d, tf::feed(v, values), tf::feed(ids, fixed<std::int32_t, 9>({-1, 0, 0, -1, 1, 1, -1, 2, 2}))), {9},
            {0, 1, 0, 0, 2, 2, 0, 3, 3});
}

TEST_CASE("SegmentReductionOpTest.testGradient, UnsortedSegmentTest.testGradients: central differences") {
  // Distinct values (no ties for max and min) away from 0 (prod).
  const auto x0 = fixed<double, 4, 4>({0.3, -1.1, 0.7, 1.3, -0.4, 0.9, -1.6, 0.5, 1.2, -0.8, 0.6, -1.4, 1.5, 0.45, -0.65, 1.05});
  auto x = tf::placeholder<"x", double, shape<4, 4>>();
  const auto sorted_ids = tf::constant<"sorted_ids">(fixed<std::int32_t, 4>({0, 1, 2, 2}));
  const auto w = tf::constant<"w">(fixed<double, 3, 4>({0.5, -1, 2, 0.3, 1, 1.5, -0.7, 0.2, -0.4, 0.8, 1.1, -1.2}));
  auto check_sorted = [&](auto seg) {
    const auto loss = tf::reduce_sum(seg * w);
    tf::session sess(loss);
    fd_check::check_gradient(sess, loss, x, x0);
  };
  check_sorted(tf::segment_sum(x, sorted_ids));
  check_sorted(tf::segment_mean(x, sorted_ids));
  check_sorted(tf::segment_max(x, sorted_ids));
  check_sorted(tf::segment_min(x, sorted_ids));
  check_sorted(tf::segment_prod(x, sorted_ids));
  // Unsorted, ids of rank 2 with a negative (dropped) id; no empty segment (lowest() * w
  // would overflow the loss).
  const auto ids2 = tf::constant<"ids2">(fixed<std::int64_t, 2, 2>({1, -1, 0, 1}));
  const auto w2 = tf::constant<"w2">(fixed<double, 2, 4>({0.5, -1, 2, 0.3, 1, 1.5, -0.7, 0.2}));
  auto xu = tf::placeholder<"xu", double, shape<2, 2, 4>>();
  const auto xu0 = fixed<double, 2, 2, 4>({0.3, -1.1, 0.7, 1.3, -0.4, 0.9, -1.6, 0.5, 1.2, -0.8, 0.6, -1.4, 1.5, 0.45, -0.65, 1.05});
  auto check_unsorted = [&](auto seg) {
    const auto loss = tf::reduce_sum(seg * w2);
    tf::session sess(loss);
    fd_check::check_gradient(sess, loss, xu, xu0);
  };
  check_unsorted(tf::unsorted_segment_sum<2>(xu, ids2));
  check_unsorted(tf::unsorted_segment_max<2>(xu, ids2));
  check_unsorted(tf::unsorted_segment_min<2>(xu, ids2));
  check_unsorted(tf::unsorted_segment_prod<2>(xu, ids2));
  // Ties: max's gradient is split evenly among the selected (_SegmentMinOrMaxGrad).
  auto t = tf::placeholder<"t", double, shape<4>>();
  const auto dt = tf::gradient(tf::reduce_sum(tf::segment_max(t, tf::constant<"tie_ids">(fixed<std::int32_t, 4>({0, 0, 0, 1})))), t);
  tf::session sesst(dt);
  check_all(sesst.run(dt, tf::feed(t, fixed<double, 4>({2, 1, 2, 5}))), {4}, {0.5, 0, 0.5, 1});
  // Second order: d/dv of sum(gradient(grad_ys(segment_mean(x), v), x) * u).
  auto v = tf::placeholder<"v", double, shape<dyn, 4>>();
  const auto u = tf::constant<"u">(fd_check::uniform<shape<4, 4>>());
  const auto loss2 = tf::reduce_sum(tf::gradient(tf::grad_ys(tf::segment_mean(x, sorted_ids), v), x) * u);
  tf::session sess2(loss2);
  fd_check::check_gradient(sess2, loss2, v, fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({3, 4})), tf::feed(x, x0));
}

TEST_CASE("UnsortedSegmentTest.testGradientMatchesSegmentSum") {
  auto x = tf::placeholder<"x", double, shape<6, 3>>();
  const auto ids = tf::constant<"ids">(fixed<std::int32_t, 6>({0, 0, 1, 2, 2, 2}));
  const auto w = tf::constant<"w">(fd_check::uniform<shape<3, 3>>());
  const auto a = tf::gradient(tf::reduce_sum(tf::unsorted_segment_sum<3>(x, ids) * w), x);
  const auto b = tf::gradient(tf::reduce_sum(tf::segment_sum(x, ids) * w), x);
  tf::session sess(a, b);
  const auto x0 = fd_check::uniform<shape<6, 3>>();
  const auto [ga, gb] = sess.run(tf::fetch(a, b), tf::feed(x, x0));
  CHECK(tf_port_testing::elements(ga) == tf_port_testing::elements(gb));
}

// --- boolean_mask -------------------------------------------------------------------------

namespace {
// numpy's arr[mask]: the slices of `row` elements whose mask element is true.
std::vector<double> masked(const std::vector<double>& arr, std::size_t row, const std::vector<bool>& mask) {
  std::vector<double> out;
  for (std::size_t k = 0; k < mask.size(); ++k)
    if (mask[k]) out.insert(out.end(), arr.begin() + std::ptrdiff_t(k * row), arr.begin() + std::ptrdiff_t((k + 1) * row));
  return out;
}
}  // namespace

TEST_CASE("BooleanMaskTest: testMaskDim1ArrDim1, testMaskDim1ArrDim2, testMaskDim2ArrDim2, testEmptyOutput") {
  tf::session sess;
  const auto av = arange1(6);
  {  // testMaskDim1ArrDim1: arr (5,), mask (5,)
    auto a = tf::placeholder<"a1", float, shape<5>>();
    auto m = tf::placeholder<"m1", bool, shape<5>>();
    const auto r = tf::boolean_mask(a, m);
    static_assert(has_shape<decltype(r), shape<dyn>>);
    const std::vector<bool> mv{true, false, true, true, false};
    check_all(sess.run(r, tf::feed(a, fixed<float, 5>({1, 2, 3, 4, 5})), tf::feed(m, fixed<bool, 5>({1, 0, 1, 1, 0}))), {3},
              masked(arange1(5), 1, mv));
  }
  auto a = tf::placeholder<"a", double, shape<2, 3>>();
  {  // testMaskDim1ArrDim2: arr (2, 3), mask (2,)
    auto m = tf::placeholder<"m", bool, shape<2>>();
    const auto r = tf::boolean_mask(a, m);
    static_assert(has_shape<decltype(r), shape<dyn, 3>>);
    check_all(sess.run(r, tf::feed(a, dynamic<double, 2>({2, 3}, av)), tf::feed(m, fixed<bool, 2>({0, 1}))), {1, 3},
              masked(av, 3, {false, true}));
    // testEmptyOutput: mask all false.
    check_all(sess.run(r, tf::feed(a, dynamic<double, 2>({2, 3}, av)), tf::feed(m, fixed<bool, 2>({0, 0}))), {0, 3}, {});
  }
  {  // testMaskDim2ArrDim2: arr (2, 3), mask (2, 3)
    auto m = tf::placeholder<"m2", bool, shape<2, 3>>();
    const auto r = tf::boolean_mask(a, m);
    static_assert(has_shape<decltype(r), shape<dyn>>);
    const std::vector<bool> mv{true, false, false, true, true, false};
    check_all(sess.run(r, tf::feed(a, dynamic<double, 2>({2, 3}, av)), tf::feed(m, fixed<bool, 2, 3>({1, 0, 0, 1, 1, 0}))),
              {3}, masked(av, 1, mv));
  }
}

TEST_CASE("BooleanMaskTest: testEmptyInput2D, testWorksWithDimensionsEqualToNoneDuringGraphBuild, dyn dims that differ") {
  tf::session sess;
  // testEmptyInput2D: arr [[], []] (2, 0), mask [True, False] -> shape (1, 0).
  auto e = tf::placeholder<"e", float, shape<2, dyn>>();
  auto em = tf::placeholder<"em", bool, shape<2>>();
  check_all(sess.run(tf::boolean_mask(e, em), tf::feed(e, xt::xtensor<float, 2>::from_shape({2, 0})),
                     tf::feed(em, fixed<bool, 2>({1, 0}))),
            {1, 0}, {});
  // testWorksWithDimensionsEqualToNoneDuringGraphBuild: arr [[1, 2], [3, 4]], mask [False, True].
  auto t = tf::placeholder<"t", std::int32_t, shape<dyn, dyn>>();
  auto m = tf::placeholder<"m", bool, shape<dyn>>();
  const auto r = tf::boolean_mask(t, m);
  static_assert(has_shape<decltype(r), shape<dyn, dyn>>);
  check_all(sess.run(r, tf::feed(t, dynamic<std::int32_t, 2>({2, 2}, {1, 2, 3, 4})), tf::feed(m, dynamic<bool, 1>({2}, {0, 1}))),
            {1, 2}, {3, 4});
  CHECK(invalid_argument_message([&] {
          sess.run(r, tf::feed(t, dynamic<std::int32_t, 2>({2, 2}, {1, 2, 3, 4})), tf::feed(m, dynamic<bool, 1>({3}, {0, 1, 1})));
        }) == "boolean_mask: mask.shape = [3] does not match the leading dims of tensor.shape = [2,2]");
}

TEST_CASE("BooleanMaskTest: gradient scatters into the masked positions (central differences, second order)") {
  auto x = tf::placeholder<"x", double, shape<3, 2, 2>>();
  const auto m = tf::constant<"mask">(fixed<bool, 3, 2>({1, 0, 1, 1, 0, 1}));
  const auto w = tf::constant<"w">(fd_check::uniform<shape<4, 2>>());
  auto r = tf::boolean_mask(x, m);
  const auto loss = tf::reduce_sum(r * w);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<shape<3, 2, 2>>());
  // The gradient's values: g's rows at the true positions, zeros elsewhere.
  const auto d = tf::gradient(tf::reduce_sum(tf::boolean_mask(x, m)), x);
  tf::session sessd(d);
  check_all(sessd.run(d, tf::feed(x, fd_check::uniform<shape<3, 2, 2>>())), {3, 2, 2}, {1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1});
  // Second order: d/dv of sum(gradient(grad_ys(boolean_mask(x, m), v), x) * u) is boolean_mask(u).
  auto v = tf::placeholder<"v", double, shape<dyn, 2>>();
  const auto u = tf::constant<"u">(fd_check::uniform<shape<3, 2, 2>>());
  const auto loss2 = tf::reduce_sum(tf::gradient(tf::grad_ys(tf::boolean_mask(x, m), v), x) * u);
  tf::session sess2(loss2);
  fd_check::check_gradient(sess2, loss2, v, fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 2})),
                           tf::feed(x, fd_check::uniform<shape<3, 2, 2>>()));
}
