// conv2d and its two gradients in Winograd's F(4x4, 3x3) form (ops/detail/conv_winograd.hpp)
// against the convolution's definition computed in double (for the largest, im2col in
// double, as conv_kernels.hpp computes other convolutions): where the form applies (3x3,
// stride 1, at least 16 channels each way), over SAME and VALID, sizes that cut the last
// tiles, odd channel counts, several chunks of images, and the filter's gradient with and
// without the forward pass's kept V. The gradients' rules through a graph are checked
// against finite differences in conv_gradient_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include <typeflow/typeflow.hpp>

namespace d = typeflow::ops::detail;

namespace {

/// A 3x3 stride-1 convolution's geometry: SAME (pad 1) or VALID (pad 0).
d::conv_geometry geometry(std::size_t n, std::size_t h, std::size_t w, std::size_t c, std::size_t o, bool same) {
  const std::size_t oh = same ? h : h - 2, ow = same ? w : w - 2;
  const std::ptrdiff_t pad = same ? 1 : 0;
  return {n, h, w, c, 3, 3, o, oh, ow, 1, 1, 1, 1, pad, pad};
}

template <class T>
std::vector<T> uniform(std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(size);
  for (auto& e : v) e = T(u(rng));
  return v;
}

/// Calls f(x index, filter index, y index) for every tap of the convolution inside the image.
template <class F>
void for_each_tap(const d::conv_geometry& g, F&& f) {
  for (std::size_t b = 0; b < g.n; ++b)
    for (std::size_t oh = 0; oh < g.oh; ++oh)
      for (std::size_t ow = 0; ow < g.ow; ++ow)
        for (std::size_t i = 0; i < 3; ++i)
          for (std::size_t j = 0; j < 3; ++j) {
            const auto ih = std::ptrdiff_t(oh + i) - g.pad_top, iw = std::ptrdiff_t(ow + j) - g.pad_left;
            if (ih < 0 || iw < 0 || ih >= std::ptrdiff_t(g.h) || iw >= std::ptrdiff_t(g.w)) continue;
            f(((b * g.h + std::size_t(ih)) * g.w + std::size_t(iw)) * g.c, (i * 3 + j) * g.c * g.o,
              ((b * g.oh + oh) * g.ow + ow) * g.o);
          }
}

/// The largest difference from the reference, as a share of the reference's largest value.
template <class T>
double relative_error(const std::vector<T>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, std::abs(double(got[i]) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  REQUIRE(scale > 0);
  return worst / scale;
}

/// The three passes' exact values: y, dx and df of x, f and dy, in double.
struct references {
  std::vector<double> y, dx, df;
};

/// By the convolution's definition, tap by tap.
template <class T>
references by_definition(const d::conv_geometry& g, const std::vector<T>& x, const std::vector<T>& f,
                         const std::vector<T>& dy) {
  references r{std::vector<double>(dy.size(), 0.0), std::vector<double>(x.size(), 0.0),
               std::vector<double>(f.size(), 0.0)};
  for_each_tap(g, [&](std::size_t xi, std::size_t fi, std::size_t yi) {
    for (std::size_t c = 0; c < g.c; ++c)
      for (std::size_t o = 0; o < g.o; ++o) {
        const double w = double(f[fi + c * g.o + o]);
        r.y[yi + o] += double(x[xi + c]) * w;
        r.dx[xi + c] += double(dy[yi + o]) * w;
        r.df[fi + c * g.o + o] += double(x[xi + c]) * double(dy[yi + o]);
      }
  });
  return r;
}

/// By im2col, col2im and dgemm (conv_kernels.hpp's other form, its products in OpenBLAS):
/// for the sizes whose definition loops would take seconds in the sanitized build.
template <class T>
references by_columns(const d::conv_geometry& g, const std::vector<T>& x, const std::vector<T>& f,
                      const std::vector<T>& dy) {
  const std::vector<double> xd(x.begin(), x.end()), fd(f.begin(), f.end()), dyd(dy.begin(), dy.end());
  const std::size_t rows = g.n * g.positions(), k = g.k();
  std::vector<double> col(rows * k);
  references r{std::vector<double>(dy.size()), std::vector<double>(x.size()), std::vector<double>(f.size())};
  d::im2col(g, xd.data(), g.n, col.data());
  d::gemm<double>(false, false, rows, g.o, k, 1.0, col.data(), k, fd.data(), g.o, 0.0, r.y.data(), g.o);
  d::gemm<double>(true, false, k, g.o, rows, 1.0, col.data(), k, dyd.data(), g.o, 0.0, r.df.data(), g.o);
  d::gemm<double>(false, true, rows, k, g.o, 1.0, dyd.data(), g.o, fd.data(), g.o, 0.0, col.data(), k);
  d::col2im(g, col.data(), g.n, r.dx.data());
  return r;
}

/// Forward, input gradient, and filter gradient (from the kept V, then after x changed in
/// place, from V made again) against their exact values.
template <class T>
void check_winograd(const d::conv_geometry& g, double tolerance, bool large = false) {
  REQUIRE(d::conv_winograd<T>(g));
  const auto x = uniform<T>(g.input_size(), 1), f = uniform<T>(9 * g.c * g.o, 2);
  const auto dy = uniform<T>(g.n * g.positions() * g.o, 3);
  const auto reference = [&](const std::vector<T>& input) {
    return large ? by_columns(g, input, f, dy) : by_definition(g, input, f, dy);
  };
  const references ref = reference(x);
  std::vector<T> y(dy.size()), dx(x.size()), df(f.size());
  auto& cache = d::conv_columns_cache<T>::local();
  d::conv2d_forward(g, x.data(), f.data(), y.data());
  CHECK(relative_error(y, ref.y) < tolerance);
  CHECK((cache.find(g, x.data(), d::conv_form::winograd) != nullptr) ==
        d::conv_columns_cache<T>::fits(g, d::conv_form::winograd));
  CHECK(cache.find(g, x.data(), d::conv_form::columns) == nullptr);  // im2col's columns were not made
  d::conv2d_backprop_input(g, f.data(), dy.data(), dx.data());
  CHECK(relative_error(dx, ref.dx) < tolerance);
  d::conv2d_backprop_filter(g, x.data(), dy.data(), df.data());
  CHECK(relative_error(df, ref.df) < tolerance);

  // x changed in place: the kept V is not x's any more; the gradient makes its own.
  auto x2 = x;
  x2[x2.size() / 2] += T(0.5);
  CHECK(cache.find(g, x2.data(), d::conv_form::winograd) == nullptr);
  d::conv2d_backprop_filter(g, x2.data(), dy.data(), df.data());
  CHECK(relative_error(df, reference(x2).df) < tolerance);
}

}  // namespace

TEST_CASE("Winograd's form applies to 3x3 filters at stride 1 with 16 or more channels each way, floating point") {
  CHECK(d::conv_winograd<float>(geometry(2, 14, 14, 32, 64, true)));
  CHECK(d::conv_winograd<double>(geometry(1, 5, 5, 16, 16, false)));
  CHECK_FALSE(d::conv_winograd<float>(geometry(2, 28, 28, 1, 32, true)));  // the CNN's first convolution
  CHECK_FALSE(d::conv_winograd<float>(geometry(2, 14, 14, 32, 8, true)));
  CHECK_FALSE(d::conv_winograd<int>(geometry(2, 14, 14, 32, 64, true)));
  auto strided = geometry(2, 14, 14, 32, 64, true);
  strided.sh = 2, strided.oh = 7;
  CHECK_FALSE(d::conv_winograd<float>(strided));
  auto dilated = geometry(2, 14, 14, 32, 64, false);
  dilated.dw = 2, dilated.ow = 10;
  CHECK_FALSE(d::conv_winograd<float>(dilated));
  auto empty = geometry(0, 14, 14, 32, 64, true);
  CHECK_FALSE(d::conv_winograd<float>(empty));
}

TEST_CASE("Winograd F(4x4, 3x3): the CNN's second convolution (SAME, 14x14, 32 to 64 channels)") {
  check_winograd<float>(geometry(2, 14, 14, 32, 64, true), 2e-5);
}

TEST_CASE("Winograd F(4x4, 3x3): VALID over 9x11 (the last tiles cut), odd channel counts") {
  check_winograd<float>(geometry(3, 9, 11, 17, 23, false), 2e-5);
  check_winograd<float>(geometry(2, 5, 6, 16, 19, true), 2e-5);
  check_winograd<float>(geometry(1, 3, 3, 16, 16, false), 2e-5);  // one output position, one tile
}

TEST_CASE("Winograd F(4x4, 3x3) in double is as exact as the definition") {
  check_winograd<double>(geometry(2, 7, 10, 16, 20, true), 1e-12);
  check_winograd<double>(geometry(2, 6, 9, 18, 16, false), 1e-12);
}

TEST_CASE("Winograd F(4x4, 3x3) over several chunks of images, V kept and not") {
  // 48x48 with 16 channels each way: 144 tiles an image, 3 images a chunk (2^19 elements of
  // V and M). 13 images: five chunks, V of all 13 kept (1.1M elements, each chunk's tiles
  // at their offset); 26 images: V too large to keep (2.2M against 2^21), nine chunks in
  // every pass.
  const auto kept = geometry(13, 48, 48, 16, 16, true), unkept = geometry(26, 48, 48, 16, 16, true);
  REQUIRE(d::winograd_chunk(kept) == 3);
  REQUIRE(d::conv_columns_cache<float>::fits(kept, d::conv_form::winograd));
  REQUIRE_FALSE(d::conv_columns_cache<float>::fits(unkept, d::conv_form::winograd));
  check_winograd<float>(kept, 2e-5, true);
  check_winograd<float>(unkept, 2e-5, true);
}
