// Cases ported from TensorFlow 1.x's kernel tests matmul_op_test.py and batch_matmul_op_test.py
// for tf::matmul; transpose_op_test.py and reshape_op_test.py are in
// tf_transpose_reshape_port_test.cpp (two files, so that each compiles quickly).
// Each case names the TensorFlow test it ports; the expected values are the test's literals or
// the numpy computation it compares with (np.matmul, np.transpose, x.reshape), done here by
// index arithmetic in long double, with the test's tolerance (100 eps of the dtype,
// relative and absolute, as assertAllClose). Gradients:
// tests/autodiff/tf_matmul_shape_gradient_port_test.cpp.
//
// Not ported, and why:
// - dtypes typeflow has no element type for (half, bfloat16, complex, int8, int16), the GPU
//   runs, XLA and MatMulStatsTest / the cost-model tests.
// - matmul's sizes: TensorFlow draws n, k, m from [1, 2, 3, 5, 8, 10] (static and dynamic
//   shape); here a subset of those triples, fed to one dynamic-shape placeholder pair per
//   dtype and transpose combination, keeps the file quick to compile.
// - batch_matmul's broadcasting cases (BatchMatMulV2, TF 2.x): typeflow's matmul, as 1.x's
//   BatchMatMul, needs equal batch dims.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"
#include "tf_port_testing.hpp"

namespace tf = typeflow;
using ops_testing::shape_vector;
using tf::dyn;
using tf::shape;

using namespace tf_port_testing;

namespace {

template <class T, std::size_t R>
xt::xtensor<T, R> random_tensor(std::array<std::size_t, R> dims, std::mt19937& gen) {
  auto t = xt::xtensor<T, R>::from_shape(dims);
  std::uniform_int_distribution<int> small(-5, 5);
  std::normal_distribution<double> normal(0, 1);
  for (auto& e : t) e = std::is_integral_v<T> ? static_cast<T>(small(gen)) : static_cast<T>(normal(gen));
  return t;
}

// np.matmul of op(a) [m, k] and op(b) [k, n], batched over `batch`, in long double.
template <class VA, class VB>
std::vector<long double> np_matmul(const VA& a, const VB& b, bool ta, bool tb, std::size_t batch, std::size_t m,
                                   std::size_t k, std::size_t n) {
  std::vector<long double> out(batch * m * n, 0.0L);
  for (std::size_t s = 0; s < batch; ++s)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        long double acc = 0;
        for (std::size_t p = 0; p < k; ++p) {
          const auto x = a.flat(s * m * k + (ta ? p * m + i : i * k + p));
          const auto y = b.flat(s * k * n + (tb ? j * k + p : p * n + j));
          acc += static_cast<long double>(x) * static_cast<long double>(y);
        }
        out[s * m * n + i * n + j] = acc;
      }
  return out;
}

template <class Got>
void check_close(const Got& got, const std::vector<std::size_t>& dims, const std::vector<long double>& want) {
  using T = typename Got::value_type;
  const long double tol = std::is_integral_v<T> ? 0.0L : 100.0L * std::numeric_limits<T>::epsilon();
  REQUIRE(shape_vector(got) == dims);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i << ": got " << static_cast<double>(got.flat(i)) << ", want " << static_cast<double>(want[i]));
    CHECK(std::fabs(static_cast<long double>(got.flat(i)) - want[i]) <= tol + tol * std::fabs(want[i]));
  }
}

struct mkn {
  std::size_t m, k, n;
};

// matmul_op_test.py's _GetMatMulTest for one dtype: a [?, ?] and b [?, ?], the four
// transpose_a / transpose_b combinations, each run on several (m, k, n), empty ones included
// (testEmpty-like: k = 0 gives zeros, m = 0 or n = 0 an empty result).
template <class T>
void matmul_cases() {
  auto a = tf::placeholder<"mm_a", T, shape<dyn, dyn>>();
  auto b = tf::placeholder<"mm_b", T, shape<dyn, dyn>>();
  auto nn = tf::matmul(a, b);
  auto tn = tf::matmul<true, false>(a, b);
  auto nt = tf::matmul<false, true>(a, b);
  auto tt = tf::matmul<true, true>(a, b);
  tf::session sess(nn, tn, nt, tt);
  std::mt19937 gen(17);
  const std::vector<mkn> sizes = {{1, 1, 1}, {1, 3, 2}, {2, 1, 3}, {3, 5, 2}, {5, 8, 10}, {10, 10, 3}, {8, 2, 5},
                                  {0, 3, 2}, {3, 0, 2}, {3, 2, 0}, {0, 0, 0}};
  for (const auto& s : sizes) {
    INFO("m " << s.m << ", k " << s.k << ", n " << s.n);
    auto run = [&](auto node, bool ta, bool tb) {
      const auto av = random_tensor<T, 2>(ta ? std::array{s.k, s.m} : std::array{s.m, s.k}, gen);
      const auto bv = random_tensor<T, 2>(tb ? std::array{s.n, s.k} : std::array{s.k, s.n}, gen);
      INFO("transpose_a " << ta << ", transpose_b " << tb);
      check_close(sess.run(node, tf::feed(a, av), tf::feed(b, bv)), {s.m, s.n}, np_matmul(av, bv, ta, tb, 1, s.m, s.k, s.n));
    };
    run(nn, false, false);
    run(tn, true, false);
    run(nt, false, true);
    run(tt, true, true);
  }
  // Mismatched inner dimensions fed at run time: InvalidArgumentError, nothing computed.
  CHECK_THROWS_AS(sess.run(nn, tf::feed(a, random_tensor<T, 2>({2, 3}, gen)), tf::feed(b, random_tensor<T, 2>({4, 2}, gen))),
                  tf::invalid_argument_error);
}

}  // namespace

// --- matmul ----------------------------------------------------------------------------------

TEST_CASE("matmul: MatMulTest, float32 (_GetMatMulTest, transpose_a / transpose_b, empty sizes)") { matmul_cases<float>(); }
TEST_CASE("matmul: MatMulTest, float64 (_GetMatMulTest, transpose_a / transpose_b, empty sizes)") { matmul_cases<double>(); }
TEST_CASE("matmul: MatMulTest, int32 (_GetMatMulTest, transpose_a / transpose_b, empty sizes)") { matmul_cases<std::int32_t>(); }

// matmul_op_test.py's static-shape variant (use_static_shape_=True) and testInfNan-like
// propagation: a static [2, 3] x [3, 2] product with an inf and a NaN, as numpy computes it.
TEST_CASE("matmul: MatMulTest with static shapes, inf and NaN propagate as in np.matmul") {
  constexpr float inf = std::numeric_limits<float>::infinity();
  auto a = tf::placeholder<"mms_a", float, shape<2, 3>>();
  auto b = tf::constant<"mms_b">(xt::xtensor_fixed<float, xt::xshape<3, 2>>{{1, 2}, {3, 4}, {5, 6}});
  auto y = tf::matmul(a, b);
  static_assert(has_shape<decltype(y), shape<2, 2>>);
  tf::session sess(y);
  const auto got = sess.run(y, tf::feed(a, xt::xtensor_fixed<float, xt::xshape<2, 3>>{{1, inf, 0}, {2, 1, 1}}));
  CHECK(got(0, 0) == inf);
  CHECK(got(0, 1) == inf);
  CHECK(got(1, 0) == 10.0f);
  CHECK(got(1, 1) == 14.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto g2 = sess.run(y, tf::feed(a, xt::xtensor_fixed<float, xt::xshape<2, 3>>{{nan, 0, 0}, {1, 1, 1}}));
  CHECK(std::isnan(g2(0, 0)));
  CHECK(std::isnan(g2(0, 1)));
  CHECK(g2(1, 0) == 9.0f);
  CHECK(g2(1, 1) == 12.0f);
}

// batch_matmul_op_test.py testBatchMatmulOps (_testNonEmpty and _testEmpty for float32 and
// float64, adjoint_a / adjoint_b, which for real numbers is the transpose): [2, m, k] x
// [2, k, n] with static shapes, and empty batches and matrices with dynamic ones.
TEST_CASE("batch matmul: testBatchMatmulOps, non-empty and empty, each adjoint combination") {
  std::mt19937 gen(23);
  auto a = tf::placeholder<"bm_a", double, shape<2, 3, 5>>();
  auto b = tf::placeholder<"bm_b", double, shape<2, 5, 4>>();
  auto at = tf::placeholder<"bm_at", double, shape<2, 5, 3>>();
  auto bt = tf::placeholder<"bm_bt", double, shape<2, 4, 5>>();
  auto nn = tf::matmul(a, b);
  auto tn = tf::matmul<true, false>(at, b);
  auto nt = tf::matmul<false, true>(a, bt);
  auto tt = tf::matmul<true, true>(at, bt);
  static_assert(has_shape<decltype(nn), shape<2, 3, 4>> && has_shape<decltype(tt), shape<2, 3, 4>>);
  tf::session sess(nn, tn, nt, tt);
  auto fixed = [&](auto proto) {
    using V = decltype(proto);
    V v{};
    std::normal_distribution<double> normal(0, 1);
    for (auto& e : v) e = normal(gen);
    return v;
  };
  const auto av = fixed(xt::xtensor_fixed<double, xt::xshape<2, 3, 5>>{});
  const auto bv = fixed(xt::xtensor_fixed<double, xt::xshape<2, 5, 4>>{});
  const auto atv = fixed(xt::xtensor_fixed<double, xt::xshape<2, 5, 3>>{});
  const auto btv = fixed(xt::xtensor_fixed<double, xt::xshape<2, 4, 5>>{});
  check_close(sess.run(nn, tf::feed(a, av), tf::feed(b, bv)), {2, 3, 4}, np_matmul(av, bv, false, false, 2, 3, 5, 4));
  check_close(sess.run(tn, tf::feed(at, atv), tf::feed(b, bv)), {2, 3, 4}, np_matmul(atv, bv, true, false, 2, 3, 5, 4));
  check_close(sess.run(nt, tf::feed(a, av), tf::feed(bt, btv)), {2, 3, 4}, np_matmul(av, btv, false, true, 2, 3, 5, 4));
  check_close(sess.run(tt, tf::feed(at, atv), tf::feed(bt, btv)), {2, 3, 4}, np_matmul(atv, btv, true, true, 2, 3, 5, 4));
  // _testEmpty: batch 0, or m, k, n 0.
  auto da = tf::placeholder<"bm_da", float, shape<dyn, dyn, dyn>>();
  auto db = tf::placeholder<"bm_db", float, shape<dyn, dyn, dyn>>();
  auto dy = tf::matmul(da, db);
  tf::session sd(dy);
  for (const auto& d : std::vector<std::array<std::size_t, 4>>{{0, 3, 5, 4}, {2, 0, 5, 4}, {2, 3, 0, 4}, {2, 3, 5, 0}}) {
    const auto x = random_tensor<float, 3>({d[0], d[1], d[2]}, gen);
    const auto y = random_tensor<float, 3>({d[0], d[2], d[3]}, gen);
    INFO("batch " << d[0] << ", m " << d[1] << ", k " << d[2] << ", n " << d[3]);
    check_close(sd.run(dy, tf::feed(da, x), tf::feed(db, y)), {d[0], d[1], d[3]},
                np_matmul(x, y, false, false, d[0], d[1], d[2], d[3]));
  }
}

