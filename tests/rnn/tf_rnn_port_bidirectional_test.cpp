// rnn_test.py / core_rnn_test.py BidirectionalRNNTest, ported (see tf_rnn_port_test.cpp):
// bidirectional_dynamic_rnn of two LSTMCells with the same weights.
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

// ---- BidirectionalRNNTest -------------------------------------------------------------------

// rnn_test.py BidirectionalRNNTest.testBidirectionalDynamicRNN: LSTMCell(3) forward and
// backward with the same weights, every step the same input, sequence_length [2, 3]: the
// forward output at t equals the backward output at length - 1 - t (assertEqual), and the
// two final states are the same; time-major and batch-major, static and unknown batch.
template <bool TimeMajor, class X>
void check_bidirectional(const X& x, bool with_lengths) {
  constexpr std::size_t max_length = 8;
  auto len = tf::placeholder<"sequence_length", std::int64_t, tf::shape<tf::dyn>>();
  auto run = [&](const auto&... opts) {
    if constexpr (TimeMajor) {
      return rnn::bidirectional_dynamic_rnn(rnn::lstm_cell<3>{}, rnn::lstm_cell<3>{}, x, rnn::time_major, opts...);
    } else {
      return rnn::bidirectional_dynamic_rnn(rnn::lstm_cell<3>{}, rnn::lstm_cell<3>{}, x, opts...);
    }
  };
  const mat in = input_value(2, 5);
  seq3 v(TimeMajor ? std::array<std::size_t, 3>{max_length, 2, 5} : std::array<std::size_t, 3>{2, max_length, 5});
  for (std::size_t t = 0; t < max_length; ++t) {
    if constexpr (TimeMajor) {
      xt::view(v, t, xt::all(), xt::all()) = in;
    } else {
      xt::view(v, xt::all(), t, xt::all()) = in;
    }
  }
  auto check = [&](const auto& outs, const auto& states, const std::array<std::size_t, 2>& lengths, auto&&... feeds) {
    auto outputs = tf::concat<2>(outs.first, outs.second);
    using OS = tf::shape_of<decltype(outputs)>;
    static_assert(OS::dims[2] == 6 && OS::dims[TimeMajor ? 0 : 1] == tf::shape_of<X>::dims[TimeMajor ? 0 : 1]);
    tf::session sess(outputs, states.first.c, states.first.h, states.second.c, states.second.h);
    set_weights(sess);
    auto [o, c_fw, h_fw, c_bw, h_bw] =
        sess.run(tf::fetch(outputs, states.first.c, states.first.h, states.second.c, states.second.h), tf::feed(x, v), feeds...);
    seq3 out = o;
    if constexpr (!TimeMajor) out = xt::transpose(o, {1, 0, 2});  // np.swapaxes(out, 0, 1)
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t t = 0; t < lengths[b]; ++t)
        for (std::size_t j = 0; j < 3; ++j) {
          CAPTURE(b);
          CAPTURE(t);
          CHECK(out(t, b, j) == out(lengths[b] - 1 - t, b, 3 + j));
        }
    // Past each length both directions' outputs are zero (TF's _rnn_step / _dynamic_rnn_loop).
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t t = lengths[b]; t < max_length; ++t)
        for (std::size_t j = 0; j < 6; ++j) CHECK(out(t, b, j) == 0.0);
    for (std::size_t i = 0; i < c_fw.size(); ++i) {
      CHECK(c_fw.flat(i) == doctest::Approx(c_bw.flat(i)).epsilon(1e-6));
      CHECK(h_fw.flat(i) == doctest::Approx(h_bw.flat(i)).epsilon(1e-6));
    }
    for (std::size_t b = 0; b < 2; ++b)
      if (lengths[b] == 0)
        for (std::size_t j = 0; j < 3; ++j) {
          CHECK(c_fw(b, j) == 0.0);
          CHECK(h_bw(b, j) == 0.0);
        }
  };
  if (with_lengths) {
    auto [outs, states] = run(rnn::sequence_length(len));
    check(outs, states, {2, 3}, tf::feed(len, xt::xtensor<std::int64_t, 1>{2, 3}));
    // A zero length (GRUTest._testDynamic draws lengths from [0, time_steps)): no output, and
    // both final states the zero initial state.
    check(outs, states, {0, 3}, tf::feed(len, xt::xtensor<std::int64_t, 1>{0, 3}));
  } else {
    auto [outs, states] = run();
    check(outs, states, {max_length, max_length});
  }
}

TEST_CASE("BidirectionalRNNTest.testBidirectionalDynamicRNN: fw at t == bw at length-1-t") {
  for (bool with_lengths : {true, false}) {
    CAPTURE(with_lengths);
    check_bidirectional<true>(tf::placeholder<"x", double, tf::shape<8, 2, 5>>(), with_lengths);
    check_bidirectional<true>(tf::placeholder<"x", double, tf::shape<8, tf::dyn, 5>>(), with_lengths);
    check_bidirectional<false>(tf::placeholder<"x", double, tf::shape<2, 8, 5>>(), with_lengths);
    check_bidirectional<false>(tf::placeholder<"x", double, tf::shape<tf::dyn, 8, 5>>(), with_lengths);
  }
}
