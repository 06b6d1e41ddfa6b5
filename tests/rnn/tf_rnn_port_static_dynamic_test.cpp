// rnn_test.py / core_rnn_test.py LSTMTest.testDynamicRNNWithTupleStates, ported (see
// tf_rnn_port_test.cpp): static_rnn and dynamic_rnn of the library's LSTMCell, the same
// variables, equal outputs and states (the gradients: tf_rnn_port_gradients_test.cpp).
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

// rnn_test.py LSTMTest.testDynamicRNNWithTupleStates (without the peepholes and projection
// typeflow's LSTMCell does not offer): static_rnn and dynamic_rnn (time-major) of one
// LSTMCell, the same variables, sequence_length [4, 6] over 8 steps: the same outputs, and
// the state an lstm_state_tuple (c, h) with the same values (assertAllEqual).
TEST_CASE("LSTMTest.testDynamicRNNWithTupleStates: static_rnn == dynamic_rnn, lstm_state_tuple") {
  auto x = tf::placeholder<"x", double, tf::shape<8, tf::dyn, 5>>();
  const xt::xtensor<std::int32_t, 1> lengths = {4, 6};
  auto len = tf::placeholder<"sequence_length", std::int32_t, tf::shape<2>>();
  auto [st_outs, st_state] = rnn::static_rnn(rnn::lstm_cell<3>{}, tf::unstack<0>(x), rnn::zero_initial_state, len);
  auto [dy_outs, dy_state] = rnn::dynamic_rnn(rnn::lstm_cell<3>{}, x, rnn::sequence_length(len), rnn::time_major);
  static_assert(rnn::detail::is_lstm_state<decltype(st_state)>::value);
  static_assert(rnn::detail::is_lstm_state<decltype(dy_state)>::value);
  auto stacked = std::apply([](const auto&... o) { return tf::stack<0>(o...); }, st_outs);
  tf::session sess(stacked, dy_outs, st_state.c, st_state.h, dy_state.c, dy_state.h);
  set_weights(sess);
  const mat in = input_value(2, 5);
  seq3 v(std::array<std::size_t, 3>{8, 2, 5});
  for (std::size_t t = 0; t < 8; ++t) xt::view(v, t, xt::all(), xt::all()) = in;
  auto [a, b, sc, sh, dc, dh] =
      sess.run(tf::fetch(stacked, dy_outs, st_state.c, st_state.h, dy_state.c, dy_state.h), tf::feed(x, v),
               tf::feed(len, lengths));
  CHECK(a == b);
  CHECK(sc == dc);
  CHECK(sh == dh);
  // and the outputs are zero past each length
  for (std::size_t j = 0; j < 3; ++j) {
    CHECK(b(4, 0, j) == 0.0);
    CHECK(b(6, 1, j) == 0.0);
    CHECK(b(3, 0, j) != 0.0);
  }
}
