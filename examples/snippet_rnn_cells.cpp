// docs/reference/rnn-cells.md: TensorFlow 1.x's recurrent cells and static_rnn.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <type_traits>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

int main() {
  {
    // [snippet step]
    // tf.nn.rnn_cell.GRUCell(4); output, new_h = cell(x, h) under variable_scope("rnn")
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
    auto h = tf::placeholder<"h", float, tf::shape<tf::dyn, 4>>();
    rnn::gru_cell<4> cell;
    auto [output, new_h] = cell(x, h);             // variables "rnn/gru_cell/gates/kernel", ...
    auto [o2, h2] = cell.call<"decoder">(x, h);    // "decoder/gru_cell/gates/kernel", ...

    // tf.nn.rnn_cell.BasicLSTMCell(4, forget_bias=1.0): the state is (c, h)
    rnn::basic_lstm_cell<4> lstm;
    auto zero = rnn::zero_state(lstm, x);          // cell.zero_state(batch_size, tf.float32)
    auto [lstm_out, lstm_state] = lstm(x, zero);   // lstm_state.c, lstm_state.h
    static_assert(std::is_same_v<tf::shape_of<decltype(lstm_state.c)>, tf::shape<tf::dyn, 4>>);
    // [/snippet step]
    tf::session sess(output, o2, lstm_out);
    sess.run(tf::global_variables_initializer());
    xt::xtensor<float, 2> xv = xt::ones<float>({2, 3}), hv = xt::zeros<float>({2, 4});
    auto [a, b, c] = sess.run(tf::fetch(output, o2, lstm_out), tf::feed(x, xv), tf::feed(h, hv));
    EXPECT(a.shape()[0] == 2 && b.shape()[1] == 4 && c.shape()[1] == 4);
    (void)new_h;
    (void)h2;
  }
  {
    // [snippet static_rnn]
    // outputs, state = tf.nn.static_rnn(MultiRNNCell([GRUCell(8), GRUCell(8)]),
    //                                   tf.unstack(x, axis=1), sequence_length=lengths)
    auto x = tf::placeholder<"x", float, tf::shape<2, 3, 5>>();  // [batch, time, depth]
    auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<2>>();
    auto cell = rnn::multi_rnn_cell(rnn::gru_cell<8>{}, rnn::gru_cell<8>{});
    auto [outputs, state] = rnn::static_rnn(cell, tf::unstack<1>(x), rnn::zero_initial_state, lengths);
    // outputs: a std::tuple of 3 [2, 8] nodes, zero past each example's length
    // state: std::tuple of the two GRUs' final states, each the state at its example's length
    // variables: "rnn/multi_rnn_cell/cell_0/gru_cell/gates/kernel" [13, 16], ...,
    //            "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/bias" [8]
    // [/snippet static_rnn]
    tf::session sess(std::get<2>(outputs), std::get<1>(state));
    sess.run(tf::global_variables_initializer());
    xt::xtensor_fixed<float, xt::xshape<2, 3, 5>> xv{};
    xv.fill(0.5f);
    xt::xtensor_fixed<std::int32_t, xt::xshape<2>> lv{3, 1};
    auto [last, top] = sess.run(tf::fetch(std::get<2>(outputs), std::get<1>(state)), tf::feed(x, xv), tf::feed(lengths, lv));
    for (std::size_t j = 0; j < 8; ++j) {
      EXPECT(last(1, j) == 0.0f);      // example 1 has length 1: step 2's output is zero
      EXPECT(last(0, j) == top(0, j)); // example 0 runs all 3 steps: its last output is its state
    }
  }
  return 0;
}
