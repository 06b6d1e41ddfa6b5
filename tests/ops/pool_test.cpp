// max_pool, avg_pool (ops/pool.hpp): TensorFlow's expected values (pooling_ops_test.py,
// inputs 1, 2, 3, ... as there), static and dynamic shapes, gradients against central
// differences, the tie rule of MaxPoolGrad (pooling_ops_test.py's _testMaxPoolGradDirect
// cases), the layers' op names, bias_add, flatten, and steady runs without allocation.
#include <doctest/doctest.h>

#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/ops/pool.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "../ops/ops_testing.hpp"
#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;
using tf::shape;

namespace {
/// 1, 2, 3, ... in row-major order, as pooling_ops_test.py's inputs.
template <class T, class S>
tf::storage_t<T, S> iota_value() {
  tf::storage_t<T, S> v{};
  std::iota(v.data(), v.data() + v.size(), T(1));
  return v;
}
template <class T, class S>
tf::storage_t<T, S> value_of(std::initializer_list<double> xs) {
  tf::storage_t<T, S> v{};
  REQUIRE(v.size() == xs.size());
  std::size_t i = 0;
  for (double x : xs) v.data()[i++] = static_cast<T>(x);
  return v;
}

/// pool<...>(x) of 1, 2, 3, ... in float and double against TensorFlow's expected values.
template <class S, class KS, class ST, class P, bool Max, class T>
void check_pool_of(std::vector<std::size_t> out_shape, std::initializer_list<double> want) {
  auto x = tf::placeholder<"x", T, S>();
  auto y = [&] {
    if constexpr (Max) {
      return tf::max_pool<KS, ST, P>(x);
    } else {
      return tf::avg_pool<KS, ST, P>(x);
    }
  }();
  tf::session sess(y);
  check_values(sess.run(y, tf::feed(x, iota_value<T, S>())), out_shape, want);
}
template <class S, class KS, class ST, class P, bool Max>
void check_pool(std::vector<std::size_t> out_shape, std::initializer_list<double> want) {
  INFO("float");
  check_pool_of<S, KS, ST, P, Max, float>(out_shape, want);
  INFO("double");
  check_pool_of<S, KS, ST, P, Max, double>(out_shape, want);
}

/// Values without ties and 0.1 apart (a permutation of 0.1 k): central differences with a
/// step of 1e-6 never move a window's maximum.
template <class V>
V distinct(V v) {
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = 0.1 * double((i * 7919) % n) - 0.05 * double(n);
  return v;
}
}  // namespace

// --- values ---------------------------------------------------------------------------------

TEST_CASE("max_pool: pooling_ops_test.py's expected values") {
  using valid = tf::padding::valid;
  using same = tf::padding::same;
  // testMaxPoolValidPadding
  check_pool<shape<1, 3, 3, 3>, tf::ksize<2, 2>, tf::strides<2, 2>, valid, true>({1, 1, 1, 3}, {13, 14, 15});
  // testMaxPoolSamePadding
  check_pool<shape<1, 2, 3, 3>, tf::ksize<2, 2>, tf::strides<2, 2>, same, true>({1, 1, 2, 3}, {13, 14, 15, 16, 17, 18});
  // testMaxPoolSamePaddingNonSquareWindow
  check_pool<shape<1, 2, 2, 1>, tf::ksize<1, 2>, tf::strides<1, 1>, same, true>({1, 2, 2, 1}, {2, 2, 4, 4});
  // testMaxPoolValidPaddingUnevenStride (both strides)
  check_pool<shape<1, 4, 4, 1>, tf::ksize<2, 2>, tf::strides<1, 2>, valid, true>({1, 3, 2, 1}, {6, 8, 10, 12, 14, 16});
  check_pool<shape<1, 4, 4, 1>, tf::ksize<2, 2>, tf::strides<2, 1>, valid, true>({1, 2, 3, 1}, {6, 7, 8, 14, 15, 16});
  // testMaxPoolSamePaddingPacket4
  check_pool<shape<1, 4, 4, 4>, tf::ksize<2, 2>, tf::strides<2, 2>, same, true>(
      {1, 2, 2, 4}, {21, 22, 23, 24, 29, 30, 31, 32, 53, 54, 55, 56, 61, 62, 63, 64});
}

TEST_CASE("avg_pool: pooling_ops_test.py's expected values (SAME divides by the in-bounds count)") {
  using valid = tf::padding::valid;
  using same = tf::padding::same;
  // testAvgPoolValidPadding
  check_pool<shape<1, 3, 3, 3>, tf::ksize<2, 2>, tf::strides<2, 2>, valid, false>({1, 1, 1, 3}, {7, 8, 9});
  // testAvgPoolSamePadding
  check_pool<shape<1, 2, 4, 3>, tf::ksize<2, 2>, tf::strides<2, 2>, same, false>({1, 1, 2, 3},
                                                                                   {8.5, 9.5, 10.5, 14.5, 15.5, 16.5});
  // testAvgPoolSamePaddingNonSquareWindow
  check_pool<shape<1, 2, 2, 1>, tf::ksize<1, 2>, tf::strides<1, 1>, same, false>({1, 2, 2, 1}, {1.5, 2, 3.5, 4});
  // testAvgPoolSamePaddingNonSquareWindowMultiBatch
  check_pool<shape<2, 2, 2, 2>, tf::ksize<1, 2>, tf::strides<1, 1>, same, false>(
      {2, 2, 2, 2}, {2, 3, 3, 4, 6, 7, 7, 8, 10, 11, 11, 12, 14, 15, 15, 16});
  // testAvgPoolValidPaddingUnevenStride
  check_pool<shape<1, 3, 3, 3>, tf::ksize<2, 2>, tf::strides<1, 2>, valid, false>({1, 2, 1, 3}, {7, 8, 9, 16, 17, 18});
  // testAvgPoolSamePadding4
  check_pool<shape<1, 4, 4, 4>, tf::ksize<2, 2>, tf::strides<2, 2>, same, false>(
      {1, 2, 2, 4}, {11, 12, 13, 14, 19, 20, 21, 22, 43, 44, 45, 46, 51, 52, 53, 54});
}

TEST_CASE("max_pool and avg_pool: static shapes follow TensorFlow's SAME / VALID sizes, dyn stays dyn") {
  auto x = tf::placeholder<"x", float, shape<8, 7, 5, 3>>();
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::max_pool<tf::ksize<3, 3>, tf::strides<2, 2>, tf::padding::same>(x))>,
                               shape<8, 4, 3, 3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::avg_pool<tf::ksize<3, 2>, tf::strides<2, 2>, tf::padding::valid>(x))>,
                               shape<8, 3, 2, 3>>);
  auto d = tf::placeholder<"d", double, shape<dyn, dyn, 6, 2>>();
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::max_pool<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::valid>(d))>,
                               shape<dyn, dyn, 3, 2>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(tf::avg_pool<tf::ksize<2>, tf::strides<2>, tf::padding::same>(d))>,
                               double>);
}

TEST_CASE("max_pool and avg_pool with dynamic batch, height and width") {
  auto x = tf::placeholder<"x", double, shape<dyn, dyn, dyn, 1>>();
  auto mx = tf::max_pool<tf::ksize<2, 2>, tf::strides<1, 2>, tf::padding::valid>(x);
  auto av = tf::avg_pool<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::same>(x);
  tf::session sess(mx, av);
  auto v = xt::xtensor<double, 4>::from_shape({2, 4, 4, 1});
  std::iota(v.begin(), v.end(), 1.0);
  const auto [m, a] = sess.run(tf::fetch(mx, av), tf::feed(x, v));
  // testMaxPoolValidPaddingUnevenStride, then the same on the second image (+16).
  check_values(m, {2, 3, 2, 1}, {6, 8, 10, 12, 14, 16, 22, 24, 26, 28, 30, 32});
  check_values(a, {2, 2, 2, 1}, {3.5, 5.5, 11.5, 13.5, 19.5, 21.5, 27.5, 29.5});
  // A different size in the next run.
  auto w = xt::xtensor<double, 4>::from_shape({1, 2, 3, 1});
  std::iota(w.begin(), w.end(), 1.0);
  check_values(sess.run(av, tf::feed(x, w)), {1, 1, 2, 1}, {3, 4.5});
  // A fed image smaller than a VALID window: TensorFlow's error, (1 - 2 + 1) / 1 = 0 is an
  // empty output, (1 - 3 + 1) / 1 = -1 an error.
  auto small = xt::xtensor<double, 4>::from_shape({1, 1, 4, 1});
  small.fill(1.0);
  check_values(sess.run(mx, tf::feed(x, small)), {1, 0, 2, 1}, {});
  auto big = tf::max_pool<tf::ksize<3, 1>, tf::strides<1, 1>, tf::padding::valid>(x);
  tf::session bs(big);
  CHECK_THROWS_WITH_AS(bs.run(big, tf::feed(x, small)),
                       doctest::Contains("Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, stride: 1]"),
                       tf::invalid_argument_error);
}

// --- gradients ------------------------------------------------------------------------------

namespace {
/// reduce_sum(pool(x) * w) with random w: the gradient of pool(x) for a random upstream.
template <class S, class Pool>
void check_pool_gradient(Pool pool, fd_check::value_t<S> x0) {
  auto x = tf::placeholder<"x", double, S>();
  auto y = pool(x);
  auto w = tf::placeholder<"w", double, tf::shape_of<decltype(y)>>();
  auto loss = tf::reduce_sum(y * w);
  tf::session sess(loss, tf::gradient(loss, x));
  const auto w0 = fd_check::uniform<tf::shape_of<decltype(y)>>(-1, 1);
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(w, w0));
}
template <class KS, class ST, class P>
struct pools {
  static constexpr auto max = [](auto x) { return tf::max_pool<KS, ST, P>(x); };
  static constexpr auto avg = [](auto x) { return tf::avg_pool<KS, ST, P>(x); };
};
}  // namespace

TEST_CASE("MaxPoolGrad and AvgPoolGrad against central differences, SAME and VALID, overlapping windows") {
  using S = shape<2, 5, 6, 3>;
  const auto x0 = distinct(fd_check::value_t<S>{});
  using same3 = pools<tf::ksize<3, 3>, tf::strides<2, 2>, tf::padding::same>;
  using valid23 = pools<tf::ksize<2, 3>, tf::strides<1, 2>, tf::padding::valid>;
  check_pool_gradient<S>(same3::max, x0);
  check_pool_gradient<S>(same3::avg, x0);
  check_pool_gradient<S>(valid23::max, x0);
  check_pool_gradient<S>(valid23::avg, x0);
}

TEST_CASE("MaxPoolGrad and AvgPoolGrad with a dynamic batch") {
  using S = shape<dyn, 4, 4, 2>;
  const auto x0 = distinct(xt::xtensor<double, 4>::from_shape({3, 4, 4, 2}));
  using p = pools<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::valid>;
  auto x = tf::placeholder<"x", double, S>();
  auto w = tf::placeholder<"w", double, shape<dyn, 2, 2, 2>>();
  auto w0 = fd_check::fill_uniform(xt::xtensor<double, 4>::from_shape({3, 2, 2, 2}));
  auto lmax = tf::reduce_sum(p::max(x) * w);
  auto lavg = tf::reduce_sum(p::avg(x) * w);
  tf::session sess(lmax, lavg, tf::gradient(lmax, x), tf::gradient(lavg, x));
  fd_check::check_gradient(sess, lmax, x, x0, tf::feed(w, w0));
  fd_check::check_gradient(sess, lavg, x, x0, tf::feed(w, w0));
}

TEST_CASE("MaxPoolGrad routes a tie to the first maximum in row-major window order (_testMaxPoolGradDirect1_*)") {
  auto x = tf::placeholder<"x", float, shape<1, 4, 4, 1>>();
  auto g2 = tf::placeholder<"g2", float, shape<1, 3, 3, 1>>();
  auto g3 = tf::placeholder<"g3", float, shape<1, 4, 4, 1>>();
  auto valid2 = tf::max_pool<tf::ksize<2, 2>, tf::strides<1, 1>, tf::padding::valid>(x);
  auto same3 = tf::max_pool<tf::ksize<3, 3>, tf::strides<1, 1>, tf::padding::same>(x);
  auto gx2 = tf::gradient(tf::reduce_sum(valid2 * g2), x);
  auto gx3 = tf::gradient(tf::reduce_sum(same3 * g3), x);
  tf::session sess(gx2, gx3);
  const auto up2 = value_of<float, shape<1, 3, 3, 1>>({11, 12, 13, 15, 16, 17, 19, 20, 21});
  // _testMaxPoolGradDirect1_1: all equal, so each window's top-left element takes it.
  const auto ones = value_of<float, shape<1, 4, 4, 1>>({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  check_values(sess.run(gx2, tf::feed(x, ones), tf::feed(g2, up2)), {1, 4, 4, 1},
               {11, 12, 13, 0, 15, 16, 17, 0, 19, 20, 21, 0, 0, 0, 0, 0}, 0);
  // _testMaxPoolGradDirect1_2 and 1_3: a checkerboard, two maxima in every window.
  const auto board = value_of<float, shape<1, 4, 4, 1>>({1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1});
  check_values(sess.run(gx2, tf::feed(x, board), tf::feed(g2, up2)), {1, 4, 4, 1},
               {11, 0, 25, 0, 0, 31, 0, 17, 19, 0, 41, 0, 0, 0, 0, 0}, 0);
  tf::storage_t<float, shape<1, 4, 4, 1>> up3{};
  std::iota(up3.begin(), up3.end(), 11.0f);
  check_values(sess.run(gx3, tf::feed(x, board), tf::feed(g3, up3)), {1, 4, 4, 1},
               {54, 0, 62, 0, 0, 60, 0, 22, 47, 0, 51, 0, 0, 0, 0, 0}, 0);
}

TEST_CASE("second order: the gradient of MaxPoolGrad and AvgPoolGrad with respect to the upstream gradient") {
  // d/du of reduce_sum(gradient(reduce_sum(pool(x) * u), x) * v) is pool's adjoint applied
  // to v: MaxPoolGradGrad (v at the argmax) and AvgPool(v).
  using S = shape<1, 4, 5, 2>;
  using U = shape<1, 2, 3, 2>;
  using p = pools<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::same>;
  auto x = tf::placeholder<"x", double, S>();
  auto u = tf::placeholder<"u", double, U>();
  auto v = tf::placeholder<"v", double, S>();
  const auto x0 = distinct(fd_check::value_t<S>{});
  const auto v0 = fd_check::uniform<S>();
  const auto u0 = fd_check::uniform<U>();
  auto lmax = tf::reduce_sum(tf::gradient(tf::reduce_sum(p::max(x) * u), x) * v);
  auto lavg = tf::reduce_sum(tf::gradient(tf::reduce_sum(p::avg(x) * u), x) * v);
  tf::session sess(lmax, lavg, tf::gradient(lmax, u), tf::gradient(lavg, u));
  fd_check::check_gradient(sess, lmax, u, u0, tf::feed(x, x0), tf::feed(v, v0));
  fd_check::check_gradient(sess, lavg, u, u0, tf::feed(x, x0), tf::feed(v, v0));
}

TEST_CASE("MaxPoolGrad of windows that do not overlap: ties, clipped SAME windows, elements no window reaches") {
  // 5x5, 2x2 / 2: SAME has 3x3 windows, the last row and column of windows clipped to one
  // input row or column (pad_top = pad_left = 0); VALID has 2x2 windows and leaves the last
  // row and column to no window (gradient 0). Ties go to the first maximum, row-major.
  auto x = tf::placeholder<"x", float, shape<1, 5, 5, 1>>();
  auto gs = tf::placeholder<"gs", float, shape<1, 3, 3, 1>>();
  auto gv = tf::placeholder<"gv", float, shape<1, 2, 2, 1>>();
  auto same = tf::max_pool<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::same>(x);
  auto valid = tf::max_pool<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::valid>(x);
  auto dsame = tf::gradient(tf::reduce_sum(same * gs), x);
  auto dvalid = tf::gradient(tf::reduce_sum(valid * gv), x);
  tf::session sess(same, valid, dsame, dvalid);
  const auto x0 = value_of<float, shape<1, 5, 5, 1>>({1, 1, 0, 2, 3,  //
                                                      1, 0, 2, 2, -1,  //
                                                      5, 4, 4, 5, 0,  //
                                                      4, 5, 5, 4, 7,  //
                                                      9, 9, 1, 1, 9});
  const auto [ys, yv, dxs, dxv] =
      sess.run(tf::fetch(same, valid, dsame, dvalid), tf::feed(x, x0),
               tf::feed(gs, value_of<float, shape<1, 3, 3, 1>>({1, 2, 3, 4, 5, 6, 7, 8, 9})),
               tf::feed(gv, value_of<float, shape<1, 2, 2, 1>>({1, 2, 3, 4})));
  check_values(ys, {1, 3, 3, 1}, {1, 2, 3, 5, 5, 7, 9, 1, 9}, 0);
  check_values(yv, {1, 2, 2, 1}, {1, 2, 5, 5}, 0);
  check_values(dxs, {1, 5, 5, 1}, {1, 0, 0, 2, 3, 0, 0, 0, 0, 0, 4, 0, 0, 5, 0, 0, 0, 0, 0, 6, 7, 0, 8, 0, 9}, 0);
  check_values(dxv, {1, 5, 5, 1}, {1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0);
}

namespace {
/// The max-pool kernels against MaxPool, MaxPoolGrad and MaxPoolGradGrad written from their
/// definition (each window scanned row-major, a later element taking over only when
/// strictly greater), outputs filled with NaN first so that an element left unwritten shows.
/// Values in {-2, ..., 2}, so windows have ties. C: the depth given at compile time (0: not).
template <std::size_t C, class T>
void check_max_pool_kernels(std::size_t batch, std::size_t in_h, std::size_t in_w, std::size_t depth, std::ptrdiff_t kh,
                            std::ptrdiff_t kw, std::ptrdiff_t sh, std::ptrdiff_t sw, bool same) {
  namespace d = tf::ops::detail;
  const d::window_dim wh{std::ptrdiff_t(in_h), kh, sh, 1, same}, ww{std::ptrdiff_t(in_w), kw, sw, 1, same};
  const d::pool_geometry g{batch, in_h, in_w, depth, std::size_t(wh.out()), std::size_t(ww.out()), kh, kw, sh, sw,
                           wh.pad_before(), ww.pad_before()};
  INFO(in_h << "x" << in_w << "x" << depth << " window " << kh << "x" << kw << " strides " << sh << "x" << sw
            << std::string(same ? " SAME" : " VALID") << " C=" << C << std::string(sizeof(T) == 4 ? " float" : " double"));
  std::vector<T> x(g.in_size()), dy(g.out_size()), ddx(g.in_size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = T(int((i * 7 + i / 5) % 5) - 2);
  for (std::size_t i = 0; i < dy.size(); ++i) dy[i] = T(i + 1);
  for (std::size_t i = 0; i < ddx.size(); ++i) ddx[i] = T(1000 + i);
  std::vector<T> y_want(g.out_size()), dx_want(g.in_size(), T(0)), gg_want(g.out_size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t oh = 0; oh < g.out_h; ++oh)
      for (std::size_t ow = 0; ow < g.out_w; ++ow)
        for (std::size_t k = 0; k < depth; ++k) {
          std::size_t arg = 0;
          bool found = false;
          for (std::ptrdiff_t i = 0; i < kh; ++i)
            for (std::ptrdiff_t j = 0; j < kw; ++j) {
              const std::ptrdiff_t h = std::ptrdiff_t(oh) * sh - g.pad_top + i, w = std::ptrdiff_t(ow) * sw - g.pad_left + j;
              if (h < 0 || w < 0 || h >= std::ptrdiff_t(in_h) || w >= std::ptrdiff_t(in_w)) continue;
              const std::size_t at = ((b * in_h + std::size_t(h)) * in_w + std::size_t(w)) * depth + k;
              if (!found || x[at] > x[arg]) arg = at;
              found = true;
            }
          REQUIRE(found);
          const std::size_t o = ((b * g.out_h + oh) * g.out_w + ow) * depth + k;
          y_want[o] = x[arg];
          dx_want[arg] += dy[o];
          gg_want[o] = ddx[arg];
        }
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> y(g.out_size(), nan), dx(g.in_size(), nan), gg(g.out_size(), nan);
  d::max_pool_forward<C>(x.data(), y.data(), g);
  d::max_pool_backward<C>(x.data(), dy.data(), dx.data(), g);
  d::max_pool_gather_argmax<C>(x.data(), ddx.data(), gg.data(), g);
  CHECK(y == y_want);
  CHECK(dx == dx_want);
  CHECK(gg == gg_want);
}
template <std::size_t C>
void check_max_pool_kernels_at_depth(std::size_t in_h, std::size_t in_w, std::ptrdiff_t kh, std::ptrdiff_t kw,
                                     std::ptrdiff_t sh, std::ptrdiff_t sw, bool same) {
  check_max_pool_kernels<C, float>(2, in_h, in_w, C, kh, kw, sh, sw, same);
  check_max_pool_kernels<C, double>(2, in_h, in_w, C, kh, kw, sh, sw, same);
  check_max_pool_kernels<0, float>(2, in_h, in_w, C, kh, kw, sh, sw, same);
  check_max_pool_kernels<0, double>(2, in_h, in_w, C, kh, kw, sh, sw, same);
}
}  // namespace

TEST_CASE("max-pool kernels: disjoint and overlapping windows, channel blocks, static and dynamic depth") {
  // Depths 1, 3, 19 (16 + 3 floats, 8 + 8 + 3 doubles) and 35: whole blocks and a rest.
  for (const bool same : {false, true}) {
    // Disjoint windows: strides = window (5x5 clips SAME windows and leaves VALID remainders),
    // strides > window (gaps no window reaches), SAME with padding before (4x4, 3x3 / 3).
    check_max_pool_kernels_at_depth<1>(5, 5, 2, 2, 2, 2, same);
    check_max_pool_kernels_at_depth<19>(5, 5, 2, 2, 2, 2, same);
    check_max_pool_kernels_at_depth<3>(7, 8, 2, 2, 3, 3, same);
    check_max_pool_kernels_at_depth<35>(4, 4, 3, 3, 3, 3, same);
    check_max_pool_kernels_at_depth<3>(6, 5, 1, 2, 2, 3, same);
    // Overlapping windows.
    check_max_pool_kernels_at_depth<19>(5, 6, 3, 3, 2, 2, same);
    check_max_pool_kernels_at_depth<3>(5, 5, 3, 3, 1, 1, same);
    check_max_pool_kernels_at_depth<1>(4, 7, 2, 3, 1, 2, same);
    check_max_pool_kernels_at_depth<3>(6, 6, 3, 2, 3, 1, same);
  }
}

// --- layers, bias_add, flatten --------------------------------------------------------------

TEST_CASE("layers::max_pooling2d, average_pooling2d and flatten name their ops as tf.layers") {
  auto x = tf::placeholder<"img", float, shape<dyn, 4, 4, 2>>();
  auto p = tf::layers::max_pooling2d<tf::ksize<2>, tf::strides<2>>(x);
  auto a = tf::layers::average_pooling2d<tf::ksize<2>, tf::strides<2>, tf::padding::same, "avg">(p);
  auto f = tf::layers::flatten(a);
  static_assert(std::is_same_v<tf::shape_of<decltype(f)>, shape<dyn, 2>>);
  const auto g = tf::describe_graph(f);
  std::vector<std::string> names;
  for (const auto& n : g.nodes) names.push_back(n.name + " " + n.op);
  CHECK(names == std::vector<std::string>{"img Placeholder", "max_pooling2d/MaxPool MaxPool", "avg/AvgPool AvgPool",
                                          "flatten/Reshape Reshape"});
  tf::session sess(f);
  auto v = xt::xtensor<float, 4>::from_shape({2, 4, 4, 2});
  std::iota(v.begin(), v.end(), 1.0f);
  // Per image and channel the maximum of each 2x2 block, then the mean of the 2x2 maxima.
  check_values(sess.run(f, tf::feed(x, v)), {2, 2}, {21, 22, 53, 54});
  // TensorFlow's integer pool_size and strides: the same ops.
  static_assert(std::is_same_v<decltype(tf::layers::max_pooling2d<2, 2>(x)), decltype(p)>);
  static_assert(std::is_same_v<decltype(tf::layers::average_pooling2d<2, 2, tf::padding::same, "avg">(p)), decltype(a)>);
}

TEST_CASE("flatten: [N, ...] to [N, product], dyn batch, gradient the reshape back") {
  auto x = tf::placeholder<"x", double, shape<dyn, 2, 3, 2>>();
  auto f = tf::flatten(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(f)>, shape<dyn, 12>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::flatten(tf::placeholder<"s", float, shape<4, 5>>()))>,
                               shape<4, 5>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tf::flatten(tf::placeholder<"v", float, shape<4>>()))>,
                               shape<4, 1>>);
  auto w = tf::placeholder<"w", double, shape<12>>();
  auto loss = tf::reduce_sum(f * w);
  tf::session sess(loss, tf::gradient(loss, x));
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 4>::from_shape({3, 2, 3, 2}));
  const auto out = sess.run(f, tf::feed(x, x0));
  REQUIRE(ops_testing::shape_vector(out) == std::vector<std::size_t>{3, 12});
  CHECK(std::equal(out.begin(), out.end(), x0.begin()));
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(w, fd_check::uniform<shape<12>>()));
}

TEST_CASE("bias_add: x + bias along the last dim, op BiasAdd, gradients") {
  auto x = tf::placeholder<"x", double, shape<dyn, 2, 3>>();
  auto b = tf::placeholder<"b", double, shape<3>>();
  auto y = tf::bias_add(x, b);
  CHECK(tf::describe_graph(y).find("BiasAdd") != nullptr);
  auto w = tf::placeholder<"w", double, shape<2, 3>>();
  auto loss = tf::reduce_sum(y * w);
  tf::session sess(loss, tf::gradient(loss, x), tf::gradient(loss, b));
  auto x0 = xt::xtensor<double, 3>::from_shape({2, 2, 3});
  std::iota(x0.begin(), x0.end(), 0.0);
  const auto b0 = value_of<double, shape<3>>({10, 20, 30});
  check_values(sess.run(y, tf::feed(x, x0), tf::feed(b, b0)), {2, 2, 3},
               {10, 21, 32, 13, 24, 35, 16, 27, 38, 19, 30, 41}, 0);
  const auto w0 = fd_check::uniform<shape<2, 3>>();
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(b, b0), tf::feed(w, w0));
  fd_check::check_gradient(sess, loss, b, b0, tf::feed(x, x0), tf::feed(w, w0));
}

// --- steady runs ----------------------------------------------------------------------------

TEST_CASE("a pooling network's training step allocates nothing after the first run") {
  auto x = tf::placeholder<"x", float, shape<4, 8, 8, 3>>();
  auto v = tf::variable<"v", float, shape<4, 8, 8, 3>>(tf::init::ones());
  auto b = tf::variable<"b", float, shape<3>>(tf::init::zeros());
  auto h = tf::bias_add(x * v, b);
  auto p = tf::layers::max_pooling2d<tf::ksize<3, 3>, tf::strides<2, 2>, tf::padding::same>(h);
  auto q = tf::avg_pool<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::valid>(p);
  auto loss = tf::reduce_mean(tf::layers::flatten(q) * tf::layers::flatten(q));
  auto step = tf::train::gradient_descent<"PoolSGD">(0.01).minimize(loss);
  tf::session sess(step, loss);
  sess.initialize_all();
  auto xv = distinct(tf::storage_t<double, shape<4, 8, 8, 3>>{});
  tf::storage_t<float, shape<4, 8, 8, 3>> xf{};
  std::copy(xv.begin(), xv.end(), xf.begin());
  const float first = std::get<0>(sess.run(tf::fetch(loss, step), tf::feed(x, xf)));
  const long before = typeflow_test::allocation_count();
  float last = first;
  for (int i = 0; i < 20; ++i) last = std::get<0>(sess.run(tf::fetch(loss, step), tf::feed(x, xf)));
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(last < first);
}
