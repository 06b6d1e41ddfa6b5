// dynamic_rnn against static_rnn with the library's cells, as rnn_test.py's
// testDynamicEquivalentToStaticRNN: the same variables (one scope), the same outputs and
// final states, with and without sequence_length; LSTM states come back as
// lstm_state_tuple, a multi_rnn_cell's as a std::tuple of its cells' states.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <tuple>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>
#include <xtensor/xview.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;

namespace {
using seq3 = xt::xtensor<double, 3>;

template <class Cell>
void check_dynamic_equals_static(const Cell& cell) {
  auto x = tf::placeholder<"x", double, tf::shape<3, 4, 5>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<3>>();
  auto [dyn_out, dyn_state] = tf::rnn::dynamic_rnn(cell, x, tf::rnn::sequence_length(len));
  auto [st_outs, st_state] =
      tf::rnn::static_rnn(cell, tf::unstack<1>(x), tf::rnn::zero_initial_state, len);
  auto stacked = tf::stack<1>(std::get<0>(st_outs), std::get<1>(st_outs), std::get<2>(st_outs), std::get<3>(st_outs));
  auto dyn_flat = tf::rnn::flatten_state(dyn_state);
  auto st_flat = tf::rnn::flatten_state(st_state);
  auto dyn_last = std::get<std::tuple_size_v<decltype(dyn_flat)> - 1>(dyn_flat);
  auto st_last = std::get<std::tuple_size_v<decltype(st_flat)> - 1>(st_flat);
  tf::session s(dyn_out, stacked, dyn_last, st_last);
  s.initialize_all();
  const seq3 xv = fd_check::fill_uniform(seq3(std::array<std::size_t, 3>{3, 4, 5}));
  for (const auto& lengths : {xt::xtensor<std::int32_t, 1>{4, 4, 4}, xt::xtensor<std::int32_t, 1>{4, 2, 0}}) {
    const auto [a, b, c, d] = s.run(tf::fetch(dyn_out, stacked, dyn_last, st_last), tf::feed(x, xv), tf::feed(len, lengths));
    REQUIRE(a.shape() == b.shape());
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a.flat(i) == doctest::Approx(b.flat(i)).epsilon(1e-13));
    for (std::size_t i = 0; i < c.size(); ++i) CHECK(c.flat(i) == doctest::Approx(d.flat(i)).epsilon(1e-13));
  }
}
}  // namespace

TEST_CASE("dynamic_rnn equals static_rnn: GRU") { check_dynamic_equals_static(tf::rnn::gru_cell<6>{}); }
TEST_CASE("dynamic_rnn equals static_rnn: basic LSTM, state as lstm_state_tuple") {
  check_dynamic_equals_static(tf::rnn::basic_lstm_cell<6>{});
  auto x = tf::placeholder<"x", double, tf::shape<tf::dyn, tf::dyn, 5>>();
  auto [out, state] = tf::rnn::dynamic_rnn(tf::rnn::basic_lstm_cell<6>{}, x);
  static_assert(tf::rnn::detail::is_lstm_state<decltype(state)>::value);
  static_assert(std::is_same_v<tf::shape_of<decltype(state.h)>, tf::shape<tf::dyn, 6>>);
  (void)out;
}
TEST_CASE("dynamic_rnn equals static_rnn: a two-layer multi_rnn_cell of LSTM and GRU") {
  check_dynamic_equals_static(tf::rnn::multi_rnn_cell(tf::rnn::lstm_cell<6>{}, tf::rnn::gru_cell<3>{}));
}
TEST_CASE("dynamic_rnn: a structured initial_state of an LSTM, and its gradient") {
  auto x = tf::placeholder<"x", double, tf::shape<2, tf::dyn, 3>>();
  auto c0 = tf::placeholder<"c0", double, tf::shape<2, 4>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<2, 4>>();
  auto [out, state] = tf::rnn::dynamic_rnn(tf::rnn::lstm_cell<4>{}, x, tf::rnn::initial_state(tf::rnn::lstm_state_tuple{c0, h0}));
  auto loss = tf::reduce_sum(out * out) + tf::reduce_sum(state.c);
  tf::session s(loss, tf::gradient(loss, c0), tf::gradient(loss, h0), tf::gradient(loss, x));
  s.initialize_all();
  const seq3 xv = fd_check::fill_uniform(seq3(std::array<std::size_t, 3>{2, 3, 3}));
  const auto cv = fd_check::uniform<tf::shape<2, 4>>();
  const auto hv = fd_check::uniform<tf::shape<2, 4>>();
  fd_check::check_gradient(s, loss, c0, cv, tf::feed(x, xv), tf::feed(h0, hv));
  fd_check::check_gradient(s, loss, h0, hv, tf::feed(x, xv), tf::feed(c0, cv));
  fd_check::check_gradient(s, loss, x, xv, tf::feed(c0, cv), tf::feed(h0, hv));
}
