// examples/seq2seq_copy.cpp — the copy task of TensorFlow's testModelWithBuckets, trained
// until the model copies held-out sequences of both lengths with feed_previous decoding.
//
// The model is the test's (tests/rnn/seq2seq_buckets_test.cpp): a MultiRNNCell of two
// GRUCell(24) in an embedding_attention_seq2seq (embedding size 24, 10 symbols, "GO" 0), the
// output projection proj_w [24, 10], proj_b [10] kept outside it for sampled_softmax_loss with
// 8 samples, model_with_buckets over (4, 4) and (8, 8) sharing one set of variables, per
// bucket clip_by_global_norm(grads, 30) and one AdamOptimizer(epsilon=1e-5). The task:
// a sequence of 4 or 8 symbols in 1-9 is the encoder's input, and the decoder, fed "GO" and
// then its own previous output (TensorFlow's feed_previous=True, the inference graph of
// translate.py), must emit the same sequence.
//
// Differences from the test: a batch of 32 (the test's 8 learns more slowly per step); Adam's
// learning rate starts at 0.01 (the test's 0.03, which it runs for 6 steps, made this run
// diverge after 3000 steps) and is halved as translate.py decays it; the sampled loss is
// called once per bucket over all its steps (tf::all_steps_at_once, see the test); a
// ninth decoder placeholder, so that the (8, 8) bucket's targets are the 8 symbols (the
// test's last target is a constant 0); the sequences of the held-out sets are never trained
// on. Each evaluation prints the step, each bucket's mean training loss since the last one,
// and the held-out token accuracy per length; the program ends with 0 once both reach 95%,
// with 1 if they have not after max_steps.
//
// The program includes <typeflow/tu_local.hpp> first: its graphs, two buckets of an unrolled
// attention model with their gradients, then compile in about two thirds of the time and
// memory (g++ 12: 255 s and 2.9 GB against 401 s and 3.7 GB).
// [snippet tu_local]
#include <typeflow/tu_local.hpp>  // first: typeflow local to this program's one translation unit
// [/snippet tu_local]

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include <typeflow/rnn/buckets.hpp>
#include <typeflow/rnn/embedding_seq2seq.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {

constexpr std::size_t classes = 10, batch_size = 32, size = 24;
constexpr std::int32_t go = 0;
constexpr int max_steps = 10000, evaluate_every = 250;
constexpr double initial_learning_rate = 0.01;
constexpr double target_accuracy = 0.95;
using ids_t = xt::xtensor_fixed<std::int32_t, xt::xshape<batch_size>>;
using sequence = std::vector<std::int32_t>;

template <tf::fixed_string Name>
auto ids() {
  return tf::placeholder<Name, std::int32_t, tf::shape<batch_size>>();
}
// The encoder's 8 steps and the decoder's 9: inputs "GO" + the sequence, targets the sequence.
const auto inp = std::tuple{ids<"inp0">(), ids<"inp1">(), ids<"inp2">(), ids<"inp3">(),
                            ids<"inp4">(), ids<"inp5">(), ids<"inp6">(), ids<"inp7">()};
const auto out = std::tuple{ids<"out0">(), ids<"out1">(), ids<"out2">(), ids<"out3">(), ids<"out4">(),
                            ids<"out5">(), ids<"out6">(), ids<"out7">(), ids<"out8">()};

// One batch, step-major as the placeholders take it: enc[t](k) is symbol t of sequence k,
// dec[0] is GO, dec[t + 1] is symbol t; steps past a sequence's length stay 0.
struct batch {
  std::array<ids_t, 8> enc{};
  std::array<ids_t, 9> dec{};
};

batch make_batch(const std::vector<sequence>& seqs) {
  batch b;
  for (auto& d : b.dec) d.fill(0);
  for (auto& e : b.enc) e.fill(0);
  b.dec[0].fill(go);
  for (std::size_t k = 0; k < seqs.size(); ++k)
    for (std::size_t t = 0; t < seqs[k].size(); ++t) {
      b.enc[t](k) = seqs[k][t];
      b.dec[t + 1](k) = seqs[k][t];
    }
  return b;
}

sequence random_sequence(std::mt19937& rng, std::size_t length) {
  sequence s(length);
  for (auto& x : s) x = std::uniform_int_distribution<std::int32_t>(1, 9)(rng);
  return s;
}

// A sequence's first N steps, as model_with_buckets gives a bucket.
template <std::size_t N, class Tuple>
auto first_steps(const Tuple& t) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return std::tuple{std::get<I>(t)...}; }(
      std::make_index_sequence<N>{});
}

template <class Session, class Fetch>
auto run_on(Session& sess, const Fetch& fetch, const batch& b) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return sess.run(fetch, tf::feed(std::get<I>(inp), b.enc[I])..., tf::feed(std::get<I>(out), b.dec[I])...,
                    tf::feed(std::get<8>(out), b.dec[8]));
  }(std::make_index_sequence<8>{});
}

}  // namespace

int main() {
  auto w = tf::variable<"proj_w", float, tf::shape<size, classes>>();
  auto b = tf::variable<"proj_b", float, tf::shape<classes>>();
  using cell = rnn::multi_rnn_cell<rnn::gru_cell<size>, rnn::gru_cell<size>>;

  // Training: model_with_buckets over the decoder inputs, the loss sampled_softmax_loss.
  auto seq2seq = [&](const auto& enc, const auto& dec) {
    return rnn::embedding_attention_seq2seq<classes, classes, size>(enc, dec, cell{}, rnn::output_projection(w, b));
  };
  auto sampled_loss = [&](const auto& labels, const auto& logits) {
    return tf::sampled_softmax_loss<8, classes>(tf::transpose(w), b, tf::reshape<tf::shape<tf::dyn, 1>>(labels),
                                                logits);
  };
  auto targets = std::apply([](auto, const auto&... rest) { return std::tuple{rest...}; }, out);
  auto one =
      tf::constant<"weight_one">(xt::xtensor_fixed<float, xt::xshape<batch_size>>(xt::ones<float>({batch_size})));
  auto weights = std::tuple{one, one, one, one, one, one, one, one};
  using buckets = rnn::buckets<rnn::bucket<4, 4>, rnn::bucket<8, 8>>;
  auto [outputs, losses] =
      rnn::model_with_buckets<buckets>(inp, out, targets, weights, seq2seq, tf::all_steps_at_once(sampled_loss));
  (void)outputs;

  // The learning rate is a variable that a decay op halves, as translate.py's
  // learning_rate_decay_op, when an evaluation's training loss is above the last three.
  auto learning_rate = tf::variable<"learning_rate", float, tf::shape<>, tf::init::constant(initial_learning_rate)>();
  auto decay_learning_rate = tf::assign(learning_rate, learning_rate * tf::constant<0.5f>());
  auto optimizer = tf::train::adam(learning_rate, 0.9, 0.999, 1e-5);
  auto update_for = [&](const auto& loss) {
    auto pairs = optimizer.compute_gradients(loss);
    auto [grads, norm] = tf::clip_by_global_norm(tf::train::gradients_of(pairs), tf::constant<30.0f>());
    return optimizer.apply_gradients(tf::train::zip(grads, tf::train::variables_of(pairs)));
  };
  auto update4 = update_for(std::get<0>(losses));
  auto update8 = update_for(std::get<1>(losses));

  // Inference: the same model and variables with feed_previous=True; from step 1 on the
  // decoder reads the argmax of its projected previous output. The prediction of a bucket
  // is [decoder steps, batch], each step's argmax over the projected output.
  auto decode = [&]<std::size_t Length>(std::integral_constant<std::size_t, Length>) {
    auto [decoded, state] = rnn::embedding_attention_seq2seq<classes, classes, size, 1, /*feed_previous=*/true>(
        first_steps<Length>(inp), first_steps<Length>(out), cell{}, rnn::output_projection(w, b));
    (void)state;
    return std::apply([&](const auto&... o) { return tf::stack<0>(tf::argmax<1>(tf::matmul(o, w) + b)...); }, decoded);
  };
  auto predict4 = decode(std::integral_constant<std::size_t, 4>{});
  auto predict8 = decode(std::integral_constant<std::size_t, 8>{});

  tf::session sess(update4, update8, std::get<0>(losses), std::get<1>(losses), predict4, predict8,
                   decay_learning_rate);
  sess.initialize_all();

  // Held-out sets: 256 sequences of each length, never trained on.
  std::mt19937 rng(2026);
  std::array<std::vector<batch>, 2> held_out;
  std::array<std::vector<std::vector<sequence>>, 2> held_out_seqs;
  std::set<sequence> unseen;
  for (std::size_t bucket = 0; bucket < 2; ++bucket)
    for (int n = 0; n < 256 / int(batch_size); ++n) {
      std::vector<sequence> seqs;
      while (seqs.size() < batch_size) {
        auto s = random_sequence(rng, bucket == 0 ? 4 : 8);
        if (unseen.insert(s).second) seqs.push_back(std::move(s));
      }
      held_out[bucket].push_back(make_batch(seqs));
      held_out_seqs[bucket].push_back(std::move(seqs));
    }

  auto accuracy = [&](std::size_t bucket) {
    std::size_t right = 0, total = 0;
    for (std::size_t n = 0; n < held_out[bucket].size(); ++n) {
      const auto predicted = bucket == 0 ? xt::xtensor<std::int64_t, 2>(run_on(sess, predict4, held_out[bucket][n]))
                                         : xt::xtensor<std::int64_t, 2>(run_on(sess, predict8, held_out[bucket][n]));
      const auto& seqs = held_out_seqs[bucket][n];
      for (std::size_t k = 0; k < seqs.size(); ++k)
        for (std::size_t t = 0; t < seqs[k].size(); ++t, ++total) right += std::size_t(predicted(t, k) == seqs[k][t]);
    }
    return double(right) / double(total);
  };

  std::array<double, 2> loss_sum{}, accuracies{};
  std::array<int, 2> loss_count{};
  std::vector<double> previous_losses;
  bool reached = false;
  for (int step = 1; step <= max_steps && !reached; ++step) {
    const std::size_t bucket = std::uniform_int_distribution<int>(0, 1)(rng);
    std::vector<sequence> seqs;
    while (seqs.size() < batch_size) {
      auto s = random_sequence(rng, bucket == 0 ? 4 : 8);
      if (!unseen.contains(s)) seqs.push_back(std::move(s));
    }
    const auto data = make_batch(seqs);
    const float loss = bucket == 0 ? std::get<1>(run_on(sess, tf::fetch(update4, std::get<0>(losses)), data))
                                   : std::get<1>(run_on(sess, tf::fetch(update8, std::get<1>(losses)), data));
    loss_sum[bucket] += loss;
    ++loss_count[bucket];
    if (step % evaluate_every == 0) {
      accuracies = {accuracy(0), accuracy(1)};
      const double loss4 = loss_sum[0] / std::max(loss_count[0], 1), loss8 = loss_sum[1] / std::max(loss_count[1], 1);
      std::printf("step %5d  learning rate %.5f  loss (4, 4) %.4f  (8, 8) %.4f  held-out token accuracy: "
                  "length 4 %.1f%%, length 8 %.1f%%\n",
                  step, double(sess.run(learning_rate)), loss4, loss8, 100 * accuracies[0], 100 * accuracies[1]);
      const double loss = (loss4 + loss8) / 2;
      if (previous_losses.size() > 2 &&
          loss > *std::max_element(previous_losses.end() - 3, previous_losses.end()))
        sess.run(decay_learning_rate);
      previous_losses.push_back(loss);
      loss_sum = {};
      loss_count = {};
      reached = accuracies[0] >= target_accuracy && accuracies[1] >= target_accuracy;
    }
  }
  EXPECT(reached);
  std::printf("copied held-out sequences with feed_previous: %.1f%% of length 4, %.1f%% of length 8\n",
              100 * accuracies[0], 100 * accuracies[1]);
}
