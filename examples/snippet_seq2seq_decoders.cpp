// docs/seq2seq-decoders.md: the legacy_seq2seq decoders — basic_rnn_seq2seq,
// attention_decoder with its variables' TensorFlow names, and feed_previous through a
// loop_function. Two encoder and two decoder steps: the graph grows with the steps, and
// clang 19 compiles this file in about 2 minutes and 1.9 GB at -O2 (more than 5 minutes with
// three encoder steps), g++ 12 in under 20 s.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/seq2seq.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

namespace {
xt::xtensor_fixed<float, xt::xshape<4, 8>> ramp(float phase) {
  xt::xtensor_fixed<float, xt::xshape<4, 8>> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = std::sin(0.1f * float(i) + phase);
  return v;
}
}  // namespace

int main() {
  {
    // [snippet basic]
    // enc = [tf.placeholder(tf.float32, [4, 8]) for _ in range(2)]; dec likewise
    // outputs, state = tf.contrib.legacy_seq2seq.basic_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(16))
    auto e0 = tf::placeholder<"e0", float, tf::shape<4, 8>>();
    auto e1 = tf::placeholder<"e1", float, tf::shape<4, 8>>();
    auto d0 = tf::placeholder<"d0", float, tf::shape<4, 8>>();
    auto d1 = tf::placeholder<"d1", float, tf::shape<4, 8>>();
    auto [outputs, state] = tf::rnn::basic_rnn_seq2seq(std::tuple{e0, e1}, std::tuple{d0, d1}, tf::rnn::gru_cell<16>{});
    static_assert(std::tuple_size_v<decltype(outputs)> == 2);  // one [4, 16] output per decoder step
    tf::session sess(std::get<1>(outputs), state);
    // basic_rnn_seq2seq/rnn/gru_cell/... (the encoder), basic_rnn_seq2seq/rnn_decoder/gru_cell/...
    const std::vector<std::string> names = sess.uninitialized_names();
    sess.initialize_all();
    const auto last = sess.run(std::get<1>(outputs), tf::feed(e0, ramp(0)), tf::feed(e1, ramp(1)),
                               tf::feed(d0, ramp(3)), tf::feed(d1, ramp(4)));
    // [/snippet basic]
    EXPECT(names.size() == 8);
    for (const char* n : {"basic_rnn_seq2seq/rnn/gru_cell/gates/kernel", "basic_rnn_seq2seq/rnn_decoder/gru_cell/gates/kernel",
                          "basic_rnn_seq2seq/rnn/gru_cell/candidate/bias", "basic_rnn_seq2seq/rnn_decoder/gru_cell/candidate/bias"})
      EXPECT(std::find(names.begin(), names.end(), n) != names.end());
    EXPECT(last.shape()[0] == 4 && last.shape()[1] == 16);
  }
  {
    // [snippet attention]
    // enc_outputs, enc_state = tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(16), enc, scope="encoder")
    // attention_states = tf.stack(enc_outputs, axis=1)                   # [4, 2, 16]
    // outputs, state = tf.contrib.legacy_seq2seq.attention_decoder(
    //     dec, enc_state, attention_states, tf.nn.rnn_cell.GRUCell(16), output_size=10, num_heads=2)
    auto e0 = tf::placeholder<"e0", float, tf::shape<4, 8>>();
    auto e1 = tf::placeholder<"e1", float, tf::shape<4, 8>>();
    auto d0 = tf::placeholder<"d0", float, tf::shape<4, 8>>();
    auto d1 = tf::placeholder<"d1", float, tf::shape<4, 8>>();
    auto [enc_outputs, enc_state] = tf::rnn::static_rnn<"encoder">(tf::rnn::gru_cell<16>{}, std::tuple{e0, e1});
    auto attention_states = std::apply([](const auto&... o) { return tf::stack<1>(o...); }, enc_outputs);
    auto [outputs, state] = tf::rnn::attention_decoder</*output_size*/ 10, /*num_heads*/ 2>(
        std::tuple{d0, d1}, enc_state, attention_states, tf::rnn::gru_cell<16>{});
    static_assert(std::is_same_v<tf::shape_of<std::tuple_element_t<0, decltype(outputs)>>, tf::shape<4, 10>>);
    tf::session sess(std::get<1>(outputs), state);
    // attention_decoder/AttnW_0 [1, 1, 16, 16], AttnV_0 [16], AttnW_1, AttnV_1,
    // attention_decoder/kernel [8 + 2 * 16, 8], attention_decoder/bias [8]      (input and attention reads)
    // attention_decoder/gru_cell/...                                           (the cell)
    // attention_decoder/Attention_0/kernel [16, 16], .../bias [16], Attention_1/...
    // attention_decoder/AttnOutputProjection/kernel [16 + 2 * 16, 10], .../bias [10]
    const std::vector<std::string> names = sess.uninitialized_names();
    sess.initialize_all();
    const auto out = sess.run(std::get<1>(outputs), tf::feed(e0, ramp(0)), tf::feed(e1, ramp(1)),
                              tf::feed(d0, ramp(3)), tf::feed(d1, ramp(4)));
    // [/snippet attention]
    const std::vector<std::string> decoder{
        "attention_decoder/AttnW_0", "attention_decoder/AttnV_0", "attention_decoder/AttnW_1",
        "attention_decoder/AttnV_1", "attention_decoder/kernel", "attention_decoder/bias",
        "attention_decoder/gru_cell/gates/kernel", "attention_decoder/gru_cell/gates/bias",
        "attention_decoder/gru_cell/candidate/kernel", "attention_decoder/gru_cell/candidate/bias",
        "attention_decoder/Attention_0/kernel", "attention_decoder/Attention_0/bias",
        "attention_decoder/Attention_1/kernel", "attention_decoder/Attention_1/bias",
        "attention_decoder/AttnOutputProjection/kernel", "attention_decoder/AttnOutputProjection/bias"};
    EXPECT(names.size() == 4 + decoder.size());
    for (const auto& n : decoder) EXPECT(std::find(names.begin(), names.end(), n) != names.end());
    EXPECT(out.shape()[0] == 4 && out.shape()[1] == 10);
  }
  {
    // [snippet feed_previous]
    // def loop_function(prev, i):  return tf.one_hot(tf.argmax(prev, 1), 8)
    // outputs, state = tf.contrib.legacy_seq2seq.attention_decoder(
    //     dec, state0, attention_states, cell, output_size=8, loop_function=loop_function)
    auto go = tf::placeholder<"go", float, tf::shape<4, 8>>();
    auto unused = tf::placeholder<"unused", float, tf::shape<4, 8>>();  // step 1's input comes from step 0
    auto state0 = tf::placeholder<"state0", float, tf::shape<4, 16>>();
    auto attention_states = tf::placeholder<"attention_states", float, tf::shape<4, 3, 16>>();
    auto loop_function = [](const auto& prev, std::size_t /*i*/) { return tf::one_hot<8, float>(tf::argmax<1>(prev)); };
    auto [outputs, state] = tf::rnn::attention_decoder<8>(std::tuple{go, unused}, state0, attention_states,
                                                          tf::rnn::gru_cell<16>{}, loop_function);
    tf::session sess(std::get<1>(outputs), state);
    sess.initialize_all();
    xt::xtensor_fixed<float, xt::xshape<4, 16>> s0{};
    xt::xtensor_fixed<float, xt::xshape<4, 3, 16>> att{};
    att.fill(0.5f);
    const auto out = sess.run(std::get<1>(outputs), tf::feed(go, ramp(0)), tf::feed(state0, s0),
                              tf::feed(attention_states, att));  // "unused" is not fed: not on the path
    // [/snippet feed_previous]
    EXPECT(out.shape()[1] == 8);
  }
  return 0;
}
