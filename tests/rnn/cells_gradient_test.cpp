// Gradients of a loss through rnn::static_rnn (3 steps, with and without sequence_length)
// with respect to the cells' kernels and biases and to the inputs, against central finite
// differences in double precision (tests/autodiff/fd_check.hpp): GRU and basic LSTM.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>

#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "rnn_testing.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;
using rnn_testing::set_reference_weights;

namespace {
using XS = tf::shape<2, 2>;
auto x0 = tf::placeholder<"x0", double, XS>();
auto x1 = tf::placeholder<"x1", double, XS>();
auto x2 = tf::placeholder<"x2", double, XS>();
auto len = tf::placeholder<"len", std::int32_t, tf::shape<2>>();
const auto v0 = fd_check::uniform<XS>();
const auto v1 = fd_check::uniform<XS>();
const auto v2 = fd_check::uniform<XS>();

/// tf::gradient(loss, V) against central differences of loss in each element of V's value
/// (set in the session's slot), the tolerances of fd_check.
template <class V, class Sess, class Loss, class... Feeds>
void check_variable_gradient(Sess& sess, Loss loss, const Feeds&... feeds) {
  const auto got = sess.run(tf::gradient(loss, V{}), feeds...);
  auto& value = sess.template slot<V>().value;
  constexpr fd_check::tolerance tol{};
  for (std::size_t i = 0; i < value.size(); ++i) {
    const double saved = value.flat(i);
    const double h = tol.step * std::max(1.0, std::abs(saved));
    value.flat(i) = saved + h;
    const double lp = sess.run(loss, feeds...);
    value.flat(i) = saved - h;
    const double lm = sess.run(loss, feeds...);
    value.flat(i) = saved;
    const double fd = (lp - lm) / (2 * h);
    INFO(V::name.view() << " element " << i << ": gradient " << got.flat(i) << ", central difference " << fd);
    CHECK(std::abs(got.flat(i) - fd) <= tol.atol + tol.rtol * std::abs(fd));
  }
}

template <class Outs, class Final>
auto make_loss(const Outs& outs, const Final& final_h) {
  return tf::reduce_sum(tf::square(std::get<0>(outs))) + tf::constant<0.5>() * tf::reduce_sum(std::get<1>(outs)) +
         tf::reduce_sum(std::get<2>(outs) * std::get<2>(outs) * std::get<2>(outs)) +
         tf::reduce_sum(tf::square(final_h));
}
}  // namespace

TEST_CASE("gru_cell through static_rnn: gradients of the kernels, biases and inputs") {
  auto [outs, fin] = rnn::static_rnn(rnn::gru_cell<3>{}, std::tuple{x0, x1, x2});
  auto loss = make_loss(outs, fin);
  tf::session sess(loss);
  set_reference_weights(sess);
  using gk = tf::variable_node<"rnn/gru_cell/gates/kernel", double, tf::shape<5, 6>,
                               tf::init::fixed<tf::init::glorot_uniform()>>;
  using gb = tf::variable_node<"rnn/gru_cell/gates/bias", double, tf::shape<6>, tf::init::fixed<tf::init::constant(1.0)>>;
  using ck = tf::variable_node<"rnn/gru_cell/candidate/kernel", double, tf::shape<5, 3>,
                               tf::init::fixed<tf::init::glorot_uniform()>>;
  using cb = tf::variable_node<"rnn/gru_cell/candidate/bias", double, tf::shape<3>, tf::init::fixed<tf::init::zeros()>>;
  const auto feeds = std::tuple{tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(x2, v2)};
  std::apply([&](const auto&... f) {
    check_variable_gradient<gk>(sess, loss, f...);
    check_variable_gradient<gb>(sess, loss, f...);
    check_variable_gradient<ck>(sess, loss, f...);
    check_variable_gradient<cb>(sess, loss, f...);
  }, feeds);
  fd_check::check_gradient(sess, loss, x0, v0, tf::feed(x1, v1), tf::feed(x2, v2));
  fd_check::check_gradient(sess, loss, x2, v2, tf::feed(x0, v0), tf::feed(x1, v1));
}

TEST_CASE("gru_cell through static_rnn with sequence_length: gradients through the masks") {
  auto [outs, fin] = rnn::static_rnn(rnn::gru_cell<3>{}, std::tuple{x0, x1, x2}, rnn::zero_initial_state, len);
  auto loss = make_loss(outs, fin);
  tf::session sess(loss);
  set_reference_weights(sess);
  using gk = tf::variable_node<"rnn/gru_cell/gates/kernel", double, tf::shape<5, 6>,
                               tf::init::fixed<tf::init::glorot_uniform()>>;
  const xt::xtensor_fixed<std::int32_t, xt::xshape<2>> lengths{3, 1};
  check_variable_gradient<gk>(sess, loss, tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(x2, v2), tf::feed(len, lengths));
  fd_check::check_gradient(sess, loss, x0, v0, tf::feed(x1, v1), tf::feed(x2, v2), tf::feed(len, lengths));
  fd_check::check_gradient(sess, loss, x1, v1, tf::feed(x0, v0), tf::feed(x2, v2), tf::feed(len, lengths));
}

TEST_CASE("basic_lstm_cell through static_rnn: gradients of the kernel, bias and inputs") {
  auto c = tf::placeholder<"c", double, tf::shape<2, 3>>();
  auto h = tf::placeholder<"h", double, tf::shape<2, 3>>();
  auto [outs, fin] = rnn::static_rnn(rnn::basic_lstm_cell<3>{}, std::tuple{x0, x1, x2}, rnn::lstm_state_tuple{c, h});
  auto loss = make_loss(outs, fin.h) + tf::reduce_sum(tf::square(fin.c));
  tf::session sess(loss);
  set_reference_weights(sess);
  using k = tf::variable_node<"rnn/basic_lstm_cell/kernel", double, tf::shape<5, 12>,
                              tf::init::fixed<tf::init::glorot_uniform()>>;
  using b = tf::variable_node<"rnn/basic_lstm_cell/bias", double, tf::shape<12>, tf::init::fixed<tf::init::zeros()>>;
  const auto c0 = fd_check::uniform<tf::shape<2, 3>>(-0.5, 0.5);
  const auto h0 = fd_check::uniform<tf::shape<2, 3>>(-0.5, 0.5);
  check_variable_gradient<k>(sess, loss, tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(x2, v2), tf::feed(c, c0),
                             tf::feed(h, h0));
  check_variable_gradient<b>(sess, loss, tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(x2, v2), tf::feed(c, c0),
                             tf::feed(h, h0));
  fd_check::check_gradient(sess, loss, x1, v1, tf::feed(x0, v0), tf::feed(x2, v2), tf::feed(c, c0), tf::feed(h, h0));
  fd_check::check_gradient(sess, loss, c, c0, tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(x2, v2), tf::feed(h, h0));
}
