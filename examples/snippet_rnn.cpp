// docs/rnn.md: the RNN guide — dynamic_rnn, its options, bidirectional_dynamic_rnn, the
// variables' TensorFlow names, and training through a recurrent layer.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/train/adam.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

namespace {
xt::xtensor<float, 3> ramp(std::size_t batch, std::size_t time, std::size_t depth) {
  xt::xtensor<float, 3> v(std::array<std::size_t, 3>{batch, time, depth});
  for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = std::sin(0.1f * float(i));
  return v;
}
}  // namespace

int main() {
  {
    // [snippet dynamic_rnn]
    // x = tf.placeholder(tf.float32, [None, None, 8])
    // outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(16), x, dtype=tf.float32)
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, tf::dyn, 8>>();
    auto [outputs, state] = tf::rnn::dynamic_rnn(tf::rnn::gru_cell<16>{}, x);
    static_assert(std::is_same_v<tf::shape_of<decltype(outputs)>, tf::shape<tf::dyn, tf::dyn, 16>>);
    static_assert(std::is_same_v<tf::shape_of<decltype(state)>, tf::shape<tf::dyn, 16>>);  // a GRU's state: h
    tf::session sess(outputs, state);
    // tf.global_variables(): rnn/gru_cell/gates/kernel [24, 32], gates/bias [32] (ones),
    // candidate/kernel [24, 16], candidate/bias [16]
    const std::vector<std::string> names = sess.uninitialized_names();
    sess.initialize_all();
    const auto [out, h] = sess.run(tf::fetch(outputs, state), tf::feed(x, ramp(4, 7, 8)));  // any batch, any length
    // [/snippet dynamic_rnn]
    EXPECT(names == std::vector<std::string>{"rnn/gru_cell/gates/kernel", "rnn/gru_cell/gates/bias",
                                             "rnn/gru_cell/candidate/kernel", "rnn/gru_cell/candidate/bias"});
    EXPECT(out.shape()[0] == 4 && out.shape()[1] == 7 && out.shape()[2] == 16);
    for (std::size_t b = 0; b < 4; ++b)
      for (std::size_t j = 0; j < 16; ++j) EXPECT(out(b, 6, j) == h(b, j));  // the last output is the state
  }
  {
    // [snippet options]
    // outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(16), x, sequence_length=lengths,
    //                                    initial_state=LSTMStateTuple(c0, h0), time_major=True,
    //                                    scope="encoder")
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 4, 8>>();  // [time, batch, depth]
    auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<4>>();
    auto c0 = tf::placeholder<"c0", float, tf::shape<4, 16>>();
    auto h0 = tf::placeholder<"h0", float, tf::shape<4, 16>>();
    auto [outputs, state] = tf::rnn::dynamic_rnn<"encoder">(
        tf::rnn::lstm_cell<16>{}, x, tf::rnn::sequence_length(lengths),
        tf::rnn::initial_state(tf::rnn::lstm_state_tuple{c0, h0}), tf::rnn::time_major);
    auto last_h = state.h;  // an lstm_state_tuple: state.c, state.h, each [4, 16]
    // [/snippet options]
    tf::session sess(outputs, last_h);
    sess.initialize_all();
    const xt::xtensor<float, 2> zeros = xt::zeros<float>({4, 16});
    const xt::xtensor<float, 3> xv = ramp(5, 4, 8);
    const auto [out, h] = sess.run(tf::fetch(outputs, last_h), tf::feed(x, xv), tf::feed(c0, zeros), tf::feed(h0, zeros),
                                   tf::feed(lengths, xt::xtensor<std::int32_t, 1>{5, 3, 1, 0}));
    for (std::size_t j = 0; j < 16; ++j) {
      EXPECT(out(2, 1, j) == h(1, j));  // example 1's final state is its output at step 2
      EXPECT(out(3, 1, j) == 0.0f);     // and past its length its outputs are zero
      EXPECT(h(3, j) == 0.0f);          // example 3 never started: its initial state
    }
  }
  {
    // [snippet bidirectional]
    // (fw, bw), (state_fw, state_bw) = tf.nn.bidirectional_dynamic_rnn(
    //     GRUCell(10), GRUCell(10), x, sequence_length=lengths, dtype=tf.float32)
    // outputs = tf.concat([fw, bw], 2)
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, tf::dyn, 30>>();
    auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<tf::dyn>>();
    auto [outs, states] = tf::rnn::bidirectional_dynamic_rnn(tf::rnn::gru_cell<10>{}, tf::rnn::gru_cell<10>{}, x,
                                                             tf::rnn::sequence_length(lengths));
    auto outputs = tf::concat<2>(outs.first, outs.second);  // [batch, time, 20]
    // variables "bidirectional_rnn/fw/gru_cell/..." and "bidirectional_rnn/bw/gru_cell/..."
    // [/snippet bidirectional]
    tf::session sess(outputs, states.first, states.second);
    EXPECT(sess.uninitialized_names().size() == 8);
    EXPECT(sess.uninitialized_names()[4] == "bidirectional_rnn/bw/gru_cell/gates/kernel");
    sess.initialize_all();
    const auto [out, fw, bw] = sess.run(tf::fetch(outputs, states.first, states.second), tf::feed(x, ramp(2, 6, 30)),
                                        tf::feed(lengths, xt::xtensor<std::int32_t, 1>{6, 4}));
    for (std::size_t j = 0; j < 10; ++j) {
      EXPECT(out(1, 3, j) == fw(1, j));       // the forward state is the output at the last step
      EXPECT(out(1, 0, 10 + j) == bw(1, j));  // the backward one, the output at the first
    }
  }
  {
    // [snippet train]
    // A classifier over the final state, trained with Adam: the loop's gradient is derived
    // from the cell's, whatever the sequences' length.
    auto x = tf::placeholder<"x", float, tf::shape<8, tf::dyn, 3>>();
    auto y = tf::placeholder<"y", float, tf::shape<8, 2>>();
    auto [outputs, state] = tf::rnn::dynamic_rnn(tf::rnn::basic_lstm_cell<12>{}, x);
    auto logits = tf::layers::dense<2>(state.h);
    auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
    auto train_op = tf::train::adam(1e-2).minimize(loss);
    tf::session sess(train_op, loss);
    sess.initialize_all();
    // [/snippet train]
    xt::xtensor<float, 2> yv = xt::zeros<float>({8, 2});
    xt::xtensor<float, 3> xv = xt::zeros<float>({8, 5, 3});
    for (std::size_t b = 0; b < 8; ++b) {
      yv(b, b % 2) = 1.0f;
      for (std::size_t t = 0; t < 5; ++t) xv(b, t, b % 3) = b % 2 ? 1.0f : -1.0f;
    }
    const float first = sess.run(loss, tf::feed(x, xv), tf::feed(y, yv));
    for (int i = 0; i < 60; ++i) sess.run(train_op, tf::feed(x, xv), tf::feed(y, yv));
    const float last = sess.run(loss, tf::feed(x, xv), tf::feed(y, yv));
    std::printf("loss %.4f -> %.4f after 60 Adam steps\n", double(first), double(last));
    EXPECT(last < 0.1f * first);
  }
  std::puts("rnn: every value as documented");
  return 0;
}
