// TensorFlow 1.x's own RNN tests, ported: rnn_test.py / contrib core_rnn_test.py (RNNTest,
// GRUTest, LSTMTest, BidirectionalRNNTest) and core_rnn_cell_test.py (RNNCellTest,
// DropoutWrapperTest), for what typeflow's API expresses. Each case names the TF test it
// ports and asserts what that test asserts: TF's literal values, or the equivalence it
// checks (forward = backward reversed, static = dynamic, zeros past each length, names).
// This file: the drivers (static_rnn, dynamic_rnn) on Plus1RNNCell, sequence_length, shapes,
// and the scope tests.
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

// ---- rnn_test.py / core_rnn_test.py: RNNTest ------------------------------------------------

// rnn_test.py RNNTest.testRNN: static_rnn of Plus1RNNCell over 8 steps of one input: every
// output is input + 1, the final state 8 (zeros plus one per step); shapes and dtypes kept.
TEST_CASE("RNNTest.testRNN: static_rnn of Plus1RNNCell, outputs input + 1, state max_length") {
  auto x = tf::placeholder<"x", float, tf::shape<2, 5>>();
  auto [outs, state] = rnn::static_rnn(plus1_cell{}, std::tuple{x, x, x, x, x, x, x, x});
  static_assert(std::tuple_size_v<decltype(outs)> == 8);
  static_assert(std::is_same_v<tf::shape_of<std::tuple_element_t<7, decltype(outs)>>, tf::shape<2, 5>>);
  static_assert(std::is_same_v<tf::value_type_of<std::tuple_element_t<0, decltype(outs)>>, float>);
  tf::session sess(std::get<0>(outs), std::get<7>(outs), state);
  const xt::xtensor<float, 2> in = xt::cast<float>(input_value(2, 5));
  auto [o0, o7, s] = sess.run(tf::fetch(std::get<0>(outs), std::get<7>(outs), state), tf::feed(x, in));
  for (std::size_t i = 0; i < in.size(); ++i) {
    CHECK(o0.flat(i) == doctest::Approx(in.flat(i) + 1.0f));
    CHECK(o7.flat(i) == doctest::Approx(in.flat(i) + 1.0f));
  }
  check_all(s, 8.0);
}

// The same through dynamic_rnn (rnn_test.py's dynamic_rnn over the stacked inputs): batch-
// and time-major, outputs input + 1 at every step, final state max_length.
TEST_CASE("RNNTest.testRNN through dynamic_rnn: Plus1RNNCell, batch-major and time-major") {
  auto xb = tf::placeholder<"xb", double, tf::shape<2, tf::dyn, 5>>();
  auto xt_ = tf::placeholder<"xt", double, tf::shape<tf::dyn, 2, 5>>();
  auto [ob, sb] = rnn::dynamic_rnn(plus1_cell{}, xb);
  auto [ot, st] = rnn::dynamic_rnn(plus1_cell{}, xt_, rnn::time_major);
  tf::session sess(ob, sb, ot, st);
  seq3 vb(std::array<std::size_t, 3>{2, 8, 5});
  for (std::size_t i = 0; i < vb.size(); ++i) vb.flat(i) = std::cos(0.9 * double(i));
  const seq3 vt = xt::transpose(vb, {1, 0, 2});
  auto [out_b, s_b] = sess.run(tf::fetch(ob, sb), tf::feed(xb, vb));
  auto [out_t, s_t] = sess.run(tf::fetch(ot, st), tf::feed(xt_, vt));
  REQUIRE(out_b.shape() == std::array<std::size_t, 3>{2, 8, 5});
  REQUIRE(out_t.shape() == std::array<std::size_t, 3>{8, 2, 5});
  for (std::size_t i = 0; i < vb.size(); ++i) CHECK(out_b.flat(i) == vb.flat(i) + 1.0);
  for (std::size_t i = 0; i < vt.size(); ++i) CHECK(out_t.flat(i) == vt.flat(i) + 1.0);
  check_all(s_b, 8.0, 0.0);
  check_all(s_t, 8.0, 0.0);
}

// rnn_test.py RNNTest.testDynamicCalculation: static_rnn with sequence_length [2, 3]: outputs
// computed at t = 0, 1; at t = 2 zero for example 0 and computed for example 1; zero from
// t = 3; the final state the state at each length (2 and 3).
TEST_CASE("RNNTest.testDynamicCalculation: static_rnn with sequence_length [2, 3]") {
  auto x = tf::placeholder<"x", float, tf::shape<2, 5>>();
  auto len = tf::placeholder<"len", std::int64_t, tf::shape<tf::dyn>>();
  auto [outs, state] =
      rnn::static_rnn<"drop_scope">(plus1_cell{}, std::tuple{x, x, x, x, x, x, x, x}, rnn::zero_initial_state, len);
  tf::session sess(std::get<0>(outs), std::get<1>(outs), std::get<2>(outs), std::get<3>(outs), std::get<7>(outs), state);
  const xt::xtensor<float, 2> in = xt::cast<float>(input_value(2, 5));
  const xt::xtensor<std::int64_t, 1> lengths = {2, 3};
  auto [o0, o1, o2, o3, o7, s] =
      sess.run(tf::fetch(std::get<0>(outs), std::get<1>(outs), std::get<2>(outs), std::get<3>(outs), std::get<7>(outs), state),
               tf::feed(x, in), tf::feed(len, lengths));
  for (std::size_t j = 0; j < 5; ++j) {
    CAPTURE(j);
    for (std::size_t b = 0; b < 2; ++b) {
      CHECK(o0(b, j) == doctest::Approx(in(b, j) + 1.0f));
      CHECK(o1(b, j) == doctest::Approx(in(b, j) + 1.0f));
      CHECK(o3(b, j) == 0.0f);
      CHECK(o7(b, j) == 0.0f);
    }
    CHECK(o2(0, j) == 0.0f);
    CHECK(o2(1, j) == doctest::Approx(in(1, j) + 1.0f));
    CHECK(s(0, j) == 2.0f);  // assertAllEqual
    CHECK(s(1, j) == 3.0f);
  }
}

// The same contract through dynamic_rnn (rnn.py's _dynamic_rnn_loop with sequence_length:
// zero outputs and the state copied through past each length), time-major as TF's tests.
TEST_CASE("RNNTest.testDynamicCalculation through dynamic_rnn: sequence_length [2, 3], time-major") {
  auto x = tf::placeholder<"x", float, tf::shape<8, 2, 5>>();
  auto len = tf::placeholder<"len", std::int64_t, tf::shape<2>>();
  auto [outs, state] = rnn::dynamic_rnn<"drop_scope">(plus1_cell{}, x, rnn::sequence_length(len), rnn::time_major);
  tf::session sess(outs, state);
  const xt::xtensor<float, 2> in = xt::cast<float>(input_value(2, 5));
  xt::xtensor<float, 3> v(std::array<std::size_t, 3>{8, 2, 5});
  for (std::size_t t = 0; t < 8; ++t) xt::view(v, t, xt::all(), xt::all()) = in;
  const xt::xtensor<std::int64_t, 1> lengths = {2, 3};
  auto [o, s] = sess.run(tf::fetch(outs, state), tf::feed(x, v), tf::feed(len, lengths));
  for (std::size_t t = 0; t < 8; ++t)
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t j = 0; j < 5; ++j) {
        CAPTURE(t);
        CAPTURE(b);
        CHECK(o(t, b, j) == (std::int64_t(t) < lengths(b) ? in(b, j) + 1.0f : 0.0f));
      }
  for (std::size_t j = 0; j < 5; ++j) {
    CHECK(s(0, j) == 2.0f);
    CHECK(s(1, j) == 3.0f);
  }
}

// rnn_test.py RNNTest.testBatchSizeFromInput: the batch of the outputs and of the state is the
// input's, static or unknown, with and without an initial state.
TEST_CASE("RNNTest.testBatchSizeFromInput: outputs and state take the input's batch") {
  auto x = tf::placeholder<"x", float, tf::shape<3, 4, 5>>();
  auto s0 = tf::placeholder<"s0", float, tf::shape<3, 5>>();
  auto [o1, st1] = rnn::dynamic_rnn(plus1_cell{}, x);
  auto [o2, st2] = rnn::dynamic_rnn(plus1_cell{}, x, rnn::initial_state(s0));
  static_assert(tf::shape_of<decltype(o1)>::dims[0] == 3 && tf::shape_of<decltype(st1)>::dims[0] == 3);
  static_assert(tf::shape_of<decltype(o2)>::dims[0] == 3 && tf::shape_of<decltype(st2)>::dims[0] == 3);
  auto xd = tf::placeholder<"xd", float, tf::shape<tf::dyn, 4, 5>>();
  auto sd = tf::placeholder<"sd", float, tf::shape<tf::dyn, 5>>();
  auto [o3, st3] = rnn::dynamic_rnn(plus1_cell{}, xd);
  auto [o4, st4] = rnn::dynamic_rnn(plus1_cell{}, xd, rnn::initial_state(sd));
  static_assert(tf::shape_of<decltype(o3)>::dims[0] == tf::dyn && tf::shape_of<decltype(st3)>::dims[0] == tf::dyn);
  static_assert(tf::shape_of<decltype(o4)>::dims[0] == tf::dyn && tf::shape_of<decltype(st4)>::dims[0] == tf::dyn);
  tf::session sess(st3, st4);
  const xt::xtensor<float, 3> v = xt::zeros<float>({6, 4, 5});
  const xt::xtensor<float, 2> z = xt::zeros<float>({6, 5});
  auto [a, b] = sess.run(tf::fetch(st3, st4), tf::feed(xd, v), tf::feed(sd, z));
  CHECK(a.shape()[0] == 6);
  CHECK(b.shape()[0] == 6);
  check_all(a, 4.0, 0.0);
  check_all(b, 4.0, 0.0);
}

// rnn_test.py RNNTest.testScope, GRUTest.testDynamicScope, BidirectionalRNNTest.
// testBidirectionalDynamicRNNScope: every variable under the scope given, or under the
// default scope ("rnn"; "bidirectional_rnn" with fw/ and bw/).
TEST_CASE("RNNTest.testScope, GRUTest.testDynamicScope: every variable under the scope") {
  auto x = tf::placeholder<"x", float, tf::shape<8, 2, 5>>();
  auto [o1, s1] = rnn::dynamic_rnn<"prefix">(rnn::gru_cell<3>{}, x, rnn::time_major);
  tf::session sess1(o1);
  CHECK(names_of(sess1) == std::vector<std::string>{"prefix/gru_cell/gates/kernel", "prefix/gru_cell/gates/bias",
                                                    "prefix/gru_cell/candidate/kernel", "prefix/gru_cell/candidate/bias"});
  auto [o2, s2] = rnn::dynamic_rnn(rnn::gru_cell<3>{}, x, rnn::time_major);
  tf::session sess2(o2);
  CHECK(all_start_with(names_of(sess2), "rnn/"));
  auto x0 = tf::placeholder<"x0", float, tf::shape<2, 5>>();
  auto [o3, s3] = rnn::static_rnn<"prefix">(rnn::basic_lstm_cell<3>{}, std::tuple{x0, x0});
  tf::session sess3(std::get<1>(o3));
  CHECK(names_of(sess3) == std::vector<std::string>{"prefix/basic_lstm_cell/kernel", "prefix/basic_lstm_cell/bias"});
  auto [o4, s4] = rnn::bidirectional_dynamic_rnn(rnn::lstm_cell<3>{}, rnn::lstm_cell<3>{}, x, rnn::time_major);
  tf::session sess4(o4.first, o4.second);
  CHECK(names_of(sess4) == std::vector<std::string>{"bidirectional_rnn/fw/lstm_cell/kernel", "bidirectional_rnn/fw/lstm_cell/bias",
                                                    "bidirectional_rnn/bw/lstm_cell/kernel", "bidirectional_rnn/bw/lstm_cell/bias"});
  auto [o5, s5] = rnn::bidirectional_dynamic_rnn<"prefix">(rnn::lstm_cell<3>{}, rnn::lstm_cell<3>{}, x, rnn::time_major);
  tf::session sess5(o5.first, o5.second);
  CHECK(all_start_with(names_of(sess5), "prefix/"));
  CHECK(names_of(sess5).size() == 4);
}
