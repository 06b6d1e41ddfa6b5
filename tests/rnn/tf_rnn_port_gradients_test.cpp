// rnn_test.py / core_rnn_test.py LSTMTest.testDynamicEquivalentToStaticRNN, ported (see
// tf_rnn_port_test.cpp): the gradients of static_rnn and dynamic_rnn of one LSTMCell agree.
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

// rnn_test.py / core_rnn_test.py LSTMTest.testDynamicEquivalentToStaticRNN (LSTMCell(3)
// without the peepholes and projection, time-major, batch 2, input 5, lengths drawn from
// [0, time_steps)): static_rnn and dynamic_rnn in one scope ("dynamic_scope", the same
// variables) give the same outputs and final state, and the same gradients of the sum of the
// outputs and the state (tf.gradients(outputs + [state], ...)) with respect to the inputs and
// to every trainable variable, over 8 steps. TF also differentiates the first and the last
// output and the state alone (those pass too, but double this TU's compile time, to 31 s
// with g++ 12). TF asserts equality (assertAllEqual); a loop accumulates a
// variable's gradient over the steps in another order than the unrolled graph's sum, so
// here: 1e-12 relative.
TEST_CASE("LSTMTest.testDynamicEquivalentToStaticRNN: outputs, state and gradients") {
  constexpr std::size_t steps = 8;
  auto x = tf::placeholder<"concat_inputs", double, tf::shape<steps, 2, 5>>();
  auto len = tf::placeholder<"sequence_length", std::int32_t, tf::shape<2>>();
  auto [st_outs, st_state] =
      rnn::static_rnn<"dynamic_scope">(rnn::lstm_cell<3>{}, tf::unstack<0>(x), rnn::zero_initial_state, len);
  auto [dy_outs, dy_state] =
      rnn::dynamic_rnn<"dynamic_scope">(rnn::lstm_cell<3>{}, x, rnn::sequence_length(len), rnn::time_major);
  auto kernel = tf::variable<"dynamic_scope/lstm_cell/kernel", double, tf::shape<8, 12>, tf::init::glorot_uniform()>();
  auto bias = tf::variable<"dynamic_scope/lstm_cell/bias", double, tf::shape<12>, tf::init::zeros()>();
  auto st_stacked = std::apply([](const auto&... o) { return tf::stack<0>(o...); }, st_outs);
  auto st_all = tf::reduce_sum(st_stacked) + tf::reduce_sum(st_state.c) + tf::reduce_sum(st_state.h);
  auto dy_all = tf::reduce_sum(dy_outs) + tf::reduce_sum(dy_state.c) + tf::reduce_sum(dy_state.h);
  auto gsx = tf::gradient(st_all, x);
  auto gdx = tf::gradient(dy_all, x);
  auto gsk = tf::gradient(st_all, kernel);
  auto gdk = tf::gradient(dy_all, kernel);
  auto gsb = tf::gradient(st_all, bias);
  auto gdb = tf::gradient(dy_all, bias);
  tf::session sess(st_stacked, dy_outs, st_state.c, dy_state.c, gsx, gdx, gsk, gdk, gsb, gdb);
  set_weights(sess);
  seq3 v(std::array<std::size_t, 3>{steps, 2, 5});
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = std::sin(1.3 * double(i) + 0.2);
  auto close = [](const auto& a, const auto& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(i);
      CHECK(std::abs(a.flat(i) - b.flat(i)) <= 1e-12 * (1.0 + std::abs(a.flat(i))));
    }
  };
  for (const auto& lengths : {xt::xtensor<std::int32_t, 1>{5, 2}, xt::xtensor<std::int32_t, 1>{0, 7},
                              xt::xtensor<std::int32_t, 1>{8, 8}}) {
    CAPTURE(lengths(0));
    CAPTURE(lengths(1));
    auto [so, dout, sc, dc, sx, dx, sk, dk, sb, db] =
        sess.run(tf::fetch(st_stacked, dy_outs, st_state.c, dy_state.c, gsx, gdx, gsk, gdk, gsb, gdb), tf::feed(x, v),
                 tf::feed(len, lengths));
    close(so, dout);
    close(sc, dc);
    close(sx, dx);
    close(sk, dk);
    close(sb, db);
  }
}
