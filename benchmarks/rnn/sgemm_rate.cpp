// benchmarks/rnn/sgemm_rate.cpp — this machine's cblas_sgemm rate (1 thread: run with
// OPENBLAS_NUM_THREADS=1) at the shapes of a GRU(128) training step (batch 64, depth 64,
// 128 units, so [x, h] is [64, 192]), for the gemm bound of run.sh. Row-major, as typeflow's
// tensors:
//   forward   gates      [64,192] x [192,256]      candidate  [64,192] x [192,128]
//   backward  dA = dC B^T  [64,256] x [256,192]^T  /  [64,128] x [128,192]^T
//             dB = A^T dC  [192,64]^T x [64,256]   /  [192,64]^T x [64,128]
// Prints one line of JSON: per shape, its flops and the median GFLOP/s over repetitions.
//
//   bench_rnn_sgemm [REPS [CALLS]]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <cblas.h>

#include "common.hpp"

struct gemm_shape {
  const char* name;
  CBLAS_TRANSPOSE ta, tb;
  int m, n, k;
};

int main(int argc, char** argv) {
  const int reps = rnn_bench::arg(argc, argv, 1, 7), calls = rnn_bench::arg(argc, argv, 2, 2000);
  const gemm_shape shapes[] = {
      {"fwd_gates", CblasNoTrans, CblasNoTrans, 64, 256, 192},
      {"fwd_candidate", CblasNoTrans, CblasNoTrans, 64, 128, 192},
      {"bwd_gates_dA", CblasNoTrans, CblasTrans, 64, 192, 256},
      {"bwd_gates_dB", CblasTrans, CblasNoTrans, 192, 256, 64},
      {"bwd_candidate_dA", CblasNoTrans, CblasTrans, 64, 192, 128},
      {"bwd_candidate_dB", CblasTrans, CblasNoTrans, 192, 128, 64},
  };
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::string out = "{\"impl\": \"cblas_sgemm\", \"shapes\": [";
  bool first = true;
  for (const auto& s : shapes) {
    // Stored row-major: op(A) is m x k, op(B) is k x n.
    const int rows_a = s.ta == CblasNoTrans ? s.m : s.k, cols_a = s.ta == CblasNoTrans ? s.k : s.m;
    const int rows_b = s.tb == CblasNoTrans ? s.k : s.n, cols_b = s.tb == CblasNoTrans ? s.n : s.k;
    std::vector<float> a(std::size_t(rows_a) * cols_a), b(std::size_t(rows_b) * cols_b), c(std::size_t(s.m) * s.n);
    for (auto& v : a) v = u(rng);
    for (auto& v : b) v = u(rng);
    auto call = [&] {
      cblas_sgemm(CblasRowMajor, s.ta, s.tb, s.m, s.n, s.k, 1.0f, a.data(), cols_a, b.data(), cols_b, 0.0f,
                  c.data(), s.n);
    };
    for (int i = 0; i < calls / 10; ++i) call();  // warm up
    std::vector<double> gflops;
    const double flops = 2.0 * s.m * s.n * s.k;
    for (int r = 0; r < reps; ++r) {
      const double c0 = rnn_bench::cpu_seconds();
      for (int i = 0; i < calls; ++i) call();
      gflops.push_back(flops * calls / (rnn_bench::cpu_seconds() - c0) / 1e9);
    }
    std::sort(gflops.begin(), gflops.end());
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s{\"name\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, \"flops\": %.0f, \"gflops_median\": %.3f, "
                  "\"gflops_max\": %.3f}",
                  first ? "" : ", ", s.name, s.m, s.n, s.k, flops, gflops[gflops.size() / 2], gflops.back());
    out += buf;
    first = false;
  }
  std::printf("%s]}\n", out.c_str());
  return 0;
}
