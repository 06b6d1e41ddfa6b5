// rnn::dynamic_rnn and rnn::bidirectional_dynamic_rnn, ported from TensorFlow's rnn_test.py
// (testDynamicRNN..., testBidirectional...): the same values unrolled by hand, time-major
// and batch-major alike, sequence_length (zero outputs, states carried past each length),
// initial_state, variable names, and gradients against central differences.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/typeflow.hpp>
#include <xtensor/xview.hpp>

#include "../autodiff/fd_check.hpp"
#include "toy_cell.hpp"

namespace tf = typeflow;

namespace {
using seq3 = xt::xtensor<double, 3>;
using mat = xt::xtensor<double, 2>;

seq3 random_sequence(std::size_t a, std::size_t b, std::size_t c) {
  return fd_check::fill_uniform(seq3(std::array<std::size_t, 3>{a, b, c}));
}
}  // namespace

TEST_CASE("dynamic_rnn: outputs and final state equal the cell unrolled by hand") {
  auto x = tf::placeholder<"x", double, tf::shape<tf::dyn, tf::dyn, 3>>();
  auto [outputs, state] = tf::rnn::dynamic_rnn(toy_cell<4>{}, x);
  static_assert(std::is_same_v<tf::shape_of<decltype(outputs)>, tf::shape<tf::dyn, tf::dyn, 4>>);
  static_assert(std::is_same_v<tf::shape_of<std::tuple_element_t<0, decltype(state)>>, tf::shape<tf::dyn, 4>>);
  // The same cell, called on one step by hand, with the loop's variables.
  auto xt0 = tf::placeholder<"x_t", double, tf::shape<tf::dyn, 3>>();
  auto h = tf::placeholder<"h", double, tf::shape<tf::dyn, 4>>();
  auto c = tf::placeholder<"c", double, tf::shape<tf::dyn, 4>>();
  auto [o1, s1] = toy_cell<4>{}.step<"rnn">(xt0, std::tuple{h, c});
  tf::session s(outputs, std::get<0>(state), std::get<1>(state), o1, std::get<0>(s1), std::get<1>(s1));
  s.initialize_all();
  CHECK(s.uninitialized_names().empty());
  const seq3 xv = random_sequence(2, 5, 3);  // batch 2, time 5
  const auto [out, hT, cT] = s.run(tf::fetch(outputs, std::get<0>(state), std::get<1>(state)), tf::feed(x, xv));
  REQUIRE(out.shape() == std::array<std::size_t, 3>{2, 5, 4});
  mat hv = xt::zeros<double>({2, 4}), cv = xt::zeros<double>({2, 4});
  for (std::size_t t = 0; t < 5; ++t) {
    const mat xs = xt::view(xv, xt::all(), t, xt::all());
    const auto [ov, hn, cn] =
        s.run(tf::fetch(o1, std::get<0>(s1), std::get<1>(s1)), tf::feed(xt0, xs), tf::feed(h, hv), tf::feed(c, cv));
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t j = 0; j < 4; ++j) CHECK(out(b, t, j) == doctest::Approx(ov(b, j)).epsilon(1e-14));
    hv = hn;
    cv = cn;
  }
  for (std::size_t i = 0; i < hv.size(); ++i) {
    CHECK(hT.flat(i) == doctest::Approx(hv.flat(i)).epsilon(1e-14));
    CHECK(cT.flat(i) == doctest::Approx(cv.flat(i)).epsilon(1e-14));
  }
}

TEST_CASE("dynamic_rnn: time-major and batch-major agree; initial_state is used") {
  auto xb = tf::placeholder<"xb", double, tf::shape<2, tf::dyn, 3>>();
  auto xt_ = tf::placeholder<"xt", double, tf::shape<tf::dyn, 2, 3>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<2, 4>>();
  auto c0 = tf::placeholder<"c0", double, tf::shape<2, 4>>();
  auto [ob, sb] = tf::rnn::dynamic_rnn(toy_cell<4>{}, xb, tf::rnn::initial_state(std::tuple{h0, c0}));
  auto [ot, st] = tf::rnn::dynamic_rnn(toy_cell<4>{}, xt_, tf::rnn::time_major, tf::rnn::initial_state(std::tuple{h0, c0}));
  static_assert(std::is_same_v<tf::shape_of<decltype(ob)>, tf::shape<2, tf::dyn, 4>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(ot)>, tf::shape<tf::dyn, 2, 4>>);
  tf::session s(ob, ot, std::get<1>(sb), std::get<1>(st));
  s.initialize_all();
  const seq3 xv = random_sequence(2, 6, 3);
  const seq3 xv_t = xt::transpose(xv, {1, 0, 2});
  const mat hv = fd_check::uniform<tf::shape<2, 4>>(), cv = fd_check::uniform<tf::shape<2, 4>>();
  const auto [b_out, b_c] = s.run(tf::fetch(ob, std::get<1>(sb)), tf::feed(xb, xv), tf::feed(h0, hv), tf::feed(c0, cv));
  const auto [t_out, t_c] = s.run(tf::fetch(ot, std::get<1>(st)), tf::feed(xt_, xv_t), tf::feed(h0, hv), tf::feed(c0, cv));
  CHECK(seq3(xt::transpose(t_out, {1, 0, 2})) == b_out);
  CHECK(t_c == b_c);
  // The initial state matters: zeros give another result.
  const auto [z_out, z_c] = s.run(tf::fetch(ob, std::get<1>(sb)), tf::feed(xb, xv), tf::feed(h0, mat(xt::zeros<double>({2, 4}))),
                                  tf::feed(c0, mat(xt::zeros<double>({2, 4}))));
  CHECK(z_c != b_c);
}

TEST_CASE("dynamic_rnn: sequence_length zeroes outputs and keeps the state past each length") {
  // rnn_test.py's testDynamicRNNWithSequenceLength... : each example alone, run for exactly
  // its length, gives its outputs up to the length and its final state.
  auto x = tf::placeholder<"x", double, tf::shape<tf::dyn, tf::dyn, 3>>();
  auto len = tf::placeholder<"len", std::int64_t, tf::shape<tf::dyn>>();
  auto [outputs, state] = tf::rnn::dynamic_rnn(toy_cell<4>{}, x, tf::rnn::sequence_length(len));
  tf::session s(outputs, std::get<0>(state), std::get<1>(state));
  s.initialize_all();
  const seq3 xv = random_sequence(3, 5, 3);
  const xt::xtensor<std::int64_t, 1> lengths = {5, 2, 0};
  const auto [out, hT, cT] = s.run(tf::fetch(outputs, std::get<0>(state), std::get<1>(state)), tf::feed(x, xv),
                                   tf::feed(len, lengths));
  for (std::size_t b = 0; b < 3; ++b) {
    CAPTURE(b);
    const std::size_t n = std::size_t(lengths(b));
    const seq3 one = xt::view(xv, xt::range(b, b + 1), xt::range(0, n), xt::all());
    const xt::xtensor<std::int64_t, 1> ln = {std::int64_t(n)};
    const auto [o1, h1, c1] = s.run(tf::fetch(outputs, std::get<0>(state), std::get<1>(state)), tf::feed(x, one),
                                    tf::feed(len, ln));
    for (std::size_t t = 0; t < 5; ++t)
      for (std::size_t j = 0; j < 4; ++j)
        CHECK(out(b, t, j) == doctest::Approx(t < n ? o1(0, t, j) : 0.0).epsilon(1e-14));
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK(hT(b, j) == doctest::Approx(h1(0, j)).epsilon(1e-14));
      CHECK(cT(b, j) == doctest::Approx(c1(0, j)).epsilon(1e-14));
    }
  }
}

TEST_CASE("bidirectional_dynamic_rnn: the backward direction runs over each sequence reversed within its length") {
  auto x = tf::placeholder<"x", double, tf::shape<tf::dyn, tf::dyn, 3>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<tf::dyn>>();
  auto [outs, states] = tf::rnn::bidirectional_dynamic_rnn(toy_cell<4>{}, toy_cell<4>{}, x, tf::rnn::sequence_length(len));
  // The backward direction by hand: reverse_sequence, the bw cell's dynamic_rnn, reverse back.
  auto rev = tf::reverse_sequence<1, 0>(x, len);
  auto [bw_by_hand, bw_state] = tf::rnn::dynamic_rnn<"bidirectional_rnn/bw">(toy_cell<4>{}, rev, tf::rnn::sequence_length(len));
  auto bw_back = tf::reverse_sequence<1, 0>(bw_by_hand, len);
  tf::session s(outs.first, outs.second, bw_back, std::get<0>(states.second), std::get<0>(bw_state));
  // TensorFlow's names: each direction's cell under "<scope>/fw" and "<scope>/bw".
  CHECK(s.uninitialized_names() == std::vector<std::string>{"bidirectional_rnn/fw/toy_cell/kernel", "bidirectional_rnn/fw/toy_cell/bias",
                                                            "bidirectional_rnn/bw/toy_cell/kernel", "bidirectional_rnn/bw/toy_cell/bias"});
  s.initialize_all();
  const seq3 xv = random_sequence(2, 4, 3);
  const xt::xtensor<std::int32_t, 1> lengths = {4, 3};
  const auto [bw, by_hand, s_bw, s_hand] =
      s.run(tf::fetch(outs.second, bw_back, std::get<0>(states.second), std::get<0>(bw_state)), tf::feed(x, xv),
            tf::feed(len, lengths));
  CHECK(bw == by_hand);
  CHECK(s_bw == s_hand);
  // Example 1 has length 3: its backward output at time 3 is zero, at time 0 it has seen
  // all three steps.
  for (std::size_t j = 0; j < 4; ++j) CHECK(bw(1, 3, j) == 0.0);
  // The forward direction of an example does not depend on its padding.
  seq3 padded = xv;
  xt::view(padded, 1, 3, xt::all()) = 100.0;
  const seq3 fw1 = s.run(outs.first, tf::feed(x, xv), tf::feed(len, lengths));
  const seq3 fw2 = s.run(outs.first, tf::feed(x, padded), tf::feed(len, lengths));
  CHECK(fw1 == fw2);
}

TEST_CASE("dynamic_rnn: gradients with respect to inputs, initial state and kernel") {
  auto x = tf::placeholder<"x", double, tf::shape<2, tf::dyn, 3>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<2>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<2, 4>>();
  auto c0 = tf::placeholder<"c0", double, tf::shape<2, 4>>();
  auto [outputs, state] = tf::rnn::dynamic_rnn(toy_cell<4>{}, x, tf::rnn::initial_state(std::tuple{h0, c0}), tf::rnn::sequence_length(len));
  auto kernel = tf::variable<"rnn/toy_cell/kernel", double, tf::shape<7, 4>, tf::init::glorot_uniform(7)>();
  auto loss = tf::reduce_sum(outputs * outputs) + tf::reduce_sum(std::get<1>(state) * std::get<0>(state));
  tf::session s(loss, tf::gradient(loss, x), tf::gradient(loss, h0), tf::gradient(loss, kernel));
  s.initialize_all();
  const xt::xtensor<std::int32_t, 1> lengths = {3, 1};
  const seq3 xv = random_sequence(2, 3, 3);
  const auto hv = fd_check::uniform<tf::shape<2, 4>>();
  const auto cv = fd_check::uniform<tf::shape<2, 4>>();
  fd_check::check_gradient(s, loss, x, xv, tf::feed(h0, hv), tf::feed(c0, cv), tf::feed(len, lengths));
  fd_check::check_gradient(s, loss, h0, hv, tf::feed(x, xv), tf::feed(c0, cv), tf::feed(len, lengths));
  fd_check::check_gradient(s, loss, kernel, fd_check::uniform<tf::shape<7, 4>>(), tf::feed(x, xv), tf::feed(h0, hv),
                           tf::feed(c0, cv), tf::feed(len, lengths));
}
