// benchmarks/seq2seq/copy_typeflow.cpp — one training step of seq2seq_test.py's
// testModelWithBuckets copy model for ONE bucket (S2S_LENGTH encoder and decoder steps, 4 or 8;
// run.sh builds one program per length, as each bucket's graph is its own type and the compile
// cost is per bucket): a MultiRNNCell of two GRUCell(24) in an embedding_attention_seq2seq
// (embedding size 24, 10 encoder and 10 decoder symbols), the output projection proj_w
// [24, 10], proj_b [10] outside the model, sampled_softmax_loss with 8 samples, built through
// model_with_buckets with that one bucket (the test's own code path; the same graph as
// calling embedding_attention_seq2seq directly and the sequence loss over its steps), batch 8;
// with S2S_FULL_SOFTMAX=1 the full softmax instead (logits = outputs @ proj_w + proj_b, sparse
// softmax cross-entropy: the model "copy<L>-full"); the gradients over all variables,
// clip_by_global_norm(30), Adam(0.03, epsilon 1e-5).
// Peer: pytorch_seq2seq.py. Prints one line of JSON (CPU and wall ms per step, per repetition).
//
//   bench_seq2seq_copy<L>[_full] [REPS [STEPS [WARMUP]]]
//
// A step is sess.run of the clipped Adam update and the loss, fed a copy batch: the encoder
// reads random ids 1..9, the decoder GO (0) then those ids, the targets are the decoder's
// inputs shifted by one, then 0. 16 batches are drawn once (std::mt19937, seed 111) and
// cycled, so drawing them is not timed.
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <tuple>
#include <utility>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/buckets.hpp>
#include <typeflow/rnn/embedding_seq2seq.hpp>
#include <typeflow/typeflow.hpp>

#include "../rnn/common.hpp"

#ifndef S2S_LENGTH
#define S2S_LENGTH 4
#endif
#ifndef S2S_FULL_SOFTMAX
#define S2S_FULL_SOFTMAX 0
#endif

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
constexpr std::size_t classes = 10, batch_size = 8, length = S2S_LENGTH;
static_assert(length == 4 || length == 8, "S2S_LENGTH is a bucket of testModelWithBuckets: 4 or 8");
using ids_t = xt::xtensor_fixed<std::int32_t, xt::xshape<batch_size>>;

template <tf::fixed_string Name>
auto ids() {
  return tf::placeholder<Name, std::int32_t, tf::shape<batch_size>>();
}
#if S2S_LENGTH == 4
auto inp = std::tuple{ids<"inp0">(), ids<"inp1">(), ids<"inp2">(), ids<"inp3">()};
auto out = std::tuple{ids<"out0">(), ids<"out1">(), ids<"out2">(), ids<"out3">()};
#else
auto inp = std::tuple{ids<"inp0">(), ids<"inp1">(), ids<"inp2">(), ids<"inp3">(),
                      ids<"inp4">(), ids<"inp5">(), ids<"inp6">(), ids<"inp7">()};
auto out = std::tuple{ids<"out0">(), ids<"out1">(), ids<"out2">(), ids<"out3">(),
                      ids<"out4">(), ids<"out5">(), ids<"out6">(), ids<"out7">()};
#endif

// A copy batch: o[0] = GO, o[1..length] the encoder's ids.
using batch_t = std::array<ids_t, length + 1>;

template <class Sess, class Fetch, std::size_t... I>
auto run_batch(Sess& sess, const Fetch& fetch, const batch_t& o, std::index_sequence<I...>) {
  return sess.run(fetch, tf::feed(std::get<I>(inp), o[I + 1])..., tf::feed(std::get<I>(out), o[I])...);
}
}  // namespace

int main(int argc, char** argv) {
  const int reps = rnn_bench::arg(argc, argv, 1, 5), steps = rnn_bench::arg(argc, argv, 2, 100),
            warmup = rnn_bench::arg(argc, argv, 3, 20);

  // The model, as tests/rnn/seq2seq_buckets_test.cpp writes it.
  auto w = tf::variable<"proj_w", float, tf::shape<24, classes>>();
  auto w_t = tf::transpose(w);
  auto b = tf::variable<"proj_b", float, tf::shape<classes>>();
  auto gru_seq2seq = [&](const auto& enc_inp, const auto& dec_inp) {
    using cell = rnn::multi_rnn_cell<rnn::gru_cell<24>, rnn::gru_cell<24>>;
    return rnn::embedding_attention_seq2seq<classes, classes, 24>(enc_inp, dec_inp, cell{}, rnn::output_projection(w, b));
  };
#if S2S_FULL_SOFTMAX
  // The full softmax: logits = outputs @ proj_w + proj_b, sparse softmax cross-entropy per step.
  (void)w_t;
  auto step_loss = [&](const auto& labels, const auto& outputs) {
    return tf::sparse_softmax_cross_entropy_with_logits(labels, tf::matmul(outputs, w) + b);
  };
#else
  auto step_loss = [&](const auto& labels, const auto& logits) {
    return tf::sampled_softmax_loss<8, classes>(w_t, b, tf::reshape<tf::shape<batch_size, 1>>(labels), logits);
  };
#endif
  auto zero = tf::constant<"target_eos">(ids_t(xt::zeros<std::int32_t>({batch_size})));
  auto targets = std::apply([&](auto, const auto&... rest) { return std::tuple{rest..., zero}; }, out);
  auto one = tf::constant<"weight_one">(xt::xtensor_fixed<float, xt::xshape<batch_size>>(xt::ones<float>({batch_size})));
  auto weights = std::apply([&](const auto&... o) { return std::tuple{((void)o, one)...}; }, out);
  using buckets = rnn::buckets<rnn::bucket<length, length>>;
  auto [outputs, losses] = rnn::model_with_buckets<buckets>(inp, out, targets, weights, gru_seq2seq, step_loss);
  (void)outputs;
  auto loss = std::get<0>(losses);

  auto optimizer = tf::train::adam(0.03, 0.9, 0.999, 1e-5);
  auto pairs = optimizer.compute_gradients(loss);
  auto [grads, norm] = tf::clip_by_global_norm(tf::train::gradients_of(pairs), tf::constant<30.0f>());
  (void)norm;
  auto update = optimizer.apply_gradients(tf::train::zip(grads, tf::train::variables_of(pairs)));
  tf::session sess(update, loss);
  sess.set_random_seed(42);
  sess.initialize_all();

  std::mt19937 rng(111);
  std::uniform_int_distribution<int> symbol(1, 9);
  std::array<batch_t, 16> data{};
  for (auto& o : data)
    for (std::size_t t = 1; t <= length; ++t)
      for (std::size_t k = 0; k < batch_size; ++k) o[t](k) = symbol(rng);

  constexpr auto each = std::make_index_sequence<length>{};
  std::size_t next = 0;
  // The training losses of the last 100 steps (a ring), their mean printed on stderr: a less noisy
  // check of training than one sampled loss.
  std::array<float, 100> recent{};
  auto step = [&] {
    const std::size_t i = next++;
    recent[i % recent.size()] = std::get<1>(run_batch(sess, tf::fetch(update, loss), data[i % data.size()], each));
  };
  auto loss_value = [&] { return double(run_batch(sess, loss, data[0], each)); };
  char model[16];
  std::snprintf(model, sizeof model, "copy%zu%s", length, S2S_FULL_SOFTMAX ? "-full" : "");
  rnn_bench::time_steps("typeflow", model, warmup, reps, steps, step, loss_value);
  double sum = 0;
  for (float l : recent) sum += double(l);
  std::fprintf(stderr, "%s typeflow: mean training loss of the last %zu of %zu steps %.4f\n", model, recent.size(), next,
               sum / double(recent.size()));
  return 0;
}
