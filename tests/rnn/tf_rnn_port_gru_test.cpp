// rnn_test.py / core_rnn_test.py GRUTest and LSTMTest cases over dynamic_rnn, ported (see
// tf_rnn_port_test.cpp): zero sequence lengths, an unknown time dimension, nested state tuples.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

#include "tf_rnn_port.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;
using namespace tf_rnn_port;

// sequence_length 0 (rnn_test.py's GRUTest._testDynamic draws lengths from [0, time_steps)):
// every output is zero and the final state is the initial state, for every example.
TEST_CASE("GRUTest.testDynamic: zero lengths give zero outputs and the initial state, exactly") {
  auto x = tf::placeholder<"x", double, tf::shape<tf::dyn, 3, 5>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<3>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<3, 3>>();
  auto [outs, state] = rnn::dynamic_rnn<"dynamic_scope">(rnn::gru_cell<3>{}, x, rnn::sequence_length(len),
                                                         rnn::time_major, rnn::initial_state(h0));
  tf::session sess(outs, state);
  sess.initialize_all();
  seq3 v(std::array<std::size_t, 3>{8, 3, 5});
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = std::sin(0.37 * double(i));
  const mat h = input_value(3, 3, 1.1);
  for (const auto& lengths : {xt::xtensor<std::int32_t, 1>{0, 0, 0}, xt::xtensor<std::int32_t, 1>{0, 5, 7}}) {
    auto [o, s] = sess.run(tf::fetch(outs, state), tf::feed(x, v), tf::feed(len, lengths), tf::feed(h0, h));
    for (std::size_t b = 0; b < 3; ++b) {
      CAPTURE(b);
      for (std::size_t t = std::size_t(lengths(b)); t < 8; ++t)
        for (std::size_t j = 0; j < 3; ++j) CHECK(o(t, b, j) == 0.0);
      if (lengths(b) == 0)
        for (std::size_t j = 0; j < 3; ++j) CHECK(s(b, j) == h(b, j));
    }
  }
}

// ---- LSTMTest -----------------------------------------------------------------------------

// rnn_test.py LSTMTest.testDynamicRNNAllowsUnknownTimeDimension: GRUCell(30) over [1, None, 20].
TEST_CASE("LSTMTest.testDynamicRNNAllowsUnknownTimeDimension") {
  auto x = tf::placeholder<"x", float, tf::shape<1, tf::dyn, 20>>();
  auto [outs, state] = rnn::dynamic_rnn(rnn::gru_cell<30>{}, x);
  static_assert(std::is_same_v<tf::shape_of<decltype(outs)>, tf::shape<1, tf::dyn, 30>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(state)>, tf::shape<1, 30>>);
  tf::session sess(outs);
  sess.initialize_all();
  for (std::size_t steps : {1u, 3u}) {
    const xt::xtensor<float, 3> v = xt::ones<float>({std::size_t(1), steps, std::size_t(20)});
    auto o = sess.run(outs, tf::feed(x, v));
    CHECK(o.shape() == std::array<std::size_t, 3>{1, steps, 30});
  }
}

// rnn_test.py LSTMTest.testDynamicRNNWithNestedTupleStates (without peepholes and
// projections): MultiRNNCell of LSTMCells of 3, 4, 5 and 6 units, state_is_tuple: the state
// is a tuple of 4 (c, h) pairs, zero_state's widths are the cells' state sizes, the output is
// the last cell's. Its dynamic_rnn with sequence_length [4, 6] over 8 steps equals the cells
// run one after the other, each its own dynamic_rnn on the previous one's outputs, under the
// scopes MultiRNNCell gives them ("rnn/multi_rnn_cell/cell_<i>", the same variables).
TEST_CASE("LSTMTest.testDynamicRNNWithNestedTupleStates: MultiRNNCell of LSTMCells, state tuples") {
  auto cell = rnn::multi_rnn_cell(rnn::lstm_cell<3>{}, rnn::lstm_cell<4>{}, rnn::lstm_cell<5>{}, rnn::lstm_cell<6>{});
  static_assert(decltype(cell)::state_sizes == std::array<std::size_t, 8>{3, 3, 4, 4, 5, 5, 6, 6});
  static_assert(decltype(cell)::output_size == 6);  // "Final output comes from _cell(3)"
  auto one = tf::placeholder<"one", float, tf::shape<1, 5>>();
  auto test_zero = rnn::zero_state(cell, one);
  static_assert(std::tuple_size_v<decltype(test_zero)> == 4);
  static_assert(tf::shape_of<decltype(std::get<0>(test_zero).c)>::dims[1] == 3);
  static_assert(tf::shape_of<decltype(std::get<3>(test_zero).h)>::dims[1] == 6);

  auto x = tf::placeholder<"x", double, tf::shape<8, 2, 5>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<2>>();
  auto two = rnn::multi_rnn_cell(rnn::lstm_cell<3>{}, rnn::lstm_cell<4>{});
  auto [outs, state] = rnn::dynamic_rnn(two, x, rnn::sequence_length(len), rnn::time_major);
  static_assert(std::tuple_size_v<decltype(state)> == 2);
  static_assert(rnn::detail::is_lstm_state<std::tuple_element_t<1, decltype(state)>>::value);
  auto [o0, s0] = rnn::dynamic_rnn<"rnn/multi_rnn_cell/cell_0">(rnn::lstm_cell<3>{}, x, rnn::sequence_length(len), rnn::time_major);
  auto [o1, s1] = rnn::dynamic_rnn<"rnn/multi_rnn_cell/cell_1">(rnn::lstm_cell<4>{}, o0, rnn::sequence_length(len), rnn::time_major);
  tf::session sess(outs, std::get<0>(state).c, std::get<1>(state).h, o1, s0.c, s1.h);
  static_assert(boost::mp11::mp_size<decltype(sess)::variables>::value == 4);
  set_weights(sess);
  seq3 v(std::array<std::size_t, 3>{8, 2, 5});
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = std::sin(0.71 * double(i) + 0.4);
  const xt::xtensor<std::int32_t, 1> lengths = {4, 6};
  auto [a, c0, h1, b, c0_, h1_] = sess.run(tf::fetch(outs, std::get<0>(state).c, std::get<1>(state).h, o1, s0.c, s1.h),
                                           tf::feed(x, v), tf::feed(len, lengths));
  CHECK(a == b);
  CHECK(c0 == c0_);
  CHECK(h1 == h1_);
  for (std::size_t j = 0; j < 4; ++j) {
    CHECK(a(4, 0, j) == 0.0);
    CHECK(a(6, 1, j) == 0.0);
  }
}
