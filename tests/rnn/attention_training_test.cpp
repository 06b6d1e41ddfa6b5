// Training a tiny attention seq2seq (rnn::static_rnn encoder, rnn::attention_decoder) on a
// copy task with train::adam: sequences of 3 symbols out of 4, one-hot (no embeddings), the
// decoder fed "GO" and the previous target symbols (teacher forcing). The mean loss of the
// last 20 steps falls below a quarter of the first; the greedy predictions then copy most
// symbols, teacher-forced and also decoding with feed_previous (a loop_function feeding the
// one-hot argmax of each output back, TensorFlow's _extract_argmax_and_embed without the
// embedding), in a second decoder that shares the trained variables.
#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <tuple>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/seq2seq.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
constexpr std::size_t batch = 16, symbols = 4, depth = symbols + 1, go = symbols;  // one-hot depth: the symbols and GO
using onehot = xt::xtensor_fixed<float, xt::xshape<batch, depth>>;
using labels = xt::xtensor_fixed<float, xt::xshape<batch, symbols>>;
}  // namespace

TEST_CASE("attention seq2seq + adam learns to copy a sequence") {
  auto e0 = tf::placeholder<"e0", float, tf::shape<batch, depth>>();
  auto e1 = tf::placeholder<"e1", float, tf::shape<batch, depth>>();
  auto e2 = tf::placeholder<"e2", float, tf::shape<batch, depth>>();
  auto d0 = tf::placeholder<"d0", float, tf::shape<batch, depth>>();
  auto d1 = tf::placeholder<"d1", float, tf::shape<batch, depth>>();
  auto d2 = tf::placeholder<"d2", float, tf::shape<batch, depth>>();
  auto y0 = tf::placeholder<"y0", float, tf::shape<batch, symbols>>();
  auto y1 = tf::placeholder<"y1", float, tf::shape<batch, symbols>>();
  auto y2 = tf::placeholder<"y2", float, tf::shape<batch, symbols>>();

  auto [enc_outputs, enc_state] = rnn::static_rnn<"encoder">(rnn::gru_cell<12>{}, std::tuple{e0, e1, e2});
  auto attention_states = std::apply([](const auto&... o) { return tf::stack<1>(o...); }, enc_outputs);
  auto [logits, state] = rnn::attention_decoder<symbols>(std::tuple{d0, d1, d2}, enc_state, attention_states,
                                                         rnn::gru_cell<12>{});
  (void)state;
  auto step_loss = [](const auto& y, const auto& l) { return tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, l)); };
  auto loss = step_loss(y0, std::get<0>(logits)) + step_loss(y1, std::get<1>(logits)) + step_loss(y2, std::get<2>(logits));
  auto train_op = tf::train::adam(0.02).minimize(loss);
  auto greedy = [](const auto& prev, std::size_t) { return tf::one_hot<depth, float>(tf::argmax<1>(prev)); };
  auto [decoded, decoded_state] = rnn::attention_decoder<symbols>(std::tuple{d0, d1, d2}, enc_state, attention_states,
                                                                  rnn::gru_cell<12>{}, greedy);
  (void)decoded_state;
  tf::session sess(train_op, loss, std::get<0>(logits), std::get<1>(logits), std::get<2>(logits),
                   std::get<0>(decoded), std::get<1>(decoded), std::get<2>(decoded));
  static_assert(decltype(sess)::holds<tf::variable_node<"attention_decoder/AttnW_0", float, tf::shape<1, 1, 12, 12>,
                                                        tf::init::fixed<tf::init::glorot_uniform()>>>);
  sess.run(tf::global_variables_initializer());

  std::mt19937 gen(7);
  std::uniform_int_distribution<std::size_t> pick(0, symbols - 1);
  auto make_batch = [&] {
    std::array<onehot, 3> enc{}, dec{};
    std::array<labels, 3> y{};
    for (std::size_t b = 0; b < batch; ++b) {
      dec[0](b, go) = 1;
      for (std::size_t t = 0; t < 3; ++t) {
        const std::size_t s = pick(gen);
        enc[t](b, s) = 1;
        y[t](b, s) = 1;
        if (t + 1 < 3) dec[t + 1](b, s) = 1;
      }
    }
    return std::tuple{enc, dec, y};
  };
  auto feeds = [&](const auto& data, auto&& f) {
    const auto& [enc, dec, y] = data;
    return f(tf::feed(e0, enc[0]), tf::feed(e1, enc[1]), tf::feed(e2, enc[2]), tf::feed(d0, dec[0]),
             tf::feed(d1, dec[1]), tf::feed(d2, dec[2]), tf::feed(y0, y[0]), tf::feed(y1, y[1]), tf::feed(y2, y[2]));
  };

  float first = 0, last = 0;
  constexpr int steps = 300;
  for (int i = 0; i < steps; ++i) {
    auto data = make_batch();
    auto [l, done] = feeds(data, [&](const auto&... f) { return sess.run(tf::fetch(loss, train_op), f...); });
    (void)done;
    if (i == 0) first = l;
    if (i >= steps - 20) last += l / 20;
  }
  CAPTURE(first);
  CAPTURE(last);
  CHECK(last < 0.25f * first);

  // Greedy predictions on a fresh batch (teacher-forced inputs): most symbols copied.
  auto data = make_batch();
  auto [p0, p1, p2] = feeds(data, [&](const auto&... f) {
    return sess.run(tf::fetch(std::get<0>(logits), std::get<1>(logits), std::get<2>(logits)), f...);
  });
  const auto& y = std::get<2>(data);
  std::size_t right = 0;
  auto count = [&](const auto& p, const labels& target) {
    for (std::size_t b = 0; b < batch; ++b) {
      std::size_t best = 0;
      for (std::size_t s = 1; s < symbols; ++s)
        if (p(b, s) > p(b, best)) best = s;
      right += target(b, best) == 1 ? 1 : 0;
    }
  };
  count(p0, y[0]);
  count(p1, y[1]);
  count(p2, y[2]);
  CAPTURE(right);
  CHECK(right >= 40);  // of 48

  // feed_previous: only the encoder inputs and GO are fed (d1, d2 are off the path).
  const auto& [enc, dec, targets] = data;
  auto [g0, g1, g2] = sess.run(tf::fetch(std::get<0>(decoded), std::get<1>(decoded), std::get<2>(decoded)),
                               tf::feed(e0, enc[0]), tf::feed(e1, enc[1]), tf::feed(e2, enc[2]), tf::feed(d0, dec[0]));
  right = 0;
  count(g0, targets[0]);
  count(g1, targets[1]);
  count(g2, targets[2]);
  CAPTURE(right);
  CHECK(right >= 40);
}
