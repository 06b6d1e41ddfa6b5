// One step of each cell of rnn/cell.hpp against the PyTorch reference
// (benchmarks/rnn/reference_cells.py), and the cells' variables: TensorFlow's names, shapes
// and initializers.
#include <doctest/doctest.h>

#include <cmath>
#include <tuple>
#include <type_traits>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/typeflow.hpp>

#include "rnn_testing.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;
namespace ref = rnn_reference;
using namespace rnn_testing;

namespace {
auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
auto h = tf::placeholder<"h", double, tf::shape<2, 4>>();
auto c = tf::placeholder<"c", double, tf::shape<2, 4>>();
auto h1 = tf::placeholder<"h1", double, tf::shape<2, 4>>();
}  // namespace

TEST_CASE("basic_rnn_cell: one step, protocol and variables") {
  rnn::basic_rnn_cell<4> cell;
  static_assert(decltype(cell)::output_size == 4);
  static_assert(decltype(cell)::state_sizes == std::array<std::size_t, 1>{4});
  auto [out, state] = cell(x, h);
  static_assert(std::is_same_v<decltype(out), decltype(state)>);
  tf::session sess(out);
  using kernel = tf::variable_node<"rnn/basic_rnn_cell/kernel", double, tf::shape<7, 4>,
                                   tf::init::fixed<tf::init::glorot_uniform()>>;
  using bias = tf::variable_node<"rnn/basic_rnn_cell/bias", double, tf::shape<4>, tf::init::fixed<tf::init::zeros()>>;
  static_assert(decltype(sess)::holds<kernel> && decltype(sess)::holds<bias>);
  static_assert(boost::mp11::mp_size<decltype(sess)::variables>::value == 2);
  set_reference_weights(sess);
  check_close(sess.run(out, tf::feed(x, input(0)), tf::feed(h, h0())), ref::basic_rnn_step_output);
}

TEST_CASE("gru_cell: one step, TensorFlow's variables and initializers") {
  rnn::gru_cell<4> cell;
  auto [out, state] = cell.call<"rnn">(x, h);
  auto [out2, flat] = cell.step<"rnn">(x, std::tuple{h});
  static_assert(std::is_same_v<decltype(out), decltype(out2)>);
  static_assert(std::is_same_v<std::tuple<decltype(state)>, decltype(flat)>);
  tf::session sess(out);
  using gk = tf::variable_node<"rnn/gru_cell/gates/kernel", double, tf::shape<7, 8>,
                               tf::init::fixed<tf::init::glorot_uniform()>>;
  using gb = tf::variable_node<"rnn/gru_cell/gates/bias", double, tf::shape<8>, tf::init::fixed<tf::init::constant(1.0)>>;
  using ck = tf::variable_node<"rnn/gru_cell/candidate/kernel", double, tf::shape<7, 4>,
                               tf::init::fixed<tf::init::glorot_uniform()>>;
  using cb = tf::variable_node<"rnn/gru_cell/candidate/bias", double, tf::shape<4>, tf::init::fixed<tf::init::zeros()>>;
  static_assert(decltype(sess)::holds<gk> && decltype(sess)::holds<gb> && decltype(sess)::holds<ck> &&
                decltype(sess)::holds<cb>);
  static_assert(boost::mp11::mp_size<decltype(sess)::variables>::value == 4);

  sess.run(tf::global_variables_initializer());
  const auto& gbv = sess.slot<gb>().value;
  const auto& cbv = sess.slot<cb>().value;
  const auto& gkv = sess.slot<gk>().value;
  for (std::size_t i = 0; i < gbv.size(); ++i) CHECK(gbv.flat(i) == 1.0);
  for (std::size_t i = 0; i < cbv.size(); ++i) CHECK(cbv.flat(i) == 0.0);
  const double limit = std::sqrt(6.0 / (7 + 8));
  double sum_abs = 0;
  for (std::size_t i = 0; i < gkv.size(); ++i) {
    CHECK(std::abs(gkv.flat(i)) <= limit);
    sum_abs += std::abs(gkv.flat(i));
  }
  CHECK(sum_abs > 0);

  set_reference_weights(sess);
  check_close(sess.run(out, tf::feed(x, input(0)), tf::feed(h, h0())), ref::gru_step_output);
}

TEST_CASE("gru_cell: Scope \"\" names the variables without a leading slash; ops in the cell's scope") {
  rnn::gru_cell<4> cell;
  auto [out, state] = cell.call<"">(x, h);
  tf::session sess(out);
  using gk = tf::variable_node<"gru_cell/gates/kernel", double, tf::shape<7, 8>, tf::init::fixed<tf::init::glorot_uniform()>>;
  static_assert(decltype(sess)::holds<gk>);
  using B_ = tf::variable_node<"my/scope/gru_cell/candidate/bias", double, tf::shape<4>, tf::init::fixed<tf::init::zeros()>>;
  auto [o2, s2] = cell.call<"my/scope">(x, h);
  tf::session sess2(o2);
  static_assert(decltype(sess2)::holds<B_>);
}

TEST_CASE("basic_lstm_cell: one step on lstm_state_tuple (c, h)") {
  rnn::basic_lstm_cell<4> cell;
  static_assert(decltype(cell)::state_sizes == std::array<std::size_t, 2>{4, 4});
  static_assert(decltype(cell)::forget_bias == 1.0);
  auto [out, state] = cell(x, rnn::lstm_state_tuple{c, h});
  static_assert(std::is_same_v<decltype(out), decltype(state.h)>);
  tf::session sess(out, state.c);
  using kernel = tf::variable_node<"rnn/basic_lstm_cell/kernel", double, tf::shape<7, 16>,
                                   tf::init::fixed<tf::init::glorot_uniform()>>;
  using bias = tf::variable_node<"rnn/basic_lstm_cell/bias", double, tf::shape<16>, tf::init::fixed<tf::init::zeros()>>;
  static_assert(decltype(sess)::holds<kernel> && decltype(sess)::holds<bias>);
  set_reference_weights(sess);
  auto [o, nc, nh] = sess.run(tf::fetch(out, state.c, state.h), tf::feed(x, input(0)), tf::feed(h, h0()), tf::feed(c, c0()));
  check_close(o, ref::basic_lstm_step_output);
  check_close(nc, ref::basic_lstm_step_state, 0);
  check_close(nh, ref::basic_lstm_step_state, 8);
}

TEST_CASE("lstm_cell: one step, named lstm_cell") {
  rnn::lstm_cell<4> cell;
  auto [out, state] = cell(x, rnn::lstm_state_tuple{c, h});
  auto flat = rnn::flatten_state(state);
  static_assert(std::tuple_size_v<decltype(flat)> == 2);
  tf::session sess(out, state.c);
  using kernel = tf::variable_node<"rnn/lstm_cell/kernel", double, tf::shape<7, 16>,
                                   tf::init::fixed<tf::init::glorot_uniform()>>;
  static_assert(decltype(sess)::holds<kernel>);
  set_reference_weights(sess);
  auto [o, nc] = sess.run(tf::fetch(out, std::get<0>(flat)), tf::feed(x, input(0)), tf::feed(h, h0()), tf::feed(c, c0()));
  check_close(o, ref::lstm_step_output);
  check_close(nc, ref::lstm_step_state, 0);
}

TEST_CASE("multi_rnn_cell: two GRUs, cell_<i> scopes, state a tuple") {
  auto cell = rnn::multi_rnn_cell(rnn::gru_cell<4>{}, rnn::gru_cell<4>{});
  static_assert(std::is_same_v<decltype(cell), rnn::multi_rnn_cell<rnn::gru_cell<4>, rnn::gru_cell<4>>>);
  static_assert(decltype(cell)::state_sizes == std::array<std::size_t, 2>{4, 4});
  static_assert(decltype(cell)::output_size == 4);
  auto [out, state] = cell(x, std::tuple{h, h1});
  static_assert(std::tuple_size_v<decltype(state)> == 2);
  tf::session sess(out, std::get<0>(state));
  using k0 = tf::variable_node<"rnn/multi_rnn_cell/cell_0/gru_cell/gates/kernel", double, tf::shape<7, 8>,
                               tf::init::fixed<tf::init::glorot_uniform()>>;
  using k1 = tf::variable_node<"rnn/multi_rnn_cell/cell_1/gru_cell/candidate/kernel", double, tf::shape<8, 4>,
                               tf::init::fixed<tf::init::glorot_uniform()>>;
  static_assert(decltype(sess)::holds<k0> && decltype(sess)::holds<k1>);
  static_assert(boost::mp11::mp_size<decltype(sess)::variables>::value == 8);
  set_reference_weights(sess);
  auto [o, s0, s1] = sess.run(tf::fetch(out, std::get<0>(state), std::get<1>(state)), tf::feed(x, input(0)),
                              tf::feed(h, h0()), tf::feed(h1, h0()));
  check_close(o, ref::multi_gru_step_output);
  check_close(s0, ref::multi_gru_step_state, 0);
  check_close(s1, ref::multi_gru_step_state, 8);
}

TEST_CASE("zero_state: zeros of the input's batch, static or dyn") {
  auto xd = tf::placeholder<"xd", float, tf::shape<tf::dyn, 3>>();
  auto z = rnn::zero_state(rnn::basic_lstm_cell<5>{}, xd);
  static_assert(std::is_same_v<tf::shape_of<decltype(z.c)>, tf::shape<tf::dyn, 5>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(z.h)>, float>);
  tf::session sess(z.c);
  xt::xtensor<float, 2> xv = xt::ones<float>({3, 3});
  auto v = sess.run(z.c, tf::feed(xd, xv));
  CHECK(v.shape()[0] == 3);
  CHECK(v.shape()[1] == 5);
  for (auto e : v) CHECK(e == 0.0f);
}
