// rnn::attention_decoder's gradients against central differences in double precision
// (tests/autodiff/fd_check.hpp): a GRU(2) decoder over 2 steps attending to [2, 2, 2]
// states, every variable (AttnW_0, AttnV_0, the input and output linear maps, the
// attention's linear map, the cell's) and every input (decoder inputs, initial state,
// attention states).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <tuple>

#include <boost/mp11/list.hpp>

#include <typeflow/rnn/seq2seq.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "rnn_testing.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
auto x0 = tf::placeholder<"x0", double, tf::shape<2, 2>>();
auto x1 = tf::placeholder<"x1", double, tf::shape<2, 2>>();
auto h = tf::placeholder<"h", double, tf::shape<2, 2>>();
auto att = tf::placeholder<"att", double, tf::shape<2, 2, 2>>();
const auto v0 = fd_check::uniform<tf::shape<2, 2>>();
const auto v1 = fd_check::uniform<tf::shape<2, 2>>();
const auto hv = fd_check::uniform<tf::shape<2, 2>>(-0.5, 0.5);
const auto av = fd_check::uniform<tf::shape<2, 2, 2>>();

/// tf::gradient(loss, V) against central differences of loss in each element of V's value.
template <class V, class Sess, class Loss, class... Feeds>
void check_variable_gradient(Sess& sess, Loss loss, const Feeds&... feeds) {
  const auto got = sess.run(tf::gradient(loss, V{}), feeds...);
  auto& value = sess.template slot<V>().value;
  constexpr fd_check::tolerance tol{};
  for (std::size_t i = 0; i < value.size(); ++i) {
    const double saved = value.flat(i);
    const double step = tol.step * std::max(1.0, std::abs(saved));
    value.flat(i) = saved + step;
    const double lp = sess.run(loss, feeds...);
    value.flat(i) = saved - step;
    const double lm = sess.run(loss, feeds...);
    value.flat(i) = saved;
    const double fd = (lp - lm) / (2 * step);
    INFO(V::name.view() << " element " << i << ": gradient " << got.flat(i) << ", central difference " << fd);
    CHECK(std::abs(got.flat(i) - fd) <= tol.atol + tol.rtol * std::abs(fd));
  }
}
}  // namespace

TEST_CASE("attention_decoder: gradients of every variable and input against finite differences") {
  auto [outs, fin] = rnn::attention_decoder<2>(std::tuple{x0, x1}, h, att, rnn::gru_cell<2>{});
  auto loss = tf::reduce_sum(tf::square(std::get<0>(outs))) + tf::reduce_sum(std::get<1>(outs) * x0) +
              tf::reduce_sum(tf::square(fin));
  tf::session sess(loss);
  using vars = decltype(sess)::variables;
  static_assert(boost::mp11::mp_size<vars>::value == 12);
  rnn_testing::set_reference_weights(sess);  // every variable, biases too, away from their initial zeros
  const auto feeds = std::tuple{tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(h, hv), tf::feed(att, av)};
  [&]<class... V>(boost::mp11::mp_list<V...>) {
    std::apply([&](const auto&... f) { (check_variable_gradient<V>(sess, loss, f...), ...); }, feeds);
  }(vars{});
  fd_check::check_gradient(sess, loss, x0, v0, tf::feed(x1, v1), tf::feed(h, hv), tf::feed(att, av));
  fd_check::check_gradient(sess, loss, x1, v1, tf::feed(x0, v0), tf::feed(h, hv), tf::feed(att, av));
  fd_check::check_gradient(sess, loss, h, hv, tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(att, av));
  fd_check::check_gradient(sess, loss, att, av, tf::feed(x0, v0), tf::feed(x1, v1), tf::feed(h, hv));
}
