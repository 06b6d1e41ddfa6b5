// Issue 15: the bar for the CNN's epoch. The Fashion-MNIST CNN of cnn_pytorch.py (and of
// examples/cnn_fashion_mnist.cpp) written by hand on OpenBLAS, NHWC as TensorFlow:
//
//   conv 3x3 32 (SAME) + bias, ReLU, max pool 2x2/2
//   conv 3x3 64 (SAME) + bias, batch normalization (batch statistics, moving averages with
//       momentum 0.9, epsilon 1e-3), ReLU, max pool 2x2/2
//   flatten, dropout (rate 0.25), dense 10, softmax cross-entropy, Adam (1e-3)
//
// Each convolution is im2col + one cblas_sgemm forward; backward, the filter's gradient is
// one sgemm over the same columns and the input's gradient one sgemm into columns folded
// back by col2im (the first layer's input gradient is not needed and not computed). Pooling,
// batch normalization, ReLU, dropout and the loss are plain loops; every buffer is allocated
// once. Same data, epoch order (training_bench::permutation) and initializers (Glorot-uniform
// kernels, zero biases) as the other implementations. Prints one line of JSON.
//
//   bench_cnn_handwritten [epochs] [steps]     (threads: OPENBLAS_NUM_THREADS)
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../training/common.hpp"
#include "data/fashion_mnist.hpp"

namespace {

constexpr int batch = 32, side = 28, c0 = 1, c1 = 32, c2 = 64, classes = 10, taps = 9;
constexpr int side2 = side / 2, side4 = side / 4, flat = side4 * side4 * c2;
constexpr float momentum = 0.9f, epsilon = 1e-3f, rate = 0.25f;

using buffer = std::vector<float>;

// col[(b, y, x), (ky, kx, c)] = in[b, y + ky - 1, x + kx - 1, c], zero outside: a 3x3 SAME
// convolution's patches of [n, s, s, C], one row per output position.
template <int C>
void im2col(const float* __restrict in, int n, int s, float* __restrict col) {
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < s; ++y)
      for (int x = 0; x < s; ++x) {
        float* __restrict row = col + ((std::size_t(b) * s + y) * s + x) * taps * C;
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx, row += C) {
            const int iy = y + ky - 1, ix = x + kx - 1;
            if (iy >= 0 && iy < s && ix >= 0 && ix < s) {
              const float* __restrict src = in + ((std::size_t(b) * s + iy) * s + ix) * C;
              for (int k = 0; k < C; ++k) row[k] = src[k];
            } else {
              for (int k = 0; k < C; ++k) row[k] = 0.f;
            }
          }
      }
}

// The adjoint of im2col, as a gather (each input gradient written once, no zeroing pass):
// in[b, y, x, c] = sum over (ky, kx) of col[(b, y - ky + 1, x - kx + 1), (ky, kx, c)].
template <int C>
void col2im(const float* __restrict col, int n, int s, float* __restrict in) {
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < s; ++y)
      for (int x = 0; x < s; ++x) {
        float acc[C] = {};
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            const int oy = y - ky + 1, ox = x - kx + 1;
            if (oy < 0 || oy >= s || ox < 0 || ox >= s) continue;
            const float* __restrict row = col + ((std::size_t(b) * s + oy) * s + ox) * taps * C + (ky * 3 + kx) * C;
            for (int k = 0; k < C; ++k) acc[k] += row[k];
          }
        std::copy_n(acc, C, in + ((std::size_t(b) * s + y) * s + x) * C);
      }
}

// 2x2/2 max pool of [n, s, s, C]; arg holds each window's position (0-3) of its maximum,
// the first in row-major order on ties, as TensorFlow.
template <int C>
void max_pool(const float* __restrict in, int n, int s, float* __restrict out, std::uint8_t* __restrict arg) {
  const int h = s / 2;
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < h; ++x) {
        const float* r0 = in + ((std::size_t(b) * s + 2 * y) * s + 2 * x) * C;
        const float* r1 = r0 + std::size_t(s) * C;
        const std::size_t o = ((std::size_t(b) * h + y) * h + x) * C;
        for (int k = 0; k < C; ++k) {
          const float v[4] = {r0[k], r0[C + k], r1[k], r1[C + k]};
          int best = 0;
          for (int i = 1; i < 4; ++i) best = v[i] > v[best] ? i : best;
          out[o + k] = v[best];
          arg[o + k] = std::uint8_t(best);
        }
      }
}

// The gradient of relu followed by max_pool: each window's maximum gets the pooled gradient
// where the ReLU's output was positive; every input gradient is written (no zeroing pass).
template <int C>
void max_pool_relu_grad(const float* __restrict g, const std::uint8_t* __restrict arg, const float* __restrict pooled,
                        int n, int s, float* __restrict d) {
  const int h = s / 2;
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < h; ++x) {
        const std::size_t o = ((std::size_t(b) * h + y) * h + x) * C;
        float* d0 = d + ((std::size_t(b) * s + 2 * y) * s + 2 * x) * C;
        float* d1 = d0 + std::size_t(s) * C;
        for (int k = 0; k < C; ++k) {
          const float v = pooled[o + k] > 0.f ? g[o + k] : 0.f;
          const int a = arg[o + k];
          d0[k] = a == 0 ? v : 0.f;
          d0[C + k] = a == 1 ? v : 0.f;
          d1[k] = a == 2 ? v : 0.f;
          d1[C + k] = a == 3 ? v : 0.f;
        }
      }
}

struct adam_slot {
  buffer m, v;
  explicit adam_slot(std::size_t n) : m(n, 0.f), v(n, 0.f) {}
};

struct adam {
  float lr = 1e-3f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
  int t = 0;
  float alpha = 0;
  void next_step() {
    ++t;
    alpha = lr * std::sqrt(1 - std::pow(b2, float(t))) / (1 - std::pow(b1, float(t)));
  }
  // TensorFlow's Adam: m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2, w -= alpha m / (sqrt(v) + eps).
  void apply(buffer& w, const buffer& g, adam_slot& s) const {
    float* __restrict pw = w.data();
    float* __restrict pm = s.m.data();
    float* __restrict pv = s.v.data();
    const float* __restrict pg = g.data();
    for (std::size_t i = 0; i < w.size(); ++i) {
      pm[i] = b1 * pm[i] + (1 - b1) * pg[i];
      pv[i] = b2 * pv[i] + (1 - b2) * pg[i] * pg[i];
      pw[i] -= alpha * pm[i] / (std::sqrt(pv[i]) + eps);
    }
  }
};

struct cnn {
  buffer w1 = training_bench::glorot_uniform(taps * c0, c1, 1), b1 = buffer(c1, 0.f);
  buffer w2 = training_bench::glorot_uniform(taps * c1, c2, 2), b2 = buffer(c2, 0.f);
  buffer gamma = buffer(c2, 1.f), beta = buffer(c2, 0.f);
  buffer moving_mean = buffer(c2, 0.f), moving_var = buffer(c2, 1.f);
  buffer w3 = training_bench::glorot_uniform(flat, classes, 3), b3 = buffer(classes, 0.f);
};

// out[i, :] = out[i, :] + bias, then max(., 0) when Relu, for rows of C.
template <int C, bool Relu>
void add_bias(float* __restrict out, const float* __restrict bias, std::size_t rows) {
  for (std::size_t i = 0; i < rows; ++i)
    for (int j = 0; j < C; ++j) {
      const float v = out[i * C + j] + bias[j];
      out[i * C + j] = Relu && v < 0.f ? 0.f : v;
    }
}

// Column sums of [rows, C].
template <int C>
void column_sums(const float* __restrict d, std::size_t rows, float* __restrict out) {
  float acc[C] = {};
  for (std::size_t i = 0; i < rows; ++i)
    for (int j = 0; j < C; ++j) acc[j] += d[i * C + j];
  std::copy_n(acc, C, out);
}

/// One training step's buffers and passes, or the inference pass (no dropout, moving
/// statistics) over any number of rows.
struct workspace {
  int n;
  buffer x, col1, a1, p1, col2, z2, xhat, r2, p2, drop, logits;
  std::vector<std::uint8_t> arg1, arg2;
  buffer mask;  // dropout: 0 or 1 / (1 - rate) per feature
  buffer dlogits, dflat, dr2, dcol2, dp1, da1;
  buffer gw1, gb1, gw2, gb2, ggamma, gbeta, gw3, gb3;
  float mean[c2], inv_std[c2];
  training_bench::splitmix64 rng{99};

  explicit workspace(int rows)
      : n(rows), x(std::size_t(n) * side * side), col1(std::size_t(n) * side * side * taps * c0),
        a1(std::size_t(n) * side * side * c1), p1(std::size_t(n) * side2 * side2 * c1),
        col2(std::size_t(n) * side2 * side2 * taps * c1), z2(std::size_t(n) * side2 * side2 * c2),
        xhat(z2.size()), r2(z2.size()), p2(std::size_t(n) * flat), drop(p2.size()), logits(std::size_t(n) * classes),
        arg1(p1.size()), arg2(p2.size()), mask(p2.size()), dlogits(logits.size()), dflat(p2.size()), dr2(z2.size()),
        dcol2(col2.size()), dp1(p1.size()), da1(a1.size()), gw1(taps * c0 * c1), gb1(c1), gw2(taps * c1 * c2),
        gb2(c2), ggamma(c2), gbeta(c2), gw3(std::size_t(flat) * classes), gb3(classes) {}

  void forward(cnn& net, bool training) {
    const std::size_t pos1 = std::size_t(n) * side * side, pos2 = std::size_t(n) * side2 * side2;
    im2col<c0>(x.data(), n, side, col1.data());
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(pos1), c1, taps * c0, 1.f, col1.data(), taps * c0,
                net.w1.data(), c1, 0.f, a1.data(), c1);
    add_bias<c1, true>(a1.data(), net.b1.data(), pos1);
    max_pool<c1>(a1.data(), n, side, p1.data(), arg1.data());
    im2col<c1>(p1.data(), n, side2, col2.data());
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(pos2), c2, taps * c1, 1.f, col2.data(), taps * c1,
                net.w2.data(), c2, 0.f, z2.data(), c2);
    add_bias<c2, false>(z2.data(), net.b2.data(), pos2);
    // Batch normalization over (n, y, x) per channel: float sums over rows of one image
    // position, added up in double.
    if (training) {
      double sum[c2] = {}, sq[c2] = {};
      const float* __restrict z = z2.data();
      for (std::size_t i = 0; i < pos2; i += side2 * side2) {
        float s1[c2] = {}, s2[c2] = {};
        for (std::size_t r = i; r < i + side2 * side2; ++r)
          for (int k = 0; k < c2; ++k) {
            s1[k] += z[r * c2 + k];
            s2[k] += z[r * c2 + k] * z[r * c2 + k];
          }
        for (int k = 0; k < c2; ++k) sum[k] += s1[k], sq[k] += s2[k];
      }
      for (int k = 0; k < c2; ++k) {
        const double mu = sum[k] / double(pos2);
        const double var = std::max(sq[k] / double(pos2) - mu * mu, 0.0);
        mean[k] = float(mu);
        inv_std[k] = float(1.0 / std::sqrt(var + epsilon));
        net.moving_mean[k] = net.moving_mean[k] * momentum + mean[k] * (1 - momentum);
        net.moving_var[k] = net.moving_var[k] * momentum +
                            float(var * double(pos2) / double(pos2 - 1)) * (1 - momentum);  // unbiased, as TF
      }
    } else {
      for (int k = 0; k < c2; ++k) {
        mean[k] = net.moving_mean[k];
        inv_std[k] = 1.f / std::sqrt(net.moving_var[k] + epsilon);
      }
    }
    {
      const float* __restrict z = z2.data();
      float* __restrict h = xhat.data();
      float* __restrict r = r2.data();
      const float* __restrict g = net.gamma.data();
      const float* __restrict bt = net.beta.data();
      for (std::size_t i = 0; i < pos2; ++i)
        for (int k = 0; k < c2; ++k) {
          const float v = (z[i * c2 + k] - mean[k]) * inv_std[k];
          h[i * c2 + k] = v;
          const float y = g[k] * v + bt[k];
          r[i * c2 + k] = y > 0.f ? y : 0.f;
        }
    }
    max_pool<c2>(r2.data(), n, side2, p2.data(), arg2.data());
    const float* features = p2.data();
    if (training) {
      const float scale = 1.f / (1 - rate);
      for (auto& m : mask) m = double(rng.next() >> 11) * 0x1.0p-53 >= rate ? scale : 0.f;
      for (std::size_t i = 0; i < p2.size(); ++i) drop[i] = p2[i] * mask[i];
      features = drop.data();
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, classes, flat, 1.f, features, flat, net.w3.data(),
                classes, 0.f, logits.data(), classes);
    add_bias<classes, false>(logits.data(), net.b3.data(), std::size_t(n));
  }

  // Mean softmax cross-entropy of the logits; dlogits its gradient.
  float loss(const int* labels) {
    float total = 0;
    for (int i = 0; i < n; ++i) {
      const float* z = logits.data() + std::size_t(i) * classes;
      float* d = dlogits.data() + std::size_t(i) * classes;
      const float mx = *std::max_element(z, z + classes);
      float sum = 0;
      for (int j = 0; j < classes; ++j) sum += (d[j] = std::exp(z[j] - mx));
      total += std::log(sum) - (z[labels[i]] - mx);
      for (int j = 0; j < classes; ++j) d[j] /= sum * float(n);
      d[labels[i]] -= 1.f / float(n);
    }
    return total / float(n);
  }

  void backward(const cnn& net) {
    const std::size_t pos1 = std::size_t(n) * side * side, pos2 = std::size_t(n) * side2 * side2;
    // Dense: gw3 = drop^T dlogits, dflat = dlogits w3^T, masked by dropout.
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, flat, classes, n, 1.f, drop.data(), flat, dlogits.data(),
                classes, 0.f, gw3.data(), classes);
    column_sums<classes>(dlogits.data(), std::size_t(n), gb3.data());
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, flat, classes, 1.f, dlogits.data(), classes,
                net.w3.data(), classes, 0.f, dflat.data(), flat);
    for (std::size_t i = 0; i < dflat.size(); ++i) dflat[i] *= mask[i];
    // Pool 2 and ReLU 2, then batch normalization:
    // dz = gamma inv_std / m (m dy - sum dy - xhat sum(dy xhat)).
    max_pool_relu_grad<c2>(dflat.data(), arg2.data(), p2.data(), n, side2, dr2.data());
    {
      float* __restrict d = dr2.data();
      const float* __restrict h = xhat.data();
      float sb[c2] = {}, sg[c2] = {};
      for (std::size_t i = 0; i < pos2; ++i)
        for (int k = 0; k < c2; ++k) {
          sb[k] += d[i * c2 + k];
          sg[k] += d[i * c2 + k] * h[i * c2 + k];
        }
      const float m = float(pos2);
      float a[c2], c[c2];
      for (int k = 0; k < c2; ++k) {
        gbeta[k] = sb[k];
        ggamma[k] = sg[k];
        a[k] = net.gamma[k] * inv_std[k];
        c[k] = a[k] / m;
      }
      for (std::size_t i = 0; i < pos2; ++i)
        for (int k = 0; k < c2; ++k) d[i * c2 + k] = a[k] * d[i * c2 + k] - c[k] * (sb[k] + h[i * c2 + k] * sg[k]);
    }
    // Conv 2: gw2 = col2^T dz2, gb2, dcol2 = dz2 w2^T, folded into dp1.
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, taps * c1, c2, int(pos2), 1.f, col2.data(), taps * c1,
                dr2.data(), c2, 0.f, gw2.data(), c2);
    column_sums<c2>(dr2.data(), pos2, gb2.data());
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(pos2), taps * c1, c2, 1.f, dr2.data(), c2,
                net.w2.data(), c2, 0.f, dcol2.data(), taps * c1);
    col2im<c1>(dcol2.data(), n, side2, dp1.data());
    // Pool 1 and ReLU 1, then conv 1: gw1 = col1^T dz1, gb1.
    max_pool_relu_grad<c1>(dp1.data(), arg1.data(), p1.data(), n, side, da1.data());
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, taps * c0, c1, int(pos1), 1.f, col1.data(), taps * c0,
                da1.data(), c1, 0.f, gw1.data(), c1);
    column_sums<c1>(da1.data(), pos1, gb1.data());
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");
  const std::size_t steps = argc > 2 ? std::size_t(std::atoi(argv[2])) : train.size() / batch;  // 1875

  cnn net;
  workspace ws(batch);
  adam opt;
  adam_slot s_w1(net.w1.size()), s_b1(c1), s_w2(net.w2.size()), s_b2(c2), s_gamma(c2), s_beta(c2),
      s_w3(net.w3.size()), s_b3(classes);
  int labels[batch];
  const auto order = training_bench::permutation(train.size());
  float last_loss = 0;
  training_bench::epoch_timer timer;
  for (int e = 0; e < epochs; ++e) {
    timer.start();
    for (std::size_t s = 0; s < steps; ++s) {
      for (int i = 0; i < batch; ++i) {
        const std::size_t k = order[s * batch + i];
        std::copy_n(train.images.data() + k * side * side, side * side, ws.x.data() + std::size_t(i) * side * side);
        labels[i] = train.labels[k];
      }
      ws.forward(net, true);
      last_loss = ws.loss(labels);
      ws.backward(net);
      opt.next_step();
      opt.apply(net.w1, ws.gw1, s_w1);
      opt.apply(net.b1, ws.gb1, s_b1);
      opt.apply(net.w2, ws.gw2, s_w2);
      opt.apply(net.b2, ws.gb2, s_b2);
      opt.apply(net.gamma, ws.ggamma, s_gamma);
      opt.apply(net.beta, ws.gbeta, s_beta);
      opt.apply(net.w3, ws.gw3, s_w3);
      opt.apply(net.b3, ws.gb3, s_b3);
    }
    timer.stop();
  }

  // Test accuracy, 1000 images at a time, with the moving statistics and no dropout.
  constexpr int chunk = 1000;
  workspace tw(chunk);
  int correct = 0;
  for (std::size_t at = 0; at + chunk <= test.size(); at += chunk) {
    std::copy_n(test.images.data() + at * side * side, std::size_t(chunk) * side * side, tw.x.data());
    tw.forward(net, false);
    for (int i = 0; i < chunk; ++i) {
      const float* z = tw.logits.data() + std::size_t(i) * classes;
      correct += int(std::max_element(z, z + classes) - z) == test.labels[at + std::size_t(i)];
    }
  }
  const double acc = double(correct) / double(test.size());
  timer.report("handwritten", last_loss, acc);
  return acc > 0.5 ? 0 : 1;
}
