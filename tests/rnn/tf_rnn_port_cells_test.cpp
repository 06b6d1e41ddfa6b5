// core_rnn_cell_test.py (RNNCellTest, DropoutWrapperTest) and rnn_test.py testCellsBuild,
// ported (see tf_rnn_port_test.cpp): TF's literal values for the cells and wrappers.
// TF's cell tests set every variable without an initializer of its own to 0.5
// (variable_scope(..., initializer=constant_initializer(0.5))): the kernels, the
// embedding; typeflow's cells take TF's default initializers only, so the tests set those
// variables through the session, as tf.Variable.load would.
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

// ---- core_rnn_cell_test.py: RNNCellTest, DropoutWrapperTest --------------------------------

// core_rnn_cell_test.py RNNCellTest.testMultiRNNCell / testMultiRNNCellWithStateTuple: two
// GRUCell(2), kernels 0.5, x [[1, 1]], each state [[0.1, 0.1]]: [[0.175991]] and [[0.13248]].
TEST_CASE("RNNCellTest.testMultiRNNCellWithStateTuple: two GRUs, [[0.175991]] and [[0.13248]]") {
  auto x = tf::placeholder<"x", float, tf::shape<1, 2>>();
  auto m0 = tf::placeholder<"m0", float, tf::shape<1, 2>>();
  auto m1 = tf::placeholder<"m1", float, tf::shape<1, 2>>();
  auto [out, ml] = rnn::multi_rnn_cell(rnn::gru_cell<2>{}, rnn::gru_cell<2>{}).call<"root">(x, std::tuple{m0, m1});
  tf::session sess(out, std::get<0>(ml), std::get<1>(ml));
  CHECK(names_of(sess) == std::vector<std::string>{
                              "root/multi_rnn_cell/cell_0/gru_cell/gates/kernel", "root/multi_rnn_cell/cell_0/gru_cell/gates/bias",
                              "root/multi_rnn_cell/cell_0/gru_cell/candidate/kernel", "root/multi_rnn_cell/cell_0/gru_cell/candidate/bias",
                              "root/multi_rnn_cell/cell_1/gru_cell/gates/kernel", "root/multi_rnn_cell/cell_1/gru_cell/gates/bias",
                              "root/multi_rnn_cell/cell_1/gru_cell/candidate/kernel", "root/multi_rnn_cell/cell_1/gru_cell/candidate/bias"});
  kernels_to_half(sess);
  const xt::xtensor_fixed<float, xt::xshape<1, 2>> tenth{{0.1f, 0.1f}};
  auto [s0, s1] = sess.run(tf::fetch(std::get<0>(ml), std::get<1>(ml)),
                           tf::feed(x, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{1.f, 1.f}}), tf::feed(m0, tenth),
                           tf::feed(m1, tenth));
  check_all(s0, 0.175991, 1e-5);
  check_all(s1, 0.13248, 1e-5);
}

// core_rnn_cell_test.py RNNCellTest.testBasicLSTMCell (its variables) and
// testBasicLSTMCellStateTupleType: MultiRNNCell of two BasicLSTMCell(2) under "root": the
// variables root/multi_rnn_cell/cell_<i>/basic_lstm_cell/{kernel, bias} in that order, the
// new state a tuple of LSTMStateTuples, from plain tuples or from zero_state alike. (The
// values are tf_cell_values_test.cpp's.)
TEST_CASE("RNNCellTest.testBasicLSTMCell variables, testBasicLSTMCellStateTupleType") {
  auto x = tf::placeholder<"x", float, tf::shape<1, 2>>();
  auto c = tf::placeholder<"c", float, tf::shape<1, 2>>();
  auto cell = rnn::multi_rnn_cell(rnn::basic_lstm_cell<2>{}, rnn::basic_lstm_cell<2>{});
  auto m0 = rnn::lstm_state_tuple{c, c};
  auto [g, out_m] = cell.call<"root">(x, std::tuple{m0, m0});
  static_assert(rnn::detail::is_lstm_state<std::tuple_element_t<0, decltype(out_m)>>::value);
  static_assert(rnn::detail::is_lstm_state<std::tuple_element_t<1, decltype(out_m)>>::value);
  auto zero = rnn::zero_state(cell, x);
  static_assert(rnn::detail::is_lstm_state<std::tuple_element_t<1, decltype(zero)>>::value);
  auto [g2, out_z] = cell.call<"root">(x, zero);
  static_assert(rnn::detail::is_lstm_state<std::tuple_element_t<1, decltype(out_z)>>::value);
  tf::session sess(g, g2);
  CHECK(names_of(sess) == std::vector<std::string>{"root/multi_rnn_cell/cell_0/basic_lstm_cell/kernel",
                                                   "root/multi_rnn_cell/cell_0/basic_lstm_cell/bias",
                                                   "root/multi_rnn_cell/cell_1/basic_lstm_cell/kernel",
                                                   "root/multi_rnn_cell/cell_1/basic_lstm_cell/bias"});
}

// core_rnn_cell_test.py RNNCellTest.testOutputProjectionWrapper: GRUCell(3) projected to 2,
// kernels 0.5, x [[1, 1, 1]], m [[0.1, 0.1, 0.1]]: output [[0.231907, 0.231907]], state (1, 3).
TEST_CASE("RNNCellTest.testOutputProjectionWrapper: [[0.231907, 0.231907]]") {
  auto x = tf::placeholder<"x", float, tf::shape<1, 3>>();
  auto m = tf::placeholder<"m", float, tf::shape<1, 3>>();
  auto [g, new_m] = rnn::output_projection_wrapper<rnn::gru_cell<3>, 2>{}.call<"root">(x, m);
  static_assert(std::is_same_v<tf::shape_of<decltype(new_m)>, tf::shape<1, 3>>);
  tf::session sess(g, new_m);
  kernels_to_half(sess);
  auto [res0, res1] = sess.run(tf::fetch(g, new_m), tf::feed(x, xt::xtensor_fixed<float, xt::xshape<1, 3>>{{1.f, 1.f, 1.f}}),
                               tf::feed(m, xt::xtensor_fixed<float, xt::xshape<1, 3>>{{0.1f, 0.1f, 0.1f}}));
  CHECK(res0.size() == 2);
  check_all(res0, 0.231907, 1e-5);
  CHECK(res1.size() == 3);
}

// core_rnn_cell_test.py RNNCellTest.testEmbeddingWrapper: EmbeddingWrapper(GRUCell(2), 3
// classes, size 2), the embedding and the kernels 0.5 (the scope's initializer reaches the
// embedding too), id 1, m [[0.1, 0.1]]: output [[0.17139, 0.17139]], state (1, 2).
TEST_CASE("RNNCellTest.testEmbeddingWrapper: [[0.17139, 0.17139]]") {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<1>>();
  auto m = tf::placeholder<"m", float, tf::shape<1, 2>>();
  using cell_t = rnn::embedding_wrapper<rnn::gru_cell<2>, 3, 2>;
  static_assert(cell_t::output_size == 2);
  auto [g, new_m] = cell_t{}.call<"root">(x, m);
  tf::session sess(g, new_m);
  kernels_to_half(sess);
  auto [res0, res1] = sess.run(tf::fetch(g, new_m), tf::feed(x, xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{1}),
                               tf::feed(m, xt::xtensor_fixed<float, xt::xshape<1, 2>>{{0.1f, 0.1f}}));
  check_all(res0, 0.17139, 1e-5);
  CHECK(res1.size() == 2);
}

// core_rnn_cell_test.py RNNCellTest.testLSTMCell and testLSTMCellVariables (without the
// projection): LSTMCell(8), batch 3, inputs [[1, 1], [2, 2], [3, 3]], state 0.1: different
// inputs give different outputs and states; variables root/lstm_cell/{kernel, bias}.
TEST_CASE("RNNCellTest.testLSTMCell, testLSTMCellVariables (no projection)") {
  auto x = tf::placeholder<"x", float, tf::shape<3, 2>>();
  auto c = tf::placeholder<"c", float, tf::shape<3, 8>>();
  auto h = tf::placeholder<"h", float, tf::shape<3, 8>>();
  auto [output, state] = rnn::lstm_cell<8, 1.0>{}.call<"root">(x, rnn::lstm_state_tuple{c, h});
  tf::session sess(output, state.c);
  CHECK(names_of(sess) == std::vector<std::string>{"root/lstm_cell/kernel", "root/lstm_cell/bias"});
  kernels_to_half(sess);
  const xt::xtensor<float, 2> tenth = 0.1f * xt::ones<float>({3, 8});
  auto [o, sc] = sess.run(tf::fetch(output, state.c), tf::feed(x, xt::xtensor<float, 2>{{1.f, 1.f}, {2.f, 2.f}, {3.f, 3.f}}),
                          tf::feed(c, tenth), tf::feed(h, tenth));
  CHECK(o.shape()[0] == 3);
  CHECK(o.shape()[1] == 8);
  auto row_distance = [](const auto& v, std::size_t i) {
    double d = 0;
    for (std::size_t j = 0; j < 8; ++j) d += (double(v(0, j)) - double(v(i, j))) * (double(v(0, j)) - double(v(i, j)));
    return std::sqrt(d);
  };
  for (std::size_t i = 1; i < 3; ++i) {
    CHECK(row_distance(o, i) > 1e-6);  // np.linalg.norm(res[0][0, :] - res[0][i, :]) > 1e-6
    CHECK(row_distance(sc, i) > 1e-6);
  }
}

// core_rnn_cell_test.py DropoutWrapperTest.testDropoutWrapperKeepAll (keep probabilities 1:
// the LSTMCell itself): dynamic_rnn, time-major, of LSTMCell(3), kernels 0.5, x [[[2, 2, 2]],
// [[1, 1, 1]]], initial state LSTMStateTuple(0.1, 0.1): outputs [[[0.751109] * 3],
// [[0.895509] * 3]], final h the last output, final c [[1.949385] * 3].
TEST_CASE("DropoutWrapperTest.testDropoutWrapperKeepAll: dynamic_rnn of LSTMCell(3), TF's values") {
  auto x = tf::placeholder<"x", float, tf::shape<2, 1, 3>>();
  auto m = tf::placeholder<"m", float, tf::shape<1, 3>>();
  auto [outputs, final_state] =
      rnn::dynamic_rnn<"root/rnn">(rnn::lstm_cell<3>{}, x, rnn::time_major, rnn::initial_state(rnn::lstm_state_tuple{m, m}));
  tf::session sess(outputs, final_state.c, final_state.h);
  kernels_to_half(sess);
  auto [o, c, h] = sess.run(tf::fetch(outputs, final_state.c, final_state.h),
                            tf::feed(x, xt::xtensor_fixed<float, xt::xshape<2, 1, 3>>{{{2.f, 2.f, 2.f}}, {{1.f, 1.f, 1.f}}}),
                            tf::feed(m, xt::xtensor_fixed<float, xt::xshape<1, 3>>{{0.1f, 0.1f, 0.1f}}));
  CHECK(o.shape()[0] == 2);
  for (std::size_t j = 0; j < 3; ++j) {
    CHECK(std::abs(o(0, 0, j) - 0.751109f) <= 2e-6f);
    CHECK(std::abs(o(1, 0, j) - 0.895509f) <= 2e-6f);
    CHECK(std::abs(h(0, j) - 0.895509f) <= 2e-6f);
    CHECK(std::abs(c(0, j) - 1.949385f) <= 3e-6f);
  }
}

// rnn_test.py RNNTest.testCellsBuild: each cell, float and double, batch 5, input 7, 3 units,
// from its zero state: output [5, 3].
template <class Cell, class T>
void check_cell_builds() {
  auto x = tf::placeholder<"x", T, tf::shape<5, 7>>();
  auto [out, state] = Cell{}.call(x, rnn::zero_state(Cell{}, x));
  static_assert(std::is_same_v<tf::shape_of<decltype(out)>, tf::shape<5, 3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(out)>, T>);
  tf::session sess(out);
  sess.initialize_all();
  auto o = sess.run(out, tf::feed(x, xt::xtensor<T, 2>(xt::zeros<T>({5, 7}))));
  CHECK(o.shape()[0] == 5);
  CHECK(o.shape()[1] == 3);
}
TEST_CASE("RNNTest.testCellsBuild: the four cells, float32 and float64") {
  check_cell_builds<rnn::basic_rnn_cell<3>, float>();
  check_cell_builds<rnn::basic_rnn_cell<3>, double>();
  check_cell_builds<rnn::basic_lstm_cell<3>, float>();
  check_cell_builds<rnn::basic_lstm_cell<3>, double>();
  check_cell_builds<rnn::gru_cell<3>, float>();
  check_cell_builds<rnn::gru_cell<3>, double>();
  check_cell_builds<rnn::lstm_cell<3>, float>();
  check_cell_builds<rnn::lstm_cell<3>, double>();
}

// ---- rnn_cell_test.py: ResidualWrapper -------------------------------------------------------

// rnn_cell_test.py RNNCellTest.testResidualWrapper: GRUCell(3) under "root", kernels 0.5, x
// [[1, 1, 1]], m [[0.1, 0.1, 0.1]]; the wrapper over the same cell (reuse_variables) gives
// the cell's output plus x, and the cell's state untouched. The wrapper adds no scope and no
// variable: one session holds the cell's four, "root/gru_cell/...".
TEST_CASE("RNNCellTest.testResidualWrapper: output + input, the state the cell's, no variable of its own") {
  auto x = tf::placeholder<"x", float, tf::shape<1, 3>>();
  auto m = tf::placeholder<"m", float, tf::shape<1, 3>>();
  auto [g, m_new] = rnn::gru_cell<3>{}.call<"root">(x, m);
  auto [g_res, m_new_res] = rnn::residual_wrapper(rnn::gru_cell<3>{}).call<"root">(x, m);
  static_assert(rnn::residual_wrapper<rnn::gru_cell<3>>::output_size == 3);
  tf::session sess(g, g_res, m_new, m_new_res);
  const auto names = names_of(sess);
  CHECK(names.size() == 4);
  CHECK(all_start_with(names, "root/gru_cell/"));
  kernels_to_half(sess);
  auto [rg, rg_res, rm, rm_res] = sess.run(tf::fetch(g, g_res, m_new, m_new_res),
                                           tf::feed(x, xt::xtensor<float, 2>{{1, 1, 1}}),
                                           tf::feed(m, xt::xtensor<float, 2>{{0.1f, 0.1f, 0.1f}}));
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(rg_res(0, i) == doctest::Approx(rg(0, i) + 1.0f).epsilon(1e-6));
    CHECK(rm_res(0, i) == doctest::Approx(rm(0, i)).epsilon(1e-6));
  }
  // The GRU's output, by hand: r = u = sigmoid(0.5 (3 + 0.3) + 1), c = tanh(0.5 (3 + 3 r 0.1)),
  // u 0.1 + (1 - u) c: the cell ran (no zero output).
  check_all(rg, 0.1546050327);
}

// rnn_cell_test.py RNNCellTest.testResidualWrapperWithSlice: x [[1, 1, 1, 1, 1]] of depth 5
// into GRUCell(3), residual_fn = slice(inp, [0, 0], [-1, 3]) + out.
TEST_CASE("RNNCellTest.testResidualWrapperWithSlice: a residual function of one's own") {
  auto x = tf::placeholder<"x", float, tf::shape<1, 5>>();
  auto m = tf::placeholder<"m", float, tf::shape<1, 3>>();
  auto [g, m_new] = rnn::gru_cell<3>{}.call<"root">(x, m);
  auto residual_with_slice_fn = [](const auto& inp, const auto& out) {
    return tf::slice<tf::ints<0, 0>, tf::ints<-1, 3>>(inp) + out;
  };
  auto [g_res, m_new_res] = rnn::residual_wrapper(rnn::gru_cell<3>{}, residual_with_slice_fn).call<"root">(x, m);
  tf::session sess(g, g_res, m_new, m_new_res);
  CHECK(names_of(sess).size() == 4);
  kernels_to_half(sess);
  auto [rg, rg_res, rm, rm_res] = sess.run(tf::fetch(g, g_res, m_new, m_new_res),
                                           tf::feed(x, xt::xtensor<float, 2>{{1, 1, 1, 1, 1}}),
                                           tf::feed(m, xt::xtensor<float, 2>{{0.1f, 0.1f, 0.1f}}));
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(rg_res(0, i) == doctest::Approx(rg(0, i) + 1.0f).epsilon(1e-6));
    CHECK(rm_res(0, i) == doctest::Approx(rm(0, i)).epsilon(1e-6));
  }
  check_all(rg, 0.1225458777);  // as above, with 5 ones in x: 0.5 (5 + 0.3) + 1, 0.5 (5 + 3 r 0.1)
}

// dynamic_rnn drives a residual wrapper as any cell: each step's output is the bare cell's
// (the same variables: one scope) plus the step's input; the final states are equal.
TEST_CASE("dynamic_rnn of a residual wrapper: the cell's outputs plus the inputs") {
  auto x = tf::placeholder<"x", float, tf::shape<2, 4, 3>>();
  auto [outs, state] = rnn::dynamic_rnn(rnn::gru_cell<3>{}, x);
  auto [res_outs, res_state] = rnn::dynamic_rnn(rnn::residual_wrapper(rnn::gru_cell<3>{}), x);
  tf::session sess(outs, state, res_outs, res_state);
  CHECK(names_of(sess).size() == 4);
  set_weights(sess);
  xt::xtensor<float, 3> v = xt::zeros<float>({2, 4, 3});
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = float(std::sin(0.7 * double(i)));
  auto [o, s, ro, rs] = sess.run(tf::fetch(outs, state, res_outs, res_state), tf::feed(x, v));
  for (std::size_t i = 0; i < v.size(); ++i) CHECK(ro.flat(i) == doctest::Approx(o.flat(i) + v.flat(i)).epsilon(1e-6));
  for (std::size_t i = 0; i < s.size(); ++i) CHECK(rs.flat(i) == s.flat(i));
  CHECK(xt::amax(xt::abs(o))() > 0.01);  // the cell's outputs are not trivially zero
}
