// top_k (ops/top_k.hpp) and in_top_k (ops/in_top_k.hpp), ported from TensorFlow 1.x's
// topk_op_test.py (TopKTest) and in_topk_op_test.py (InTopKTest). Each TEST_CASE names the
// TensorFlow test it ports. Expected values are the tests' literals, or numpy's argsort / sort
// recomputed here (a stable sort of the indices by value, descending: numpy's mergesort on
// -inputs); np.random.permutation is a std::shuffle with a fixed-seed std::mt19937.
//
// Not ported, and why:
// - sorted=False: typeflow always sorts (TensorFlow allows any order then), so
//   testTop3Unsorted checks what its unsorted branch checks (valid indices, ties lower index
//   first, the same sets), which the sorted result meets.
// - float16 halves of testLargeSort, testLargeTopK, testMediumTopK: typeflow has no half type.
// - testTensorK (both files): k is a template argument, never a tensor; their values are
//   those of testTop3Vector and of in_top_k<3>, checked below.
// - testKNegative, testKTooLarge with a static shape: compile errors, checked by the
//   compile-fail tests top_k_k_negative and top_k_k_too_large (tests/ops/CMakeLists.txt);
//   testKTooLarge is ported here for a dynamic last dimension (an InvalidArgument).
// - use_gpu: there is no GPU kernel.
// - TopKBenchmark: a benchmark, not a test.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;

namespace {

std::mt19937& rng() {
  static std::mt19937 g(20240611u);
  return g;
}

// One placeholder per element type and rank, fed every case's values: one graph per k.
auto xf() { return tf::placeholder<"x", float, tf::shape<tf::dyn, tf::dyn>>(); }
auto xi() { return tf::placeholder<"xi", std::int32_t, tf::shape<tf::dyn, tf::dyn>>(); }
auto vd() { return tf::placeholder<"v", double, tf::shape<tf::dyn>>(); }
auto vi() { return tf::placeholder<"vi", std::int32_t, tf::shape<tf::dyn>>(); }

template <class T, std::size_t R>
xt::xtensor<T, R> tensor(std::array<std::size_t, R> dims, const std::vector<double>& v) {
  auto t = xt::xtensor<T, R>::from_shape(dims);
  REQUIRE(t.size() == v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t.flat(i) = static_cast<T>(v[i]);
  return t;
}

/// numpy's `-np.sort(-x)[..., :k]` and `np.argsort(-x, kind="mergesort")[..., :k]` of the
/// rows of x (last axis n): the indices of each row sorted by value, descending, stably.
struct expected_top_k {
  std::vector<double> values;
  std::vector<double> indices;
};
expected_top_k np_top_k(const std::vector<double>& x, std::size_t n, std::size_t k) {
  expected_top_k e;
  for (std::size_t r = 0; r * n < x.size(); ++r) {
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    // A stable sort: equal values keep index order (std::sort with the index as tie-break;
    // std::stable_sort trips clang's deprecation warning in libstdc++ 12).
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
      return x[r * n + a] != x[r * n + b] ? x[r * n + a] > x[r * n + b] : a < b;
    });
    for (std::size_t j = 0; j < k; ++j) {
      e.values.push_back(x[r * n + idx[j]]);
      e.indices.push_back(double(idx[j]));
    }
  }
  return e;
}

/// _validateTopK with sorted=True: the shapes, the values (assertAllClose, NaN equal to NaN)
/// and the indices, exactly.
template <std::ptrdiff_t K, class X, class V>
void validate_top_k(X x, const V& input, const std::vector<std::size_t>& out_shape, const std::vector<double>& values,
                    const std::vector<double>& indices) {
  const auto [v_node, i_node] = tf::top_k<K>(x);
  static_assert(std::is_same_v<tf::value_type_of<decltype(i_node)>, std::int32_t>);
  tf::session sess;
  const auto [v, i] = sess.run(tf::fetch(v_node, i_node), tf::feed(x, input));
  REQUIRE(shape_vector(v) == out_shape);
  REQUIRE(shape_vector(i) == out_shape);
  REQUIRE(v.size() == values.size());
  for (std::size_t j = 0; j < values.size(); ++j) {
    INFO("element " << j << ": value " << double(v.flat(j)) << ", index " << i.flat(j));
    if (std::isnan(values[j])) CHECK(std::isnan(double(v.flat(j))));
    else CHECK(std::abs(double(v.flat(j)) - values[j]) <= 1e-6 + 1e-6 * std::abs(values[j]));
    CHECK(double(i.flat(j)) == indices[j]);
  }
}

/// np.random.permutation(np.linspace(0, hi, count)), as T.
std::vector<double> permuted_linspace(double hi, std::size_t count) {
  std::vector<double> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = count == 1 ? 0.0 : hi * double(i) / double(count - 1);
  std::shuffle(v.begin(), v.end(), rng());
  return v;
}

const std::vector<double> two_rows{0.1, 0.3, 0.2, 0.4, 0.1, 0.3, 0.3, 0.2};

}  // namespace

TEST_CASE("TopKTest.testTop1: [[0.1, 0.3, 0.2, 0.4], [0.1, 0.3, 0.3, 0.2]], k = 1") {
  validate_top_k<1>(xf(), tensor<float, 2>({2, 4}, two_rows), {2, 1}, {0.4f, 0.3f}, {3, 1});
}

TEST_CASE("TopKTest.testTop2: [[0.1, 0.3, 0.2, 0.4], [0.1, 0.3, 0.4, 0.2]], k = 2") {
  validate_top_k<2>(xf(), tensor<float, 2>({2, 4}, {0.1, 0.3, 0.2, 0.4, 0.1, 0.3, 0.4, 0.2}), {2, 2},
                    {0.4f, 0.3f, 0.4f, 0.3f}, {3, 1, 2, 1});
}

TEST_CASE("TopKTest.testTopAll: k = 4 of 4, the tie 0.3, 0.3 in index order") {
  validate_top_k<4>(xf(), tensor<float, 2>({2, 4}, two_rows), {2, 4},
                    {0.4f, 0.3f, 0.2f, 0.1f, 0.3f, 0.3f, 0.2f, 0.1f}, {3, 1, 2, 0, 1, 2, 3, 0});
}

TEST_CASE("TopKTest.testTop1AllNan: [[nan, nan], [nan, nan]], k = 1: nan at index 0") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  validate_top_k<1>(xf(), tensor<float, 2>({2, 2}, {nan, nan, nan, nan}), {2, 1}, {nan, nan}, {0, 0});
  // And NaN ranks below every number, so a finite value comes first.
  validate_top_k<2>(xf(), tensor<float, 2>({1, 3}, {nan, -1.0, nan}), {1, 2}, {-1.0, nan}, {1, 0});
}

TEST_CASE("TopKTest.testTop3: k in 3, 5, 7, 9 of permuted linspace(0, 100, dim), dim 512 to 11776, double") {
  auto run = [](auto k_tag, std::size_t dim) {
    constexpr std::ptrdiff_t k = decltype(k_tag)::value;
    INFO("k " << k << ", dim " << dim);
    const auto x = permuted_linspace(100.0, dim);
    const auto e = np_top_k(x, dim, k);
    validate_top_k<k>(vd(), tensor<double, 1>({dim}, x), {std::size_t(k)}, e.values, e.indices);
  };
  for (std::size_t dim = 512; dim < 12288; dim += 512) {
    run(std::integral_constant<std::ptrdiff_t, 3>{}, dim);
    run(std::integral_constant<std::ptrdiff_t, 5>{}, dim);
    run(std::integral_constant<std::ptrdiff_t, 7>{}, dim);
    run(std::integral_constant<std::ptrdiff_t, 9>{}, dim);
  }
}

namespace {
// _testLargeSort, _testLargeTopK, _testMediumTopK: permuted linspace(0, 100, b n) as [b, n], float.
template <std::ptrdiff_t K>
void permuted_rows(std::size_t b, std::size_t n) {
  std::vector<double> x;
  for (double v : permuted_linspace(100.0, b * n)) x.push_back(double(float(v)));
  const auto e = np_top_k(x, n, std::size_t(K));
  validate_top_k<K>(xf(), tensor<float, 2>({b, n}, x), {b, std::size_t(K)}, e.values, e.indices);
}
}  // namespace

TEST_CASE("TopKTest.testLargeSort: [10, 5000], k = 5000, float") { permuted_rows<5000>(10, 5000); }
TEST_CASE("TopKTest.testLargeTopK: [10, 5000], k = 4999, float") { permuted_rows<4999>(10, 5000); }
TEST_CASE("TopKTest.testMediumTopK: [5, 500], k = 50, float") { permuted_rows<50>(5, 500); }

TEST_CASE("TopKTest.testStableSort: permuted int32 linspace(0, 3, 2500) as [5, 500], k in 1, 5, 50, 500") {
  std::vector<double> x(2500);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = double(std::int32_t(3.0 * double(i) / 2499.0));
  std::shuffle(x.begin(), x.end(), rng());
  const auto input = tensor<std::int32_t, 2>({5, 500}, x);
  auto run = [&](auto k_tag) {
    constexpr std::ptrdiff_t k = decltype(k_tag)::value;
    INFO("k " << k);
    const auto e = np_top_k(x, 500, k);
    validate_top_k<k>(xi(), input, {5, std::size_t(k)}, e.values, e.indices);
  };
  run(std::integral_constant<std::ptrdiff_t, 1>{});
  run(std::integral_constant<std::ptrdiff_t, 5>{});
  run(std::integral_constant<std::ptrdiff_t, 50>{});
  run(std::integral_constant<std::ptrdiff_t, 500>{});
}

TEST_CASE("TopKTest.testTop3Unsorted: the checks of its sorted=False branch hold for the sorted result") {
  const std::vector<double> in{0.1, 0.3, 0.2, 0.4, 0.1, 0.4, 0.3, 0.2};
  const auto [v_node, i_node] = tf::top_k<3>(xf());
  tf::session sess;
  const auto [v, i] = sess.run(tf::fetch(v_node, i_node), tf::feed(xf(), tensor<float, 2>({2, 4}, in)));
  REQUIRE(shape_vector(v) == std::vector<std::size_t>{2, 3});
  const std::vector<std::vector<double>> want_indices{{2, 1, 3}, {3, 1, 2}}, want_values{{0.2, 0.3, 0.4}, {0.2, 0.4, 0.3}};
  for (std::size_t r = 0; r < 2; ++r) {
    std::vector<double> got_i, got_v;
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(v(r, j) == float(in[r * 4 + std::size_t(i(r, j))]));  // valid indices
      if (j + 1 < 3 && v(r, j) == v(r, j + 1)) CHECK(i(r, j) < i(r, j + 1));  // ties: lower index first
      got_i.push_back(i(r, j));
      got_v.push_back(v(r, j));
    }
    std::sort(got_i.begin(), got_i.end());
    std::sort(got_v.begin(), got_v.end());
    auto wi = want_indices[r], wv = want_values[r];
    std::sort(wi.begin(), wi.end());
    std::sort(wv.begin(), wv.end());
    CHECK(got_i == wi);
    for (std::size_t j = 0; j < 3; ++j) CHECK(got_v[j] == doctest::Approx(wv[j]).epsilon(1e-6));
  }
}

TEST_CASE("TopKTest.testTop3Vector (and testTensorK): int32 vector of 14, k = 3") {
  validate_top_k<3>(vi(), tensor<std::int32_t, 1>({14}, {3, 6, 15, 18, 6, 12, 1, 17, 3, 0, 4, 19, 1, 6}), {3},
                    {19, 18, 17}, {11, 3, 7});
}

TEST_CASE("TopKTest.testTop3ZeroRows: zeros([0, 10]), k = 3 -> [0, 3]") {
  validate_top_k<3>(xf(), xt::xtensor<float, 2>::from_shape({0, 10}), {0, 3}, {}, {});
}

TEST_CASE("TopKTest.testKTooLarge: k = 4 of a dynamic last dimension 2 fails the run, naming top_k") {
  const auto [v_node, i_node] = tf::top_k<4>(xf());
  tf::session sess;
  CHECK_THROWS_WITH_AS(sess.run(v_node, tf::feed(xf(), tensor<float, 2>({2, 2}, {0.1, 0.2, 0.3, 0.4}))),
                       doctest::Contains("typeflow::top_k<4>(x) (TopKV2): input must have last dimension >= k = 4 "
                                         "but is 2"),
                       tf::invalid_argument_error);
  (void)i_node;
}

TEST_CASE("TopKTest: static shapes, and the result's names") {
  auto x = tf::placeholder<"xs", float, tf::shape<7, 2, 5>>();
  const auto r = tf::top_k<3>(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(r.values)>, tf::shape<7, 2, 3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(r.indices)>, tf::shape<7, 2, 3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(r.values)>, float>);
  static_assert(tf::op_name_of<decltype(r.values)>() == "TopKV2");
  auto dyn_last = tf::top_k<3>(tf::placeholder<"xd", float, tf::shape<2, tf::dyn>>());
  static_assert(std::is_same_v<tf::shape_of<decltype(dyn_last.values)>, tf::shape<2, 3>>);
}

TEST_CASE("TopKTest.testTopKGradients: grad_ys [[1, 2, 3], [4, 5, 6]] scattered to the top 3 of [2, 5]") {
  auto inputs = tf::placeholder<"inputs", float, tf::shape<2, 5>>();
  auto gy = tf::placeholder<"gy", float, tf::shape<2, 3>>();
  const auto [values, indices] = tf::top_k<3>(inputs);
  const auto grad = tf::gradient(tf::grad_ys(values, gy), inputs);
  tf::session sess;
  const xt::xtensor_fixed<float, xt::xshape<2, 5>> in{{2., -1., 1000., 3., 4.}, {1., 5., 2., 4., 3.}};
  const xt::xtensor_fixed<float, xt::xshape<2, 3>> g{{1., 2., 3.}, {4., 5., 6.}};
  const auto r = sess.run(grad, tf::feed(inputs, in), tf::feed(gy, g));
  ops_testing::check_values(r, {2, 5}, {0., 0., 1., 3., 2., 0., 4., 0., 5., 6.}, 0);
  (void)indices;
}

TEST_CASE("top_k: gradient against central differences, and its gradient (the gather of gg)") {
  using S = tf::shape<3, 6>;
  auto x = tf::placeholder<"x", double, S>();
  const auto w = tf::constant<"w">(fd_check::uniform<tf::shape<3, 4>>());
  const auto loss = tf::reduce_sum(tf::top_k<4>(x).values * w);
  tf::session sess(loss);
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<S>(-2.0, 2.0));
  // Second order: d/dv of sum(gradient(grad_ys(values, v)) * u) is u at the top indices.
  auto v = tf::placeholder<"v", double, tf::shape<3, 4>>();
  const auto u = tf::constant<"u">(fd_check::uniform<S>());
  const auto loss2 = tf::reduce_sum(tf::gradient(tf::grad_ys(tf::top_k<4>(x).values, v), x) * u);
  tf::session sess2(loss2);
  fd_check::check_gradient(sess2, loss2, v, fd_check::uniform<tf::shape<3, 4>>(), tf::feed(x, fd_check::uniform<S>()));
}

// --- in_top_k ----------------------------------------------------------------------------

namespace {
auto predictions() { return tf::placeholder<"predictions", float, tf::shape<tf::dyn, tf::dyn>>(); }
auto targets() { return tf::placeholder<"targets", std::int32_t, tf::shape<tf::dyn>>(); }

/// _validateInTopK: the shape and the values (assertAllClose of bools: equal).
template <std::ptrdiff_t K, class Targets, class TV>
void validate_in_top_k(const std::vector<double>& p, std::size_t classes, Targets t, const TV& target_value,
                       const std::vector<bool>& expected) {
  const auto node = tf::in_top_k<K>(predictions(), t);
  static_assert(std::is_same_v<tf::value_type_of<decltype(node)>, bool>);
  static_assert(std::is_same_v<tf::shape_of<decltype(node)>, tf::shape<tf::dyn>>);
  tf::session sess;
  const auto out = sess.run(node, tf::feed(predictions(), tensor<float, 2>({p.size() / classes, classes}, p)),
                            tf::feed(t, target_value));
  REQUIRE(shape_vector(out) == std::vector<std::size_t>{expected.size()});
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("row " << i);
    CHECK(out(i) == expected[i]);
  }
}
const std::vector<double> rows{0.1, 0.3, 0.2, 0.4, 0.1, 0.2, 0.3, 0.4};
const std::vector<double> tie_rows{0.1, 0.3, 0.2, 0.2, 0.1, 0.3, 0.2, 0.2};
}  // namespace

TEST_CASE("InTopKTest.testInTop1: targets [3, 2], k = 1") {
  validate_in_top_k<1>(rows, 4, targets(), tensor<std::int32_t, 1>({2}, {3, 2}), {true, false});
}
TEST_CASE("InTopKTest.testInTop2: targets [2, 2], k = 2") {
  validate_in_top_k<2>(rows, 4, targets(), tensor<std::int32_t, 1>({2}, {2, 2}), {false, true});
}
TEST_CASE("InTopKTest.testInTop2Tie: classes 2 and 3 tie for 2nd, both in the top 2") {
  validate_in_top_k<2>(tie_rows, 4, targets(), tensor<std::int32_t, 1>({2}, {2, 3}), {true, true});
}
TEST_CASE("InTopKTest.testInTop2_int64Target: int64 targets [0, 2], k = 2") {
  auto t64 = tf::placeholder<"targets64", std::int64_t, tf::shape<tf::dyn>>();
  validate_in_top_k<2>(rows, 4, t64, tensor<std::int64_t, 1>({2}, {0, 2}), {false, true});
}
TEST_CASE("InTopKTest.testInTopNan: a NaN target prediction, an inf in the row: false") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  validate_in_top_k<2>({0.1, nan, 0.2, 0.4, 0.1, 0.2, 0.3, inf}, 4, targets(), tensor<std::int32_t, 1>({2}, {1, 3}),
                       {false, false});
}
TEST_CASE("InTopKTest.testBadTarget: target 4 of 4 classes is false (TensorFlow's newer kernel)") {
  validate_in_top_k<2>(tie_rows, 4, targets(), tensor<std::int32_t, 1>({2}, {2, 4}), {true, false});
  // And a negative target.
  validate_in_top_k<2>(tie_rows, 4, targets(), tensor<std::int32_t, 1>({2}, {-1, 1}), {false, true});
}
TEST_CASE("InTopKTest.testEmpty: predictions [0, 5], targets [0]") {
  validate_in_top_k<2>({}, 5, targets(), xt::xtensor<std::int32_t, 1>::from_shape({0}), {});
}
TEST_CASE("InTopKTest.testTensorK (k = 3 as a template argument): targets [0, 2]") {
  validate_in_top_k<3>(rows, 4, targets(), tensor<std::int32_t, 1>({2}, {0, 2}), {false, true});
}
TEST_CASE("in_top_k: a batch mismatch of dynamic shapes fails the run; static shapes; no gradient") {
  const auto node = tf::in_top_k<1>(predictions(), targets());
  tf::session sess;
  CHECK_THROWS_WITH_AS(sess.run(node, tf::feed(predictions(), tensor<float, 2>({2, 4}, rows)),
                                tf::feed(targets(), tensor<std::int32_t, 1>({3}, {0, 1, 2}))),
                       doctest::Contains("First dimension of predictions 2 must match length of targets 3"),
                       tf::invalid_argument_error);
  auto ps = tf::placeholder<"ps", float, tf::shape<2, 4>>();
  const auto s = tf::in_top_k<2>(ps, tf::placeholder<"ts", std::int64_t, tf::shape<tf::dyn>>());
  static_assert(std::is_same_v<tf::shape_of<decltype(s)>, tf::shape<2>>);
  // No gradient flows through in_top_k: the gradient of a loss built on it is zeros
  // (TensorFlow's None).
  const auto g = tf::gradient(tf::reduce_sum(tf::cast<float>(s)), ps);
  tf::session sess2(g);
  const xt::xtensor_fixed<float, xt::xshape<2, 4>> pv{{0.1f, 0.3f, 0.2f, 0.4f}, {0.1f, 0.2f, 0.3f, 0.4f}};
  const auto gv = sess2.run(g, tf::feed(ps, pv), tf::feed(tf::placeholder<"ts", std::int64_t, tf::shape<tf::dyn>>(),
                                                         tensor<std::int64_t, 1>({2}, {3, 0})));
  CHECK(sess2.run(s, tf::feed(ps, pv), tf::feed(tf::placeholder<"ts", std::int64_t, tf::shape<tf::dyn>>(),
                                                tensor<std::int64_t, 1>({2}, {3, 0}))) ==
        xt::xtensor_fixed<bool, xt::xshape<2>>{true, false});
  ops_testing::check_values(gv, {2, 4}, {0, 0, 0, 0, 0, 0, 0, 0}, 0);
}
