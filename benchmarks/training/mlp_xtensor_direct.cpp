// Issue 3, part 3: the compile-time reference. The program of mlp_adam_typeflow.cpp
// (784-128-10 MLP, ReLU, softmax cross-entropy, batch 64, Adam 1e-3 with TensorFlow's
// update rule) written directly in xtensor, forward and backward by hand, the matrix
// products through xtensor-blas (xt::linalg::dot). run.sh compares the compile time and
// compiler peak memory of the two files. Running it trains one epoch and prints a line
// of JSON (epoch seconds, test accuracy).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <xtensor-blas/xlinalg.hpp>
#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include "common.hpp"
#include "data/fashion_mnist.hpp"

namespace {

using matrix = xt::xtensor<float, 2>;
using vector = xt::xtensor<float, 1>;

// One variable with its two Adam slots (TensorFlow's m and v).
template <class T>
struct adam_variable {
  T value, m, v;
  explicit adam_variable(T init) : value(std::move(init)), m(xt::zeros_like(value)), v(xt::zeros_like(value)) {}
  template <class G>
  void update(const G& g, float lr_t, float beta1, float beta2, float eps) {
    m = beta1 * m + (1 - beta1) * g;
    v = beta2 * v + (1 - beta2) * g * g;
    value -= lr_t * m / (xt::sqrt(v) + eps);
  }
};

struct mlp {
  adam_variable<matrix> w1{xt::adapt(training_bench::glorot_uniform(784, 128, 1), std::array<std::size_t, 2>{784, 128})};
  adam_variable<vector> b1{xt::zeros<float>({128})};
  adam_variable<matrix> w2{xt::adapt(training_bench::glorot_uniform(128, 10, 2), std::array<std::size_t, 2>{128, 10})};
  adam_variable<vector> b2{xt::zeros<float>({10})};

  matrix hidden(const matrix& x) const { return xt::maximum(xt::linalg::dot(x, w1.value) + b1.value, 0.f); }
  matrix logits(const matrix& h) const { return xt::linalg::dot(h, w2.value) + b2.value; }
};

}  // namespace

int main(int argc, char** argv) {
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  constexpr std::size_t batch = 64;
  const float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");

  mlp net;
  float beta1_power = beta1, beta2_power = beta2;
  matrix xb = xt::zeros<float>({batch, std::size_t(784)});
  xt::xtensor<int, 1> yb = xt::zeros<int>({batch});

  const auto order = training_bench::permutation(train.size());
  const std::size_t steps = train.size() / batch;  // 937
  float last_loss = 0;
  training_bench::epoch_timer timer;
  for (int e = 0; e < epochs; ++e) {
    timer.start();
    for (std::size_t s = 0; s < steps; ++s) {
      for (std::size_t i = 0; i < batch; ++i) {
        const std::size_t k = order[s * batch + i];
        std::copy_n(train.images.data() + k * 784, 784, xb.data() + i * 784);
        yb(i) = train.labels[k];
      }
      // Forward. Reductions are materialized before they enter another expression (DESIGN.md:
      // xtensor 0.24.3's lazy keep_dims reducers compute wrong values in broadcasts).
      const matrix h = net.hidden(xb);
      const matrix z = net.logits(h);
      const vector mx = xt::amax(z, {1});
      const matrix ez = xt::exp(z - xt::view(mx, xt::all(), xt::newaxis()));
      const vector sum = xt::sum(ez, {1});
      matrix dz = ez / xt::view(sum, xt::all(), xt::newaxis());  // softmax
      float loss = 0;
      for (std::size_t i = 0; i < batch; ++i) {
        loss += std::log(sum(i)) - (z(i, yb(i)) - mx(i));
        dz(i, yb(i)) -= 1;
      }
      last_loss = loss / batch;
      dz /= float(batch);

      // Backward.
      const matrix dw2 = xt::linalg::dot(xt::transpose(h), dz);
      const vector db2 = xt::sum(dz, {0});
      const matrix dh = xt::linalg::dot(dz, xt::transpose(net.w2.value)) * xt::cast<float>(h > 0.f);
      const matrix dw1 = xt::linalg::dot(xt::transpose(xb), dh);
      const vector db1 = xt::sum(dh, {0});

      // Adam, as tf.train.AdamOptimizer.
      const float lr_t = lr * std::sqrt(1 - beta2_power) / (1 - beta1_power);
      net.w1.update(dw1, lr_t, beta1, beta2, eps);
      net.b1.update(db1, lr_t, beta1, beta2, eps);
      net.w2.update(dw2, lr_t, beta1, beta2, eps);
      net.b2.update(db2, lr_t, beta1, beta2, eps);
      beta1_power *= beta1;
      beta2_power *= beta2;
    }
    timer.stop();
  }

  const matrix tx = xt::adapt(test.images, std::array<std::size_t, 2>{test.size(), 784});
  // Not xt::argmax: its xsort.hpp trips GCC 12's -Warray-bounds at -O2 (xtensor 0.24.3).
  const matrix test_logits = net.logits(net.hidden(tx));
  std::size_t correct = 0;
  for (std::size_t i = 0; i < test.size(); ++i) {
    const float* z = test_logits.data() + i * 10;
    correct += std::max_element(z, z + 10) - z == test.labels[i];
  }
  const double acc = double(correct) / double(test.size());
  timer.report("xtensor-direct-adam", last_loss, acc);
  return acc > 0.5 ? 0 : 1;
}
