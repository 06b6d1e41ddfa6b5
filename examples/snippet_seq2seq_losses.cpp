// docs/seq2seq.md: the sequence-to-sequence losses — sequence_loss(_by_example) over one node
// per time step, sampled_softmax_loss trained and evaluated with the full softmax, and the
// log-uniform candidate sampler with samples fixed by feeding them.
#include <cmath>
#include <cstdint>
#include <tuple>

#include <xtensor/xtensor.hpp>

#include <typeflow/train/adam.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet sequence_loss]
    // logits = [tf.placeholder(tf.float32, [None, 5]) for _ in range(3)]
    // targets = [tf.placeholder(tf.int32, [None]) for _ in range(3)]
    // weights = [tf.placeholder(tf.float32, [None]) for _ in range(3)]
    // per_example = tf.contrib.legacy_seq2seq.sequence_loss_by_example(logits, targets, weights)
    // loss = tf.contrib.legacy_seq2seq.sequence_loss(logits, targets, weights)
    auto l0 = tf::placeholder<"l0", float, tf::shape<tf::dyn, 5>>();
    auto l1 = tf::placeholder<"l1", float, tf::shape<tf::dyn, 5>>();
    auto l2 = tf::placeholder<"l2", float, tf::shape<tf::dyn, 5>>();
    auto y0 = tf::placeholder<"y0", std::int32_t, tf::shape<tf::dyn>>();
    auto y1 = tf::placeholder<"y1", std::int32_t, tf::shape<tf::dyn>>();
    auto y2 = tf::placeholder<"y2", std::int32_t, tf::shape<tf::dyn>>();
    auto w = tf::placeholder<"w", float, tf::shape<tf::dyn>>();
    const auto logits = std::tuple{l0, l1, l2};
    const auto targets = std::tuple{y0, y1, y2};
    const auto weights = std::tuple{w, w, w};
    auto per_example = tf::sequence_loss_by_example(logits, targets, weights);  // [batch]
    auto loss = tf::sequence_loss(logits, targets, weights);                    // a scalar
    // average_across_timesteps=False, average_across_batch=False: template arguments
    auto total = tf::sequence_loss<false, false>(logits, targets, weights);
    tf::session sess(per_example, loss, total);
    const xt::xtensor<float, 2> zeros = xt::zeros<float>({2, 5});  // uniform logits: log 5 per step
    const xt::xtensor<std::int32_t, 1> ids = {1, 4};
    const xt::xtensor<float, 1> ones = {1.0f, 1.0f};
    const auto [e, m, t] = sess.run(tf::fetch(per_example, loss, total), tf::feed(l0, zeros), tf::feed(l1, zeros),
                                    tf::feed(l2, zeros), tf::feed(y0, ids), tf::feed(y1, ids), tf::feed(y2, ids),
                                    tf::feed(w, ones));
    EXPECT(std::abs(e(0) - std::log(5.0f)) < 1e-5f && std::abs(m - std::log(5.0f)) < 1e-5f);
    EXPECT(std::abs(t - 6 * std::log(5.0f)) < 1e-4f);  // 3 steps of 2 examples
    // [/snippet sequence_loss]
  }
  {
    // [snippet all_steps_at_once]
    // tf.contrib.seq2seq.sequence_loss(logits [batch, time, classes], ...) calls its loss
    // function once over the flattened steps; so does the legacy form with all_steps_at_once.
    auto x = tf::placeholder<"decoder_outputs", float, tf::shape<3, tf::dyn, 5>>();  // [time, batch, classes]
    auto y0 = tf::placeholder<"y0", std::int32_t, tf::shape<tf::dyn>>();
    auto y1 = tf::placeholder<"y1", std::int32_t, tf::shape<tf::dyn>>();
    auto y2 = tf::placeholder<"y2", std::int32_t, tf::shape<tf::dyn>>();
    auto w = tf::placeholder<"w", float, tf::shape<tf::dyn>>();
    const auto steps = tf::unstack<0>(x);  // as a decoder loop's outputs arrive
    const auto targets = std::tuple{y0, y1, y2};
    const auto weights = std::tuple{w, w, w};
    auto per_step = tf::sequence_loss(steps, targets, weights);  // three losses, three slices
    // One loss over x reshaped to [time * batch, classes]: the graph reads x whole.
    auto at_once = tf::sequence_loss(steps, targets, weights, tf::all_steps_at_once());
    // A user's loss function is called once with [time * batch] labels: reshape to [-1, 1].
    auto twice = [](const auto& labels, const auto& logits) {
      return tf::sparse_softmax_cross_entropy_with_logits(tf::reshape<tf::shape<tf::dyn>>(labels), logits) *
             tf::constant<2.0f>();
    };
    auto custom_at_once = tf::sequence_loss(steps, targets, weights, tf::all_steps_at_once(twice));
    tf::session sess(per_step, at_once, custom_at_once);
    xt::xtensor<float, 3> logits = xt::zeros<float>({3, 2, 5});
    logits(1, 0, 4) = 2.0f;  // example 0 confidently wrong at step 1 (its target is 1)
    const xt::xtensor<std::int32_t, 1> ids = {1, 4};
    const xt::xtensor<float, 1> ones = {1.0f, 1.0f};
    const auto [p, o, c] = sess.run(tf::fetch(per_step, at_once, custom_at_once), tf::feed(x, logits),
                                    tf::feed(y0, ids), tf::feed(y1, ids), tf::feed(y2, ids), tf::feed(w, ones));
    EXPECT(p == o && std::abs(c - 2 * p) < 1e-6f && p > std::log(5.0f));
    // [/snippet all_steps_at_once]
  }
  {
    // [snippet sampled_softmax_loss]
    // w = tf.get_variable("proj_w", [50, 8]); b = tf.get_variable("proj_b", [50])
    // loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, b, labels, x, num_sampled=10,
    //                                                  num_classes=50, seed=1))
    // full = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
    //     labels=tf.reshape(labels, [-1]), logits=tf.matmul(x, w, transpose_b=True) + b))
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 8>>();
    auto labels = tf::placeholder<"labels", std::int64_t, tf::shape<tf::dyn, 1>>();
    auto w = tf::variable<"proj_w", float, tf::shape<50, 8>>(tf::init::glorot_uniform());
    auto b = tf::variable<"proj_b", float, tf::shape<50>>(tf::init::zeros());
    auto loss = tf::reduce_mean(tf::sampled_softmax_loss<10, 50, true, 1>(w, b, labels, x));
    auto train = tf::train::adam(0.05).minimize(loss);
    auto full = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(
        tf::reshape<tf::shape<tf::dyn>>(labels), tf::matmul<false, true>(x, w) + b));
    tf::session sess(train, full);
    sess.set_random_seed(42);  // with the op seed 1: the same samples in every run of the program
    sess.initialize_all();
    xt::xtensor<float, 2> xv = xt::zeros<float>({32, 8});
    xt::xtensor<std::int64_t, 2> lv = xt::zeros<std::int64_t>({32, 1});
    for (std::size_t i = 0; i < 32; ++i) {
      lv(i, 0) = std::int64_t(i * 7 % 50);  // a class per row, its features a function of it
      for (std::size_t d = 0; d < 8; ++d) xv(i, d) = std::sin(float(lv(i, 0) * (d + 1)));
    }
    const float before = sess.run(full, tf::feed(x, xv), tf::feed(labels, lv));
    for (int step = 0; step < 200; ++step) sess.run(train, tf::feed(x, xv), tf::feed(labels, lv));
    const float after = sess.run(full, tf::feed(x, xv), tf::feed(labels, lv));
    EXPECT(after < 0.5f * before);  // trained on samples, better on the full softmax
    // [/snippet sampled_softmax_loss]
  }
  {
    // [snippet candidate_sampler]
    // sampled, true_count, sampled_count = tf.random.log_uniform_candidate_sampler(
    //     labels, num_true=1, num_sampled=4, unique=True, range_max=20, seed=3)
    // loss = tf.nn.sampled_softmax_loss(w, b, labels, x, 4, 20, sampled_values=(s, tc, sc))
    auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
    auto labels = tf::placeholder<"labels", std::int64_t, tf::shape<2, 1>>();
    auto w = tf::placeholder<"w", double, tf::shape<20, 3>>();
    auto b = tf::placeholder<"b", double, tf::shape<20>>();
    auto [sampled, true_count, sampled_count] = tf::log_uniform_candidate_sampler<4, 20, true, 3, double>(labels);
    // The samples as placeholders: fed with one draw, every run uses the same candidates
    // (what a finite-difference check of the gradient needs).
    auto s = tf::placeholder<"s", std::int64_t, tf::shape<4>>();
    auto tc = tf::placeholder<"tc", double, tf::shape<2, 1>>();
    auto sc = tf::placeholder<"sc", double, tf::shape<4>>();
    auto loss = tf::reduce_sum(tf::sampled_softmax_loss<4, 20>(w, b, labels, x, std::tuple{s, tc, sc}));
    auto dw = tf::gradient(loss, w);
    tf::session sess(loss, dw, sampled, true_count, sampled_count);
    const xt::xtensor<std::int64_t, 2> lv = {{2}, {7}};
    const auto [sv, tcv, scv] = sess.run(tf::fetch(sampled, true_count, sampled_count), tf::feed(labels, lv));
    const auto fixed = std::tuple{tf::feed(labels, lv), tf::feed(s, sv), tf::feed(tc, tcv), tf::feed(sc, scv)};
    tf::storage_t<double, tf::shape<2, 3>> xv{};
    tf::storage_t<double, tf::shape<20, 3>> wv{};
    tf::storage_t<double, tf::shape<20>> bv{};
    xv.fill(0.5);
    wv.fill(0.1);
    const auto run = [&](auto fetch) {
      const auto inputs = std::tuple{tf::feed(x, xv), tf::feed(w, wv), tf::feed(b, bv)};
      return std::apply([&](auto... f) { return sess.run(fetch, f...); }, std::tuple_cat(inputs, fixed));
    };
    EXPECT(run(loss) == run(loss));  // the same candidates in every run
    EXPECT(tcv(0, 0) > tcv(1, 0));   // class 2 is more frequent than class 7: P(k) falls with k
    // [/snippet candidate_sampler]
    (void)run(dw);
  }
  return 0;
}
