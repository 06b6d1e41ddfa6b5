// rnn::static_rnn (rnn/static_rnn.hpp): each cell unrolled over 3 steps against the PyTorch
// reference, variables shared across steps, a dyn batch, an initial state, and
// sequence_length (TensorFlow's masking: zero outputs and the state carried past each
// example's length) against the unmasked cell run for exactly that many steps.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include <xtensor/xtensor.hpp>

#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

#include "rnn_testing.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;
namespace ref = rnn_reference;
using namespace rnn_testing;

namespace {
auto x0 = tf::placeholder<"x0", double, tf::shape<2, 3>>();
auto x1 = tf::placeholder<"x1", double, tf::shape<2, 3>>();
auto x2 = tf::placeholder<"x2", double, tf::shape<2, 3>>();

// Runs fetch with the three inputs fed (and more feeds).
template <class Sess, class F, class... More>
auto run3(Sess& sess, const F& f, const More&... more) {
  return sess.run(f, tf::feed(x0, input(0)), tf::feed(x1, input(1)), tf::feed(x2, input(2)), more...);
}

// The 3 outputs of a static_rnn and its final flat state against the reference.
template <class Cell>
void check_unrolled(const Cell& cell, const double* outputs, const double* state) {
  auto [outs, final_state] = rnn::static_rnn(cell, std::tuple{x0, x1, x2});
  static_assert(std::tuple_size_v<decltype(outs)> == 3);
  auto flat = rnn::flatten_state(final_state);
  tf::session sess(std::get<2>(outs));
  set_reference_weights(sess);
  auto [o0, o1, o2] = run3(sess, tf::fetch(std::get<0>(outs), std::get<1>(outs), std::get<2>(outs)));
  check_close(o0, outputs, 0);
  check_close(o1, outputs, 8);
  check_close(o2, outputs, 16);
  auto values = run3(sess, std::apply([](const auto&... s) { return tf::fetch(s...); }, flat));
  std::apply([&](const auto&... v) {
    std::size_t offset = 0;
    ((check_close(v, state, offset), offset += v.size()), ...);
  }, values);
}
}  // namespace

TEST_CASE("static_rnn: basic_rnn_cell over 3 steps, one set of variables") {
  auto [outs, final_state] = rnn::static_rnn(rnn::basic_rnn_cell<4>{}, std::tuple{x0, x1, x2});
  tf::session sess(std::get<2>(outs));
  static_assert(boost::mp11::mp_size<decltype(sess)::variables>::value == 2);
  static_assert(std::is_same_v<decltype(final_state), std::tuple_element_t<2, decltype(outs)>>);
  check_unrolled(rnn::basic_rnn_cell<4>{}, ref::basic_rnn_rnn_outputs, ref::basic_rnn_rnn_state);
}

TEST_CASE("static_rnn: gru_cell over 3 steps") {
  check_unrolled(rnn::gru_cell<4>{}, ref::gru_rnn_outputs, ref::gru_rnn_state);
}

TEST_CASE("static_rnn: basic_lstm_cell over 3 steps") {
  check_unrolled(rnn::basic_lstm_cell<4>{}, ref::basic_lstm_rnn_outputs, ref::basic_lstm_rnn_state);
}

TEST_CASE("static_rnn: lstm_cell over 3 steps") {
  check_unrolled(rnn::lstm_cell<4>{}, ref::lstm_rnn_outputs, ref::lstm_rnn_state);
}

TEST_CASE("static_rnn: multi_rnn_cell of two GRUs over 3 steps") {
  check_unrolled(rnn::multi_rnn_cell(rnn::gru_cell<4>{}, rnn::gru_cell<4>{}), ref::multi_gru_rnn_outputs,
                 ref::multi_gru_rnn_state);
}

TEST_CASE("static_rnn: a dyn batch, and the scope in the variables' names") {
  auto d0 = tf::placeholder<"d0", double, tf::shape<tf::dyn, 3>>();
  auto d1 = tf::placeholder<"d1", double, tf::shape<tf::dyn, 3>>();
  auto d2 = tf::placeholder<"d2", double, tf::shape<tf::dyn, 3>>();
  auto [outs, final_state] = rnn::static_rnn<"encoder">(rnn::gru_cell<4>{}, std::tuple{d0, d1, d2});
  static_assert(std::is_same_v<tf::shape_of<decltype(final_state)>, tf::shape<tf::dyn, 4>>);
  tf::session sess(std::get<2>(outs));
  using gb = tf::variable_node<"encoder/gru_cell/gates/bias", double, tf::shape<8>, tf::init::fixed<tf::init::constant(1.0)>>;
  static_assert(decltype(sess)::holds<gb>);
  sess.run(tf::global_variables_initializer());
  xt::xtensor<double, 2> a = input(0), b = input(1), c = input(2);
  auto v = sess.run(std::get<2>(outs), tf::feed(d0, a), tf::feed(d1, b), tf::feed(d2, c));
  CHECK(v.shape()[0] == 2);
  CHECK(v.shape()[1] == 4);
}

TEST_CASE("static_rnn: an initial state") {
  auto h = tf::placeholder<"h", double, tf::shape<2, 4>>();
  rnn::gru_cell<4> cell;
  auto [outs, final_state] = rnn::static_rnn(cell, std::tuple{x0}, h);
  auto [one, state] = cell(x0, h);
  static_assert(std::is_same_v<decltype(final_state), decltype(state)>);
  tf::session sess(std::get<0>(outs));
  set_reference_weights(sess);
  check_close(sess.run(std::get<0>(outs), tf::feed(x0, input(0)), tf::feed(h, h0())), ref::gru_step_output);
}

namespace {
// Per example b of length L: outputs t < L are the unmasked ones, t >= L zero; the final
// state is the unmasked state after L steps (the initial state, init_values, for L = 0).
template <class Cell, class Init, class Values, class... InitFeeds>
void check_lengths(const Cell& cell, const Init& init, const Values& init_values, const std::array<std::int32_t, 2>& lengths,
                   const InitFeeds&... init_feeds) {
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<2>>();
  auto [outs, fin] = rnn::static_rnn(cell, std::tuple{x0, x1, x2}, init, len);
  auto [plain, fin3] = rnn::static_rnn(cell, std::tuple{x0, x1, x2}, init);
  auto [p1, fin1] = rnn::static_rnn(cell, std::tuple{x0}, init);
  auto [p2, fin2] = rnn::static_rnn(cell, std::tuple{x0, x1}, init);
  auto masked_flat = rnn::flatten_state(fin);
  auto flat1 = rnn::flatten_state(fin1);
  auto flat2 = rnn::flatten_state(fin2);
  auto flat3 = rnn::flatten_state(fin3);
  constexpr std::size_t k = std::tuple_size_v<decltype(masked_flat)>;
  tf::session sess(std::get<2>(outs), std::get<2>(plain), std::get<0>(masked_flat), std::get<k - 1>(masked_flat),
                   std::get<0>(flat1), std::get<k - 1>(flat1), std::get<0>(flat2), std::get<k - 1>(flat2),
                   std::get<0>(flat3), std::get<k - 1>(flat3));
  set_reference_weights(sess);
  xt::xtensor_fixed<std::int32_t, xt::xshape<2>> lv{lengths[0], lengths[1]};
  auto masked = run3(sess, tf::fetch(std::get<0>(outs), std::get<1>(outs), std::get<2>(outs)), tf::feed(len, lv),
                     init_feeds...);
  auto unmasked = run3(sess, tf::fetch(std::get<0>(plain), std::get<1>(plain), std::get<2>(plain)), init_feeds...);
  auto check_output = [&](const auto& m, const auto& u, std::size_t t) {
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t j = 0; j < 4; ++j) {
        CAPTURE(t);
        CAPTURE(b);
        CHECK(m(b, j) == (std::int32_t(t) < lengths[b] ? u(b, j) : 0.0));
      }
  };
  check_output(std::get<0>(masked), std::get<0>(unmasked), 0);
  check_output(std::get<1>(masked), std::get<1>(unmasked), 1);
  check_output(std::get<2>(masked), std::get<2>(unmasked), 2);
  auto check_state = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
    auto got = run3(sess, std::get<I>(masked_flat), tf::feed(len, lv), init_feeds...);
    const h_value after[4] = {std::get<I>(init_values), run3(sess, std::get<I>(flat1), init_feeds...),
                              run3(sess, std::get<I>(flat2), init_feeds...), run3(sess, std::get<I>(flat3), init_feeds...)};
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t j = 0; j < 4; ++j) {
        CAPTURE(I);
        CAPTURE(b);
        CHECK(got(b, j) == after[lengths[b]](b, j));
      }
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (check_state(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<k>{});
}
}  // namespace

TEST_CASE("static_rnn: sequence_length with gru_cell (zero outputs, state carried past each length)") {
  auto h = tf::placeholder<"h", double, tf::shape<2, 4>>();
  for (auto lengths : {std::array<std::int32_t, 2>{2, 0}, std::array<std::int32_t, 2>{3, 1}}) {
    CAPTURE(lengths[0]);
    CAPTURE(lengths[1]);
    check_lengths(rnn::gru_cell<4>{}, h, std::tuple{h0()}, lengths, tf::feed(h, h0()));
  }
}

TEST_CASE("static_rnn: sequence_length with basic_lstm_cell (both state tensors carried)") {
  auto c = tf::placeholder<"c", double, tf::shape<2, 4>>();
  auto h = tf::placeholder<"h", double, tf::shape<2, 4>>();
  for (auto lengths : {std::array<std::int32_t, 2>{0, 2}, std::array<std::int32_t, 2>{1, 3}}) {
    CAPTURE(lengths[0]);
    CAPTURE(lengths[1]);
    check_lengths(rnn::basic_lstm_cell<4>{}, rnn::lstm_state_tuple{c, h}, std::tuple{c0(), h0()}, lengths,
                  tf::feed(c, c0()), tf::feed(h, h0()));
  }
}

TEST_CASE("static_rnn: sequence_length with the zero initial state, int64 lengths") {
  auto len = tf::placeholder<"len64", std::int64_t, tf::shape<2>>();
  auto [outs, fin] = rnn::static_rnn(rnn::gru_cell<4>{}, std::tuple{x0, x1, x2}, rnn::zero_initial_state, len);
  tf::session sess(std::get<2>(outs), fin);
  set_reference_weights(sess);
  xt::xtensor_fixed<std::int64_t, xt::xshape<2>> lv{3, 0};
  auto [o2, f] = run3(sess, tf::fetch(std::get<2>(outs), fin), tf::feed(len, lv));
  for (std::size_t j = 0; j < 4; ++j) {
    CHECK(std::abs(o2(0, j) - ref::gru_rnn_outputs[16 + j]) <= 1e-5);
    CHECK(std::abs(f(0, j) - ref::gru_rnn_state[j]) <= 1e-5);
    CHECK(o2(1, j) == 0.0);
    CHECK(f(1, j) == 0.0);
  }
}
