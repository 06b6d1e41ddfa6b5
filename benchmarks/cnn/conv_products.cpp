// benchmarks/cnn/conv_products.cpp — what the CNN step's convolution products cost through
// cblas_sgemm (1 thread: run with OPENBLAS_NUM_THREADS=1), and what they would cost in a
// Winograd form, whose products are still sgemm calls: the bound that issue 15's 1.5x over
// PyTorch meets in the products alone, before any transform is paid for.
//
// The second convolution of examples/cnn/model.hpp (batch 32, 14x14x32 to 14x14x64, 3x3,
// SAME) in the three products of a training step, row-major as typeflow's tensors:
//   im2col          forward     [6272,288] x [288,64]
//                   filter      [288,6272] (columns transposed) x [6272,64]
//                   input       [6272,64] x [64,288] (kernel transposed)
//   Winograd F(2x2, 3x3): 4x4 tiles, 49 a picture, 16 products of each kind over 1568 tiles
//                   forward     [1568,32] x [32,64]   filter [32,1568] x [1568,64]
//                   input       [1568,64] x [64,32]
//   Winograd F(4x4, 3x3): 6x6 tiles, 16 a picture (14 padded to 16), 36 products of each kind
//                   over 512 tiles: [512,32] x [32,64], [32,512] x [512,64], [512,64] x [64,32]
// and the first convolution's two (28x28x1 to 28x28x32; its input needs no gradient):
//                   forward     [25088,9] x [9,32]    filter [9,25088] x [25088,32]
// Prints, per form, the products' milliseconds per training step (the median of REPS runs)
// and their GFLOP/s.
//
// `forward` times the second convolution's whole forward pass both ways, transforms
// included: im2col and its product, against F(4x4, 3x3)'s input transform, 36 products and
// output transform (loops over the channels, the 1-D transforms written out, no intrinsics;
// the filter's transform, over the output channels' rows, timed apart); and prints each
// one's largest error against the same convolution computed directly in double.
//
//   bench_cnn_conv_products [REPS]
//   bench_cnn_conv_products forward [REPS]
//   bench_cnn_conv_products input [REPS]
//   bench_cnn_conv_products filter [REPS]
//
// `input` times the second convolution's input gradient both ways: the columns' gradient
// (one product) and col2im, as typeflow's conv2d gradient, against the same F(4x4, 3x3)
// pass over the output's gradient with the kernel rotated and its channels swapped (the
// flipped kernel's transform timed apart), each against the gradient computed directly in
// double. `filter` times the filter's gradient both ways from what the forward pass leaves:
// the columns' product against F(4x4, 3x3)'s output-gradient transform, 36 products over the
// forward pass's transformed input and the transform back to 3x3 kernels.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <cblas.h>

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct product {
  CBLAS_TRANSPOSE ta, tb;
  int m, n, k;
  int count;  // how many such products a step makes
};

struct form {
  const char* name;
  std::vector<product> products;
};

/// One product's operands, uniform in [-1, 1]: op(A) is m x k, op(B) is k x n, row-major.
struct operands {
  product p;
  std::vector<float> a, b, c;
  operands(const product& q, std::mt19937& rng)
      : p(q), a(std::size_t(q.m) * q.k), b(std::size_t(q.k) * q.n), c(std::size_t(q.m) * q.n) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto& v : a) v = u(rng);
    for (auto& v : b) v = u(rng);
  }
  void call() {
    const int lda = p.ta == CblasNoTrans ? p.k : p.m, ldb = p.tb == CblasNoTrans ? p.n : p.k;
    cblas_sgemm(CblasRowMajor, p.ta, p.tb, p.m, p.n, p.k, 1.0f, a.data(), lda, b.data(), ldb, 0.0f, c.data(), p.n);
  }
};

/// CPU milliseconds of one step's products: each made `count` times, as a
/// step makes them (operands of the same size; the Winograd forms' 16 or 36 products each
/// have their own in a real step, which only adds cache misses).
double step_milliseconds(std::vector<operands>& ops) {
  const double c0 = cpu_seconds();
  for (auto& o : ops)
    for (int i = 0; i < o.p.count; ++i) o.call();
  return 1e3 * (cpu_seconds() - c0);
}


// --- the second convolution's forward pass, im2col against Winograd F(4x4, 3x3) -------------
constexpr int batch = 32, side = 14;
constexpr int tiles_per_side = 4, tiles = batch * tiles_per_side * tiles_per_side;  // 512

/// x [batch, side, side, in_ch] and w [3, 3, in_ch, out_ch] (HWIO), NHWC as typeflow's.
/// The forward pass is conv_data<32, 64>; the input's gradient, the same convolution of
/// the output's gradient by the flipped kernel, conv_data<64, 32>.
template <int InCh, int OutCh>
struct conv_data {
  static constexpr int in_ch = InCh, out_ch = OutCh;
  std::vector<float> x, w;
  explicit conv_data(std::mt19937& rng)
      : x(std::size_t(batch) * side * side * in_ch), w(std::size_t(9) * in_ch * out_ch) {
    std::normal_distribution<float> n(0.0f, 1.0f);
    for (auto& v : x) v = n(rng);
    for (auto& v : w) v = n(rng) * 0.06f;
  }
  conv_data(std::vector<float> x_, std::vector<float> w_) : x(std::move(x_)), w(std::move(w_)) {}
  float at(int b, int i, int j, int c) const {
    if (i < 0 || j < 0 || i >= side || j >= side) return 0.0f;
    return x[((std::size_t(b) * side + i) * side + j) * in_ch + c];
  }
};

/// The reference: the convolution in double, [batch, side, side, out_ch].
template <class D>
std::vector<double> direct(const D& d) {
  constexpr int in_ch = D::in_ch, out_ch = D::out_ch;
  std::vector<double> y(std::size_t(batch) * side * side * out_ch, 0.0);
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j)
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s)
            for (int c = 0; c < in_ch; ++c) {
              const double v = d.at(b, i + r - 1, j + s - 1, c);
              if (v == 0.0) continue;
              const float* wk = &d.w[((std::size_t(r) * 3 + s) * in_ch + c) * out_ch];
              double* yo = &y[((std::size_t(b) * side + i) * side + j) * out_ch];
              for (int k = 0; k < out_ch; ++k) yo[k] += v * wk[k];
            }
  return y;
}

/// im2col: columns [batch*side*side, 9*in_ch], then one product with w as [9*in_ch, out_ch].
void im2col_forward(const conv_data<32, 64>& d, std::vector<float>& cols, std::vector<float>& y) {
  constexpr int in_ch = 32, out_ch = 64;
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        float* row = &cols[((std::size_t(b) * side + i) * side + j) * 9 * in_ch];
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) {
            const int ii = i + r - 1, jj = j + s - 1;
            float* dst = row + (r * 3 + s) * in_ch;
            if (ii < 0 || jj < 0 || ii >= side || jj >= side)
              std::memset(dst, 0, sizeof(float) * in_ch);
            else
              std::memcpy(dst, &d.x[((std::size_t(b) * side + ii) * side + jj) * in_ch], sizeof(float) * in_ch);
          }
      }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch * side * side, out_ch, 9 * in_ch, 1.0f, cols.data(),
              9 * in_ch, d.w.data(), out_ch, 0.0f, y.data(), out_ch);
}

// F(4x4, 3x3) (Lavin and Gray): Y = A^T [(G g G^T) . (B^T d B)] A over 6x6 input tiles.
// B^T's rows are written out in winograd_forward's input transform, A^T's in its output
// transform: B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0;
// 0 4 0 -5 0 1], A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
constexpr float g6[6][3] = {{1.0f / 4, 0, 0},
                            {-1.0f / 6, -1.0f / 6, -1.0f / 6},
                            {-1.0f / 6, 1.0f / 6, -1.0f / 6},
                            {1.0f / 24, 1.0f / 12, 1.0f / 6},
                            {1.0f / 24, -1.0f / 12, 1.0f / 6},
                            {0, 0, 1}};

/// The filter's transform, U [36][in_ch][out_ch]: once per step, as the filter changes. For
/// each input channel, the 1-D transforms run over the output channels' contiguous rows
/// (g++ -O2 vectorizes them).
template <class D>
void winograd_filter(const D& d, std::vector<float>& u) {
  constexpr int in_ch = D::in_ch, out_ch = D::out_ch;
  for (int c = 0; c < in_ch; ++c) {
    float t[6][3][out_ch];  // G g
    for (int a = 0; a < 6; ++a)
      for (int s = 0; s < 3; ++s) {
        const float* g0 = &d.w[((std::size_t(0) * 3 + s) * in_ch + c) * out_ch];
        const float* g1 = &d.w[((std::size_t(1) * 3 + s) * in_ch + c) * out_ch];
        const float* g2 = &d.w[((std::size_t(2) * 3 + s) * in_ch + c) * out_ch];
        for (int k = 0; k < out_ch; ++k) t[a][s][k] = g6[a][0] * g0[k] + g6[a][1] * g1[k] + g6[a][2] * g2[k];
      }
    for (int a = 0; a < 6; ++a)
      for (int e = 0; e < 6; ++e) {
        float* dst = &u[((std::size_t(a) * 6 + e) * in_ch + c) * out_ch];
        for (int k = 0; k < out_ch; ++k) dst[k] = t[a][0][k] * g6[e][0] + t[a][1][k] * g6[e][1] + t[a][2][k] * g6[e][2];
      }
  }
}

/// Input transform into V [36][tiles][in_ch], 36 products into M [36][tiles][out_ch], output
/// transform into y [batch, side, side, out_ch].
template <class D>
void winograd_forward(const D& d, const std::vector<float>& u, std::vector<float>& v, std::vector<float>& m,
                      std::vector<float>& y) {
  constexpr int in_ch = D::in_ch, out_ch = D::out_ch;
  for (int b = 0; b < batch; ++b)
    for (int ty = 0; ty < tiles_per_side; ++ty)
      for (int tx = 0; tx < tiles_per_side; ++tx) {
        const int t = (b * tiles_per_side + ty) * tiles_per_side + tx;
        float tile[6][6][in_ch], tmp[6][6][in_ch];
        for (int i = 0; i < 6; ++i)
          for (int j = 0; j < 6; ++j) {
            const int ii = 4 * ty - 1 + i, jj = 4 * tx - 1 + j;
            if (ii < 0 || jj < 0 || ii >= side || jj >= side)
              std::memset(tile[i][j], 0, sizeof tile[i][j]);
            else
              std::memcpy(tile[i][j], &d.x[((std::size_t(b) * side + ii) * side + jj) * in_ch], sizeof tile[i][j]);
          }
        // tmp = B^T tile, then V = tmp B, each 1-D transform written out from B^T's rows.
        for (int j = 0; j < 6; ++j)
          for (int c = 0; c < in_ch; ++c) {
            const float d0 = tile[0][j][c], d1 = tile[1][j][c], d2 = tile[2][j][c], d3 = tile[3][j][c],
                        d4 = tile[4][j][c], d5 = tile[5][j][c];
            tmp[0][j][c] = 4 * d0 - 5 * d2 + d4;
            tmp[1][j][c] = -4 * (d1 + d2) + d3 + d4;
            tmp[2][j][c] = 4 * (d1 - d2) - d3 + d4;
            tmp[3][j][c] = 2 * (d3 - d1) - d2 + d4;
            tmp[4][j][c] = 2 * (d1 - d3) - d2 + d4;
            tmp[5][j][c] = 4 * d1 - 5 * d3 + d5;
          }
        for (int a = 0; a < 6; ++a) {
          float* dst[6];
          for (int e = 0; e < 6; ++e) dst[e] = &v[((std::size_t(a) * 6 + e) * tiles + t) * in_ch];
          for (int c = 0; c < in_ch; ++c) {
            const float d0 = tmp[a][0][c], d1 = tmp[a][1][c], d2 = tmp[a][2][c], d3 = tmp[a][3][c],
                        d4 = tmp[a][4][c], d5 = tmp[a][5][c];
            dst[0][c] = 4 * d0 - 5 * d2 + d4;
            dst[1][c] = -4 * (d1 + d2) + d3 + d4;
            dst[2][c] = 4 * (d1 - d2) - d3 + d4;
            dst[3][c] = 2 * (d3 - d1) - d2 + d4;
            dst[4][c] = 2 * (d1 - d3) - d2 + d4;
            dst[5][c] = 4 * d1 - 5 * d3 + d5;
          }
        }
      }
  for (int e = 0; e < 36; ++e)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, tiles, out_ch, in_ch, 1.0f,
                &v[std::size_t(e) * tiles * in_ch], in_ch, &u[std::size_t(e) * in_ch * out_ch], out_ch, 0.0f,
                &m[std::size_t(e) * tiles * out_ch], out_ch);
  for (int b = 0; b < batch; ++b)
    for (int ty = 0; ty < tiles_per_side; ++ty)
      for (int tx = 0; tx < tiles_per_side; ++tx) {
        const int t = (b * tiles_per_side + ty) * tiles_per_side + tx;
        float tmp[4][6][out_ch];
        // tmp = A^T M, then y = tmp A, each 1-D transform written out from A^T's rows.
        for (int e = 0; e < 6; ++e) {
          const float* src[6];
          for (int i = 0; i < 6; ++i) src[i] = &m[((std::size_t(i) * 6 + e) * tiles + t) * out_ch];
          for (int k = 0; k < out_ch; ++k) {
            const float m0 = src[0][k], m1 = src[1][k], m2 = src[2][k], m3 = src[3][k], m4 = src[4][k],
                        m5 = src[5][k];
            const float p12 = m1 + m2, n12 = m1 - m2, p34 = m3 + m4, n34 = m3 - m4;
            tmp[0][e][k] = m0 + p12 + p34;
            tmp[1][e][k] = n12 + 2 * n34;
            tmp[2][e][k] = p12 + 4 * p34;
            tmp[3][e][k] = n12 + 8 * n34 + m5;
          }
        }
        for (int a = 0; a < 4; ++a) {
          const int i = 4 * ty + a;
          if (i >= side) continue;
          float out[4][out_ch];
          for (int k = 0; k < out_ch; ++k) {
            const float m0 = tmp[a][0][k], m1 = tmp[a][1][k], m2 = tmp[a][2][k], m3 = tmp[a][3][k],
                        m4 = tmp[a][4][k], m5 = tmp[a][5][k];
            const float p12 = m1 + m2, n12 = m1 - m2, p34 = m3 + m4, n34 = m3 - m4;
            out[0][k] = m0 + p12 + p34;
            out[1][k] = n12 + 2 * n34;
            out[2][k] = p12 + 4 * p34;
            out[3][k] = n12 + 8 * n34 + m5;
          }
          for (int q = 0; q < 4; ++q) {
            const int j = 4 * tx + q;
            if (j < side) std::memcpy(&y[((std::size_t(b) * side + i) * side + j) * out_ch], out[q], sizeof out[q]);
          }
        }
      }
}

double largest_error(const std::vector<float>& y, const std::vector<double>& ref) {
  double worst = 0;
  for (std::size_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::abs(double(y[i]) - ref[i]));
  return worst;
}

/// The largest magnitude of a reference's values (the scale its errors are read against).
double largest_magnitude(const std::vector<double>& ref) {
  double scale = 0;
  for (double r : ref) scale = std::max(scale, std::abs(r));
  return scale;
}

/// A Winograd pass's transformed filter U [36][In][Out], input V [36][tiles][In] and
/// products M [36][tiles][Out].
template <int In, int Out>
struct winograd_work {
  std::vector<float> u = std::vector<float>(std::size_t(36) * In * Out);
  std::vector<float> v = std::vector<float>(std::size_t(36) * tiles * In);
  std::vector<float> m = std::vector<float>(std::size_t(36) * tiles * Out);
};

/// The median CPU milliseconds of f over `reps` runs of 10 calls each, after 3 calls.
template <class F>
double median_milliseconds(int reps, F f) {
  for (int w = 0; w < 3; ++w) f();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const double c0 = cpu_seconds();
    for (int s = 0; s < 10; ++s) f();
    ms.push_back(1e3 * (cpu_seconds() - c0) / 10);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Prints one pass's two forms: im2col's and F(4x4, 3x3)'s times and largest errors.
void report(const char* pass, const char* im2col_form, double t_im2col, double im2col_error, double scale,
            const char* filter, double t_winograd, double t_filter, double winograd_error) {
  std::printf("%s, %s: %7.3f ms, largest error %.2e (values up to %.1f)\n", pass, im2col_form, t_im2col,
              im2col_error, scale);
  std::printf("%s, Winograd F(4x4,3x3), transforms and 36 products: %7.3f ms (+ %s transform %.3f ms), "
              "largest error %.2e\n",
              pass, t_winograd, filter, t_filter, winograd_error);
}

int forward(int reps) {
  constexpr int in_ch = 32, out_ch = 64;
  std::mt19937 rng(13);
  const conv_data<in_ch, out_ch> d(rng);
  const std::vector<double> ref = direct(d);
  const double scale = largest_magnitude(ref);
  std::vector<float> cols(std::size_t(batch) * side * side * 9 * in_ch), y1(ref.size()), y2(ref.size());
  winograd_work<in_ch, out_ch> w;
  const double t_im2col = median_milliseconds(reps, [&] { im2col_forward(d, cols, y1); });
  const double t_filter = median_milliseconds(reps, [&] { winograd_filter(d, w.u); });
  const double t_winograd = median_milliseconds(reps, [&] { winograd_forward(d, w.u, w.v, w.m, y2); });
  report("forward", "im2col and product", t_im2col, largest_error(y1, ref), scale, "filter", t_winograd, t_filter,
         largest_error(y2, ref));
  return 0;
}

// --- the second convolution's input gradient, im2col against Winograd F(4x4, 3x3) ----------

/// As typeflow's conv2d gradient computes it: the columns' gradient dcols = dy w^T
/// ([6272,64] x [64,288]), then col2im adds each column back to the pixel it came from.
void im2col_input_gradient(const std::vector<float>& w, const std::vector<float>& dy, std::vector<float>& dcols,
                           std::vector<float>& dx) {
  constexpr int in_ch = 32, out_ch = 64;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch * side * side, 9 * in_ch, out_ch, 1.0f, dy.data(), out_ch,
              w.data(), out_ch, 0.0f, dcols.data(), 9 * in_ch);
  std::fill(dx.begin(), dx.end(), 0.0f);
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        const float* row = &dcols[((std::size_t(b) * side + i) * side + j) * 9 * in_ch];
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) {
            const int ii = i + r - 1, jj = j + s - 1;
            if (ii < 0 || jj < 0 || ii >= side || jj >= side) continue;
            float* dst = &dx[((std::size_t(b) * side + ii) * side + jj) * in_ch];
            const float* src = row + (r * 3 + s) * in_ch;
            for (int c = 0; c < in_ch; ++c) dst[c] += src[c];
          }
      }
}

/// The kernel of the input's gradient: w [3,3,32,64] rotated by 180 degrees, its channels
/// swapped, [3,3,64,32]: dx = conv(dy, flipped(w)), SAME, stride 1.
std::vector<float> flipped(const std::vector<float>& w) {
  constexpr int in_ch = 32, out_ch = 64;
  std::vector<float> f(w.size());
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s)
      for (int c = 0; c < in_ch; ++c)
        for (int k = 0; k < out_ch; ++k)
          f[((std::size_t(r) * 3 + s) * out_ch + k) * in_ch + c] = w[((std::size_t(2 - r) * 3 + (2 - s)) * in_ch + c) * out_ch + k];
  return f;
}

int input_gradient(int reps) {
  constexpr int in_ch = 32, out_ch = 64;
  std::mt19937 rng(17);
  const conv_data<in_ch, out_ch> d(rng);  // its w; x is not read by the input's gradient
  std::vector<float> dy(std::size_t(batch) * side * side * out_ch);
  std::normal_distribution<float> n(0.0f, 1.0f);
  for (auto& v : dy) v = n(rng);
  const conv_data<out_ch, in_ch> g(dy, flipped(d.w));
  const std::vector<double> ref = direct(g);
  const double scale = largest_magnitude(ref);
  std::vector<float> dcols(std::size_t(batch) * side * side * 9 * in_ch), dx1(ref.size()), dx2(ref.size());
  winograd_work<out_ch, in_ch> w;
  const double t_im2col = median_milliseconds(reps, [&] { im2col_input_gradient(d.w, dy, dcols, dx1); });
  const double t_filter = median_milliseconds(reps, [&] {
    const conv_data<out_ch, in_ch> kernel_only({}, flipped(d.w));
    winograd_filter(kernel_only, w.u);
  });
  const double t_winograd = median_milliseconds(reps, [&] { winograd_forward(g, w.u, w.v, w.m, dx2); });
  report("input gradient", "product and col2im", t_im2col, largest_error(dx1, ref), scale, "flipped filter",
         t_winograd, t_filter, largest_error(dx2, ref));
  return 0;
}


// --- the second convolution's filter gradient, im2col against Winograd F(4x4, 3x3) ---------

/// The filter's gradient in double: dw[r][s][c][k] = sum over the pixels of x . dy.
std::vector<double> direct_filter_gradient(const conv_data<32, 64>& d, const std::vector<float>& dy) {
  constexpr int in_ch = 32, out_ch = 64;
  std::vector<double> dw(std::size_t(9) * in_ch * out_ch, 0.0);
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        const float* g = &dy[((std::size_t(b) * side + i) * side + j) * out_ch];
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s)
            for (int c = 0; c < in_ch; ++c) {
              const double v = d.at(b, i + r - 1, j + s - 1, c);
              if (v == 0.0) continue;
              double* o = &dw[((std::size_t(r) * 3 + s) * in_ch + c) * out_ch];
              for (int k = 0; k < out_ch; ++k) o[k] += v * g[k];
            }
      }
  return dw;
}

/// The filter's gradient from the forward pass's input transform V [36][tiles][32]: the
/// output gradient's tiles transformed (dM = A dY A^T, 4x4 to 6x6, zero past the picture's
/// edge), 36 products dU[e] = V[e]^T dM[e] ([32,512] x [512,64]), then dw = G^T dU G.
void winograd_filter_gradient(const std::vector<float>& v, const std::vector<float>& dy, std::vector<float>& dm,
                              std::vector<float>& du, std::vector<float>& dw) {
  constexpr int in_ch = 32, out_ch = 64;
  for (int b = 0; b < batch; ++b)
    for (int ty = 0; ty < tiles_per_side; ++ty)
      for (int tx = 0; tx < tiles_per_side; ++tx) {
        const int t = (b * tiles_per_side + ty) * tiles_per_side + tx;
        float tile[4][4][out_ch], tmp[6][4][out_ch];
        for (int p = 0; p < 4; ++p)
          for (int q = 0; q < 4; ++q) {
            const int i = 4 * ty + p, j = 4 * tx + q;
            if (i >= side || j >= side)
              std::memset(tile[p][q], 0, sizeof tile[p][q]);
            else
              std::memcpy(tile[p][q], &dy[((std::size_t(b) * side + i) * side + j) * out_ch], sizeof tile[p][q]);
          }
        // z = A y for each column, then for each row: A's rows are A^T's columns.
        for (int q = 0; q < 4; ++q)
          for (int k = 0; k < out_ch; ++k) {
            const float y0 = tile[0][q][k], y1 = tile[1][q][k], y2 = tile[2][q][k], y3 = tile[3][q][k];
            const float p02 = y0 + y2, p13 = y1 + y3, f02 = y0 + 4 * y2, f13 = 2 * y1 + 8 * y3;
            tmp[0][q][k] = y0;
            tmp[1][q][k] = p02 + p13;
            tmp[2][q][k] = p02 - p13;
            tmp[3][q][k] = f02 + f13;
            tmp[4][q][k] = f02 - f13;
            tmp[5][q][k] = y3;
          }
        for (int i = 0; i < 6; ++i) {
          float* dst[6];
          for (int e = 0; e < 6; ++e) dst[e] = &dm[((std::size_t(i) * 6 + e) * tiles + t) * out_ch];
          for (int k = 0; k < out_ch; ++k) {
            const float y0 = tmp[i][0][k], y1 = tmp[i][1][k], y2 = tmp[i][2][k], y3 = tmp[i][3][k];
            const float p02 = y0 + y2, p13 = y1 + y3, f02 = y0 + 4 * y2, f13 = 2 * y1 + 8 * y3;
            dst[0][k] = y0;
            dst[1][k] = p02 + p13;
            dst[2][k] = p02 - p13;
            dst[3][k] = f02 + f13;
            dst[4][k] = f02 - f13;
            dst[5][k] = y3;
          }
        }
      }
  for (int e = 0; e < 36; ++e)
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, in_ch, out_ch, tiles, 1.0f,
                &v[std::size_t(e) * tiles * in_ch], in_ch, &dm[std::size_t(e) * tiles * out_ch], out_ch, 0.0f,
                &du[std::size_t(e) * in_ch * out_ch], out_ch);
  for (int c = 0; c < in_ch; ++c) {
    float t[3][6][out_ch] = {};  // G^T dU, then (G^T dU) G, over the output channels' rows
    for (int a = 0; a < 6; ++a)
      for (int e = 0; e < 6; ++e) {
        const float* src = &du[((std::size_t(a) * 6 + e) * in_ch + c) * out_ch];
        for (int r = 0; r < 3; ++r)
          for (int k = 0; k < out_ch; ++k) t[r][e][k] += g6[a][r] * src[k];
      }
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s) {
        float* dst = &dw[((std::size_t(r) * 3 + s) * in_ch + c) * out_ch];
        for (int k = 0; k < out_ch; ++k) {
          float sum = 0;
          for (int e = 0; e < 6; ++e) sum += t[r][e][k] * g6[e][s];
          dst[k] = sum;
        }
      }
  }
}

int filter_gradient(int reps) {
  constexpr int in_ch = 32, out_ch = 64;
  std::mt19937 rng(19);
  const conv_data<in_ch, out_ch> d(rng);
  std::vector<float> dy(std::size_t(batch) * side * side * out_ch);
  std::normal_distribution<float> n(0.0f, 1.0f);
  for (auto& x : dy) x = n(rng);
  const std::vector<double> ref = direct_filter_gradient(d, dy);
  const double scale = largest_magnitude(ref);
  // What the forward pass leaves: im2col's columns, and the Winograd form's V.
  std::vector<float> cols(std::size_t(batch) * side * side * 9 * in_ch), y(std::size_t(batch) * side * side * out_ch);
  winograd_work<in_ch, out_ch> w;
  im2col_forward(d, cols, y);
  winograd_filter(d, w.u);
  winograd_forward(d, w.u, w.v, w.m, y);
  std::vector<float> dw1(ref.size()), dw2(ref.size()), du(std::size_t(36) * in_ch * out_ch);
  const double t_im2col = median_milliseconds(reps, [&] {
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, 9 * in_ch, out_ch, batch * side * side, 1.0f, cols.data(),
                9 * in_ch, dy.data(), out_ch, 0.0f, dw1.data(), out_ch);
  });
  const double t_winograd = median_milliseconds(reps, [&] { winograd_filter_gradient(w.v, dy, w.m, du, dw2); });
  std::printf("filter gradient, the columns' product (the forward pass's columns): %7.3f ms, largest error %.2e "
              "(values up to %.1f)\n",
              t_im2col, largest_error(dw1, ref), scale);
  std::printf("filter gradient, Winograd F(4x4,3x3) (the forward pass's V): output gradient's transform, 36 products, "
              "filter transform: %7.3f ms, largest error %.2e\n",
              t_winograd, largest_error(dw2, ref));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "forward") return forward(argc > 2 ? std::atoi(argv[2]) : 9);
  if (argc > 1 && std::string(argv[1]) == "input") return input_gradient(argc > 2 ? std::atoi(argv[2]) : 9);
  if (argc > 1 && std::string(argv[1]) == "filter") return filter_gradient(argc > 2 ? std::atoi(argv[2]) : 9);
  const int reps = argc > 1 ? std::atoi(argv[1]) : 9;
  const form forms[] = {
      {"conv2 im2col",
       {{CblasNoTrans, CblasNoTrans, 6272, 64, 288, 1},
        {CblasTrans, CblasNoTrans, 288, 64, 6272, 1},
        {CblasNoTrans, CblasTrans, 6272, 288, 64, 1}}},
      {"conv2 Winograd F(2x2,3x3)",
       {{CblasNoTrans, CblasNoTrans, 1568, 64, 32, 16},
        {CblasTrans, CblasNoTrans, 32, 64, 1568, 16},
        {CblasNoTrans, CblasTrans, 1568, 32, 64, 16}}},
      {"conv2 Winograd F(4x4,3x3)",
       {{CblasNoTrans, CblasNoTrans, 512, 64, 32, 36},
        {CblasTrans, CblasNoTrans, 32, 64, 512, 36},
        {CblasNoTrans, CblasTrans, 512, 32, 64, 36}}},
      {"conv1 im2col", {{CblasNoTrans, CblasNoTrans, 25088, 32, 9, 1}, {CblasTrans, CblasNoTrans, 9, 32, 25088, 1}}},
  };
  std::mt19937 rng(11);
  for (const auto& f : forms) {
    std::vector<operands> ops;
    double flops = 0;
    for (const auto& p : f.products) {
      ops.emplace_back(p, rng);
      flops += 2.0 * p.m * p.n * p.k * p.count;
    }
    for (int w = 0; w < 3; ++w) step_milliseconds(ops);  // warm up
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
      double sum = 0;
      for (int s = 0; s < 10; ++s) sum += step_milliseconds(ops);
      ms.push_back(sum / 10);
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    std::printf("%-28s %7.1f MFLOP a step: %7.3f ms a step (median of %d), %6.1f GFLOP/s\n", f.name, flops / 1e6, median,
                reps, flops / median / 1e6);
  }
  return 0;
}
