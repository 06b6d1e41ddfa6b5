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
//   bench_cnn_conv_products [REPS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
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

}  // namespace

int main(int argc, char** argv) {
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
