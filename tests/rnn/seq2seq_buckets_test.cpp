// seq2seq_test.py's testModelWithBuckets, ported: learn to copy 10 symbols in two buckets,
// (4, 4) and (8, 8), with a MultiRNNCell of two GRUCell(24) in an
// embedding_attention_seq2seq (embedding size 24) whose output projection proj_w [24, 10],
// proj_b [10] is kept outside the model for sampled_softmax_loss with 8 samples;
// model_with_buckets sharing one set of variables; per bucket the gradients of its loss over
// all variables, clip_by_global_norm(grads, 30.0) and one AdamOptimizer(0.03,
// epsilon=1e-5) applying them; int32 inputs per step, "GO" symbol 0, batch 8; 6 steps on
// buckets chosen at random, each bucket's last perplexity below 1.1 times its first
// (TensorFlow's check, with its "10% margin of error").
//
// Differences: the batch is static (8, as every feed of TensorFlow's test); the sampled loss is
// called once per bucket over all its steps (tf::all_steps_at_once, as
// tf.contrib.seq2seq.sequence_loss calls it), so a batch's steps share one set of sampled
// candidates where TensorFlow's test draws one per step: this halves the graph the compiler
// builds (docs/seq2seq.md, "All steps at once"); and the random streams (the data, the buckets'
// order, the sampled candidates, the initial values) are not TensorFlow's. So TensorFlow's one
// run of 6 steps is run here from 20 seeds, each from fresh variables: its check is a coin
// weighted by those streams (a bucket's two perplexities may be one update apart, with new data
// and new samples), and one seed decides nothing. Run as separate processes from seeds 1-60 and
// 111 it held for 53 of 61 seeds (39 of 61 without the margin; seed 111 gives 1.20 on the
// (8, 8) bucket) with a loss per step; this test asks it of at least 15 of seeds 1-20 (it holds
// for 18, 16 without the margin). That the model learns is checked over a longer run: 150
// steps, each bucket's mean loss over its last 10 steps below 0.85 times the mean of its first
// 3 (0.40-0.77 measured by hand from seeds 1, 2, 3 and 111).
// typeflow local to this unit (<typeflow/tu_local.hpp>): this test's unrolled graphs compile
// in a sixth to a third less time; built without the tests' precompiled header (CMakeLists.txt).
#include <typeflow/tu_local.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include <typeflow/rnn/buckets.hpp>
#include <typeflow/rnn/embedding_seq2seq.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
constexpr std::size_t classes = 10, batch_size = 8;
using ids_t = xt::xtensor_fixed<std::int32_t, xt::xshape<batch_size>>;
// inp = [placeholder(int32, [None]) for _ in range(8)], out likewise.
auto inp = std::tuple{tf::placeholder<"inp0", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"inp1", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"inp2", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"inp3", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"inp4", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"inp5", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"inp6", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"inp7", std::int32_t, tf::shape<batch_size>>()};
auto out = std::tuple{tf::placeholder<"out0", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"out1", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"out2", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"out3", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"out4", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"out5", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"out6", std::int32_t, tf::shape<batch_size>>(), tf::placeholder<"out7", std::int32_t, tf::shape<batch_size>>()};
}  // namespace

TEST_CASE("testModelWithBuckets: a GRU embedding-attention seq2seq learns to copy in two buckets") {
  // w = get_variable("proj_w", [24, classes]); w_t = transpose(w); b = get_variable("proj_b", [classes])
  auto w = tf::variable<"proj_w", float, tf::shape<24, classes>>();
  auto w_t = tf::transpose(w);
  auto b = tf::variable<"proj_b", float, tf::shape<classes>>();
  auto gru_seq2seq = [&](const auto& enc_inp, const auto& dec_inp) {
    using cell = rnn::multi_rnn_cell<rnn::gru_cell<24>, rnn::gru_cell<24>>;
    return rnn::embedding_attention_seq2seq<classes, classes, 24>(enc_inp, dec_inp, cell{}, rnn::output_projection(w, b));
  };
  auto sampled_loss = [&](const auto& labels, const auto& logits) {
    return tf::sampled_softmax_loss<8, classes>(w_t, b, tf::reshape<tf::shape<tf::dyn, 1>>(labels), logits);
  };
  // targets = [dec_inp[i + 1] for i in range(len(dec_inp) - 1)] + [0]
  auto zero = tf::constant<"target_eos">(ids_t(xt::zeros<std::int32_t>({batch_size})));
  auto targets = std::apply([&](auto, const auto&... rest) { return std::tuple{rest..., zero}; }, out);
  // weights = [ones_like(inp[0], dtype=float32) for _ in range(8)]
  auto one = tf::constant<"weight_one">(xt::xtensor_fixed<float, xt::xshape<batch_size>>(xt::ones<float>({batch_size})));
  auto weights = std::tuple{one, one, one, one, one, one, one, one};
  using buckets = rnn::buckets<rnn::bucket<4, 4>, rnn::bucket<8, 8>>;
  auto [outputs, losses] =
      rnn::model_with_buckets<buckets>(inp, out, targets, weights, gru_seq2seq, tf::all_steps_at_once(sampled_loss));

  auto optimizer = tf::train::adam(0.03, 0.9, 0.999, 1e-5);
  auto update_for = [&](const auto& loss) {
    auto pairs = optimizer.compute_gradients(loss);
    auto [grads, norm] = tf::clip_by_global_norm(tf::train::gradients_of(pairs), tf::constant<30.0f>());
    return optimizer.apply_gradients(tf::train::zip(grads, tf::train::variables_of(pairs)));
  };
  auto update0 = update_for(std::get<0>(losses));
  auto update1 = update_for(std::get<1>(losses));
  tf::session sess(update0, update1, std::get<0>(losses), std::get<1>(losses));

  // One run of TensorFlow's loop from fresh variables: `steps` steps on buckets chosen at
  // random, the data from `seed`; each bucket's losses in order.
  auto train = [&](unsigned seed, int steps) {
    sess.initialize_all();
    std::mt19937 rng(seed);
    std::array<std::vector<double>, 2> losses_of;
    for (int step = 0; step < steps; ++step) {
      const std::size_t bucket = std::uniform_int_distribution<int>(0, 1)(rng) == 0 ? 0 : 1;
      const std::size_t length = bucket == 0 ? 4 : 8;
      std::array<ids_t, 9> o{};  // o = [GO] + i; unused steps stay GO
      for (std::size_t t = 0; t < length; ++t)
        for (std::size_t k = 0; k < batch_size; ++k) o[t + 1](k) = std::uniform_int_distribution<int>(1, 9)(rng);
      auto feed_all = [&](const auto& fetch) {
        return sess.run(fetch, tf::feed(std::get<0>(inp), o[1]), tf::feed(std::get<1>(inp), o[2]),
                        tf::feed(std::get<2>(inp), o[3]), tf::feed(std::get<3>(inp), o[4]),
                        tf::feed(std::get<4>(inp), o[5]), tf::feed(std::get<5>(inp), o[6]),
                        tf::feed(std::get<6>(inp), o[7]), tf::feed(std::get<7>(inp), o[8]),
                        tf::feed(std::get<0>(out), o[0]), tf::feed(std::get<1>(out), o[1]),
                        tf::feed(std::get<2>(out), o[2]), tf::feed(std::get<3>(out), o[3]),
                        tf::feed(std::get<4>(out), o[4]), tf::feed(std::get<5>(out), o[5]),
                        tf::feed(std::get<6>(out), o[6]), tf::feed(std::get<7>(out), o[7]));
      };
      const float loss = bucket == 0 ? std::get<1>(feed_all(tf::fetch(update0, std::get<0>(losses))))
                                     : std::get<1>(feed_all(tf::fetch(update1, std::get<1>(losses))));
      losses_of[bucket].push_back(double(loss));
    }
    return losses_of;
  };

  SUBCASE("TensorFlow's 6 steps: each bucket's last perplexity below 1.1 times its first, from most seeds") {
    int held = 0, held_without_margin = 0, runs_with_two_steps = 0;
    for (unsigned seed = 1; seed <= 20; ++seed) {
      const auto losses_of = train(seed, 6);
      CHECK(losses_of[0].size() + losses_of[1].size() == 6);
      bool ok = true, ok_without_margin = true;
      for (const auto& l : losses_of) {
        if (l.size() < 2) continue;
        const double first = std::exp(l.front()), last = std::exp(l.back());
        ok = ok && last < 1.1 * first;
        ok_without_margin = ok_without_margin && last < first;
      }
      runs_with_two_steps += int(losses_of[0].size() > 1 || losses_of[1].size() > 1);
      held += int(ok);
      held_without_margin += int(ok_without_margin);
    }
    MESSAGE("TensorFlow's check held for " << held << " of 20 seeds (" << held_without_margin
                                           << " without the margin)");
    CHECK(runs_with_two_steps == 20);
    CHECK(held >= 15);
  }
  SUBCASE("the copy model learns: after 150 steps, each bucket's loss well below its start") {
    const auto losses_of = train(111, 150);
    for (std::size_t bucket = 0; bucket < 2; ++bucket) {
      const auto& l = losses_of[bucket];
      INFO("bucket " << bucket << ": " << l.size() << " steps");
      REQUIRE(l.size() >= 13);
      const double first = (l[0] + l[1] + l[2]) / 3;
      double last = 0;
      for (std::size_t k = l.size() - 10; k < l.size(); ++k) last += l[k] / 10;
      INFO("mean loss of the first 3 steps " << first << ", of the last 10 " << last);
      CHECK(last < 0.85 * first);
    }
  }
}
