// Issue 3, part 2: the bar. The 784-128-10 MLP of mlp_typeflow.cpp written by hand on
// OpenBLAS: forward 2 sgemms, backward 3 sgemms (the two weight gradients are applied by
// the sgemms themselves, alpha = -lr, beta = 1), bias/ReLU, softmax/cross-entropy and
// the bias updates in fused loops, every buffer allocated once. Same data, same epoch
// order (training_bench::permutation), Glorot-uniform kernels and zero biases as
// tf.layers.dense. Prints one line of JSON: epoch seconds, test accuracy.
//
//   bench_training_mlp_cblas [epochs]     (threads: OPENBLAS_NUM_THREADS)
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common.hpp"
#include "data/fashion_mnist.hpp"

namespace {

constexpr int n_in = 784, n_hidden = 128, n_out = 10;

// The elementwise loops: __restrict pointers and compile-time row lengths, so that GCC 12
// vectorizes them at -O2 (its "very cheap" vectorizer cost model: no alias versioning).

// out = max(out + bias, 0), row by row.
template <int Cols>
void add_bias_relu(float* __restrict out, const float* __restrict bias, int rows) {
  for (int i = 0; i < rows; ++i) {
    float* __restrict o = out + std::size_t(i) * Cols;
    for (int j = 0; j < Cols; ++j) {
      const float v = o[j] + bias[j];
      o[j] = v > 0.f ? v : 0.f;
    }
  }
}

// out += bias, row by row.
template <int Cols>
void add_bias(float* __restrict out, const float* __restrict bias, int rows) {
  for (int i = 0; i < rows; ++i) {
    float* __restrict o = out + std::size_t(i) * Cols;
    for (int j = 0; j < Cols; ++j) o[j] += bias[j];
  }
}

// d = d where h > 0, else 0 (ReLU's gradient); db = the column sums of the new d.
template <int Cols>
void relu_grad_and_bias_grad(float* __restrict d, const float* __restrict h, float* __restrict db, int rows) {
  for (int j = 0; j < Cols; ++j) db[j] = 0.f;
  for (int i = 0; i < rows; ++i) {
    float* __restrict dr = d + std::size_t(i) * Cols;
    const float* __restrict hr = h + std::size_t(i) * Cols;
    for (int j = 0; j < Cols; ++j) {
      const float g = hr[j] > 0.f ? dr[j] : 0.f;
      dr[j] = g;
      db[j] += g;
    }
  }
}

// v -= lr g.
template <int N>
void sgd(float* __restrict v, const float* __restrict g, float lr) {
  for (int j = 0; j < N; ++j) v[j] -= lr * g[j];
}

struct mlp {
  std::vector<float> w1 = training_bench::glorot_uniform(n_in, n_hidden, 1);
  std::vector<float> b1 = std::vector<float>(n_hidden, 0.f);
  std::vector<float> w2 = training_bench::glorot_uniform(n_hidden, n_out, 2);
  std::vector<float> b2 = std::vector<float>(n_out, 0.f);

  // hidden = relu(x w1 + b1) for n rows; logits = hidden w2 + b2.
  void forward(int n, const float* x, float* hidden, float* logits) const {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n_hidden, n_in, 1.f, x, n_in, w1.data(), n_hidden,
                0.f, hidden, n_hidden);
    add_bias_relu<n_hidden>(hidden, b1.data(), n);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n_out, n_hidden, 1.f, hidden, n_hidden, w2.data(),
                n_out, 0.f, logits, n_out);
    add_bias<n_out>(logits, b2.data(), n);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  constexpr int batch = 64;
  constexpr float lr = 0.1f;
  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");

  mlp net;
  std::vector<float> xb(batch * n_in), hidden(batch * n_hidden), logits(batch * n_out), dhidden(batch * n_hidden);
  std::vector<int> yb(batch);

  const auto order = training_bench::permutation(train.size());
  const std::size_t steps = train.size() / batch;  // 937
  float last_loss = 0;
  training_bench::epoch_timer timer;
  for (int e = 0; e < epochs; ++e) {
    timer.start();
    for (std::size_t s = 0; s < steps; ++s) {
      for (int i = 0; i < batch; ++i) {
        const std::size_t k = order[s * batch + i];
        std::copy_n(train.images.data() + k * n_in, n_in, xb.data() + std::size_t(i) * n_in);
        yb[i] = train.labels[k];
      }
      net.forward(batch, xb.data(), hidden.data(), logits.data());

      // Softmax cross-entropy, mean over the batch; logits becomes dloss/dlogits.
      float loss = 0;
      float db2[n_out] = {};
      for (int i = 0; i < batch; ++i) {
        float* z = logits.data() + i * n_out;
        float mx = z[0];
        for (int j = 1; j < n_out; ++j) mx = std::max(mx, z[j]);
        const float zy = z[yb[i]] - mx;
        float sum = 0;
        for (int j = 0; j < n_out; ++j) sum += (z[j] = std::exp(z[j] - mx));
        loss += std::log(sum) - zy;
        const float inv = 1.f / (sum * batch);
        for (int j = 0; j < n_out; ++j) z[j] *= inv;
        z[yb[i]] -= 1.f / batch;
        for (int j = 0; j < n_out; ++j) db2[j] += z[j];
      }
      last_loss = loss / batch;

      // dhidden = dlogits w2^T (with the old w2), masked by ReLU; then w2 -= lr hidden^T dlogits.
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch, n_hidden, n_out, 1.f, logits.data(), n_out,
                  net.w2.data(), n_out, 0.f, dhidden.data(), n_hidden);
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n_hidden, n_out, batch, -lr, hidden.data(), n_hidden,
                  logits.data(), n_out, 1.f, net.w2.data(), n_out);
      sgd<n_out>(net.b2.data(), db2, lr);
      float db1[n_hidden];
      relu_grad_and_bias_grad<n_hidden>(dhidden.data(), hidden.data(), db1, batch);
      // w1 -= lr x^T dhidden.
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n_in, n_hidden, batch, -lr, xb.data(), n_in,
                  dhidden.data(), n_hidden, 1.f, net.w1.data(), n_hidden);
      sgd<n_hidden>(net.b1.data(), db1, lr);
    }
    timer.stop();
  }

  const int nt = int(test.size());
  std::vector<float> th(std::size_t(nt) * n_hidden), tz(std::size_t(nt) * n_out);
  net.forward(nt, test.images.data(), th.data(), tz.data());
  int correct = 0;
  for (int i = 0; i < nt; ++i) {
    const float* z = tz.data() + std::size_t(i) * n_out;
    correct += int(std::max_element(z, z + n_out) - z) == test.labels[i];
  }
  const double acc = double(correct) / nt;
  timer.report("cblas", last_loss, acc);
  return acc > 0.5 ? 0 : 1;
}
