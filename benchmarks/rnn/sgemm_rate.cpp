// benchmarks/rnn/sgemm_rate.cpp — this machine's cblas_sgemm rate (1 thread: run with
// OPENBLAS_NUM_THREADS=1) at the shapes of a GRU(128) training step (batch 64, depth 64,
// 128 units, so [x, h] is [64, 192]), for the gemm bound of run.sh. Row-major, as typeflow's
// tensors:
//   forward   gates      [64,192] x [192,256]      candidate  [64,192] x [192,128]
//   backward  dA = dC B^T  [64,256] x [256,192]^T  /  [64,128] x [128,192]^T
//             dB = A^T dC  [192,64]^T x [64,256]   /  [192,64]^T x [64,128]
// Prints one line of JSON: per shape, its flops and the median GFLOP/s over repetitions.
//
// `beta` compares, at those shapes and at the bidirectional GRU(10)'s ([x, h] is [32, 40]),
// cblas_sgemm with beta = 0 (OpenBLAS then zeroes C in a loop of its own, sgemm_beta, before
// it accumulates) against memset and beta = 1, as typeflow's matmul calls it
// (ops::detail::gemm): the median microseconds per call of each, interleaved, and their ratio.
//
// `batched` asks whether the input's part of the products runs faster as one product over
// all 50 steps ([3200,64] x [64,384], as cuDNN and PyTorch's CPU GRU compute it) than step by
// step ([64,64] x [64,384]), and prints the per-step rates of the state's parts
// ([64,128] x [128,256] and [64,128] x [128,128]) beside them: the median GFLOP/s of each.
//
//   bench_rnn_sgemm [REPS [CALLS]]
//   bench_rnn_sgemm beta [REPS]
//   bench_rnn_sgemm batched [REPS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

/// A product's operands, stored row-major (op(A) is m x k, op(B) is k x n), uniform in [-1, 1].
struct operands {
  const gemm_shape& s;
  int cols_a, cols_b;
  std::vector<float> a, b, c;
  operands(const gemm_shape& shape, std::mt19937& rng)
      : s(shape), cols_a(s.ta == CblasNoTrans ? s.k : s.m), cols_b(s.tb == CblasNoTrans ? s.n : s.k),
        a(std::size_t(s.m) * s.k), b(std::size_t(s.k) * s.n), c(std::size_t(s.m) * s.n) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto& v : a) v = u(rng);
    for (auto& v : b) v = u(rng);
  }
  void call(float beta) {
    cblas_sgemm(CblasRowMajor, s.ta, s.tb, s.m, s.n, s.k, 1.0f, a.data(), cols_a, b.data(), cols_b, beta, c.data(),
                s.n);
  }
};

const gemm_shape gru128_shapes[] = {
    {"fwd_gates", CblasNoTrans, CblasNoTrans, 64, 256, 192},
    {"fwd_candidate", CblasNoTrans, CblasNoTrans, 64, 128, 192},
    {"bwd_gates_dA", CblasNoTrans, CblasTrans, 64, 192, 256},
    {"bwd_gates_dB", CblasTrans, CblasNoTrans, 192, 256, 64},
    {"bwd_candidate_dA", CblasNoTrans, CblasTrans, 64, 192, 128},
    {"bwd_candidate_dB", CblasTrans, CblasNoTrans, 192, 128, 64},
};

/// CPU seconds per call of f, over `calls` calls.
template <class F>
double seconds_per_call(int calls, F f) {
  const double c0 = rnn_bench::cpu_seconds();
  for (int i = 0; i < calls; ++i) f();
  return (rnn_bench::cpu_seconds() - c0) / calls;
}

/// The GFLOP/s of shape `s` in each of `reps` runs of `calls` products, after a warm-up,
/// sorted.
std::vector<double> gflops_of_runs(const gemm_shape& s, std::mt19937& rng, int reps, int calls) {
  operands o(s, rng);
  const double flops = 2.0 * s.m * s.n * s.k;
  seconds_per_call(std::max(1, calls / 10), [&] { o.call(0.0f); });  // warm up
  std::vector<double> gflops;
  for (int r = 0; r < reps; ++r) gflops.push_back(flops / seconds_per_call(calls, [&] { o.call(0.0f); }) / 1e9);
  std::sort(gflops.begin(), gflops.end());
  return gflops;
}

int beta_comparison(int reps) {
  const gemm_shape gru10_shapes[] = {
      {"gru10 fwd_gates", CblasNoTrans, CblasNoTrans, 32, 20, 40},
      {"gru10 fwd_candidate", CblasNoTrans, CblasNoTrans, 32, 10, 40},
      {"gru10 bwd_gates_dA", CblasNoTrans, CblasTrans, 32, 40, 20},
      {"gru10 bwd_gates_dB", CblasTrans, CblasNoTrans, 40, 20, 32},
  };
  std::mt19937 rng(5);
  auto compare = [&](const gemm_shape& s) {
    operands o(s, rng);
    const int calls = std::max(200, int(4e8 / (double(s.m) * s.n * s.k)));
    std::vector<double> us[2];
    for (int r = 0; r < reps; ++r)
      for (int way = 0; way < 2; ++way)  // interleaved: both ways see the same machine
        us[way].push_back(1e6 * seconds_per_call(calls, [&] {
                            if (way == 0) {
                              o.call(0.0f);
                            } else {
                              std::memset(o.c.data(), 0, o.c.size() * sizeof(float));
                              o.call(1.0f);
                            }
                          }));
    for (auto& v : us) std::sort(v.begin(), v.end());
    const double b0 = us[0][us[0].size() / 2], b1 = us[1][us[1].size() / 2];
    std::printf("%-22s m %3d n %3d k %3d: beta = 0 %8.3f us, memset + beta = 1 %8.3f us, ratio %.2fx\n", s.name, s.m,
                s.n, s.k, b0, b1, b0 / b1);
  };
  for (const auto& s : gru10_shapes) compare(s);
  for (const auto& s : gru128_shapes) compare(s);
  return 0;
}

int batched_input(int reps) {
  const gemm_shape shapes[] = {
      {"input, per step", CblasNoTrans, CblasNoTrans, 64, 384, 64},
      {"input, 50 steps at once", CblasNoTrans, CblasNoTrans, 3200, 384, 64},
      {"state, gates", CblasNoTrans, CblasNoTrans, 64, 256, 128},
      {"state, candidate", CblasNoTrans, CblasNoTrans, 64, 128, 128},
  };
  std::mt19937 rng(7);
  for (const auto& s : shapes) {
    const int calls = std::max(20, int(2e8 / (double(s.m) * s.n * s.k)));
    const auto gflops = gflops_of_runs(s, rng, reps, calls);
    std::printf("%-24s m %4d n %3d k %3d: %6.1f GFLOP/s\n", s.name, s.m, s.n, s.k, gflops[gflops.size() / 2]);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "beta") return beta_comparison(rnn_bench::arg(argc, argv, 2, 7));
  if (argc > 1 && std::string(argv[1]) == "batched") return batched_input(rnn_bench::arg(argc, argv, 2, 7));
  const int reps = rnn_bench::arg(argc, argv, 1, 7), calls = rnn_bench::arg(argc, argv, 2, 2000);
  std::mt19937 rng(3);
  std::string out = "{\"impl\": \"cblas_sgemm\", \"shapes\": [";
  bool first = true;
  for (const auto& s : gru128_shapes) {
    const auto gflops = gflops_of_runs(s, rng, reps, calls);
    const double flops = 2.0 * s.m * s.n * s.k;
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
