// TensorFlow's own expected values for its cells (rnn_cell_test.py: testBasicRNNCell,
// testGRUCell, testBasicLSTMCell), ported. TensorFlow sets the kernels with
// variable_scope(..., initializer=constant_initializer(0.5)), which reaches only the variables
// without an initializer of their own: the kernels; the biases keep the cells' (GRU gates 1,
// the others 0). typeflow's cells take TensorFlow's default initializers only
// (docs/reference/rnn-cells.md), so the tests set the kernels through the session, as
// tf.Variable.load would.
#include <doctest/doctest.h>

#include <cmath>
#include <string_view>
#include <tuple>

#include <boost/mp11/list.hpp>
#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {

/// global_variables_initializer(), then every "<...>/kernel" of the session set to 0.5.
template <class Sess>
void kernels_to_half(Sess& sess) {
  sess.run(tf::global_variables_initializer());
  [&]<class... V>(boost::mp11::mp_list<V...>) {
    ((V::name.view().ends_with("/kernel") ? sess.template slot<V>().value.fill(0.5f) : void()), ...);
  }(typename Sess::variables{});
}

/// Every element of v within 1e-6 of the expected value (assertAllClose's default).
template <class V>
void check_all(const V& v, float expected) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(v.flat(i) - expected) <= 1e-6f + 1e-6f * std::abs(expected));
  }
}

}  // namespace

TEST_CASE("testBasicRNNCell: root/basic_rnn_cell/{kernel,bias}, output [1, 2]") {
  auto x = tf::placeholder<"x", float, tf::shape<1, 2>>();
  auto m = tf::placeholder<"m", float, tf::shape<1, 2>>();
  auto [g, state] = rnn::basic_rnn_cell<2>{}.call<"root">(x, m);
  tf::session sess(g);
  static_assert(decltype(sess)::holds<tf::variable_node<"root/basic_rnn_cell/kernel", float, tf::shape<4, 2>,
                                                         tf::init::fixed<tf::init::glorot_uniform()>>>);
  static_assert(decltype(sess)::holds<tf::variable_node<"root/basic_rnn_cell/bias", float, tf::shape<2>,
                                                         tf::init::fixed<tf::init::zeros()>>>);
  kernels_to_half(sess);
  auto res = sess.run(g, tf::feed(x, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{1.f, 1.f}}),
                      tf::feed(m, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{0.1f, 0.1f}}));
  CHECK(res.shape()[0] == 1);
  CHECK(res.shape()[1] == 2);
  // TensorFlow checks the shape only; the value is tanh(0.5 * (1 + 1 + 0.1 + 0.1)).
  check_all(res, std::tanh(1.1f));
}

TEST_CASE("testGRUCell: [[0.175991, 0.175991]], and [[0.156736, 0.156736]] with 3 inputs") {
  {
    auto x = tf::placeholder<"x", float, tf::shape<1, 2>>();
    auto m = tf::placeholder<"m", float, tf::shape<1, 2>>();
    auto [g, state] = rnn::gru_cell<2>{}.call<"root">(x, m);
    tf::session sess(g);
    kernels_to_half(sess);
    auto res = sess.run(g, tf::feed(x, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{1.f, 1.f}}),
                        tf::feed(m, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{0.1f, 0.1f}}));
    check_all(res, 0.175991f);
  }
  {
    auto x = tf::placeholder<"x", float, tf::shape<1, 3>>();
    auto m = tf::placeholder<"m", float, tf::shape<1, 2>>();
    auto [g, state] = rnn::gru_cell<2>{}.call<"other">(x, m);
    tf::session sess(g);
    kernels_to_half(sess);
    auto res = sess.run(g, tf::feed(x, xt::xtensor_fixed<float, xt::xshape<1, 3>>{{1.f, 1.f, 1.f}}),
                        tf::feed(m, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{0.1f, 0.1f}}));
    check_all(res, 0.156736f);
  }
}

// TensorFlow runs MultiRNNCell([BasicLSTMCell(2)] * 2) with state_is_tuple=False: one state
// tensor [c0, h0, c1, h1] of 8 columns. typeflow keeps the tuple form; its flat state is the
// same four tensors in the same order.
template <class Cell>
void check_two_lstm_layers() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 2>>();
  auto c0 = tf::placeholder<"c0", float, tf::shape<1, 2>>();
  auto h0 = tf::placeholder<"h0", float, tf::shape<1, 2>>();
  auto c1 = tf::placeholder<"c1", float, tf::shape<1, 2>>();
  auto h1 = tf::placeholder<"h1", float, tf::shape<1, 2>>();
  auto cell = rnn::multi_rnn_cell(Cell{}, Cell{});
  auto [g, flat] = cell.template step<"root">(x, std::tuple{c0, h0, c1, h1});
  tf::session sess(g, std::get<0>(flat), std::get<2>(flat));
  kernels_to_half(sess);
  const xt::xtensor_fixed<float, xt::xshape<1, 2>> tenth{{0.1f, 0.1f}};
  auto [out, nc0, nh0, nc1, nh1] =
      sess.run(tf::fetch(g, std::get<0>(flat), std::get<1>(flat), std::get<2>(flat), std::get<3>(flat)),
               tf::feed(x, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{1.f, 1.f}}), tf::feed(c0, tenth),
               tf::feed(h0, tenth), tf::feed(c1, tenth), tf::feed(h1, tenth));
  // expected_mem = [[0.68967271, 0.68967271, 0.44848421, 0.44848421,
  //                  0.39897051, 0.39897051, 0.24024698, 0.24024698]]
  check_all(out, 0.24024698f);
  check_all(nc0, 0.68967271f);
  check_all(nh0, 0.44848421f);
  check_all(nc1, 0.39897051f);
  check_all(nh1, 0.24024698f);
}

TEST_CASE("testBasicLSTMCell: two layers, TensorFlow's expected_mem") {
  check_two_lstm_layers<rnn::basic_lstm_cell<2>>();
}

TEST_CASE("LSTMCell without peepholes and projection: BasicLSTMCell's values") {
  check_two_lstm_layers<rnn::lstm_cell<2>>();
}
