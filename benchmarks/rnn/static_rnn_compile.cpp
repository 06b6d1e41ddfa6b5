// The compile-time budget case of rnn::static_rnn (budget: 30 s and 2 GB at -O2, g++):
// 8 steps of a 2-layer multi_rnn_cell(gru_cell<32>, gru_cell<32>) over inputs of depth 16,
// a dense layer on the last output, reduce_mean of its square, train::adam(1e-2).minimize,
// run in a session. Measure with
//   /usr/bin/time -v g++ -std=c++20 -O2 -DNDEBUG -ftemplate-depth=4096 -I include
//       benchmarks/rnn/static_rnn_compile.cpp -o /tmp/static_rnn_compile -lopenblas
// (one command line)
// With -DPAIRS_BUILT_EMPTY the (gradient, variable) pairs are built empty and assigned, then
// given to apply_gradients: minimize(loss) builds them with std::tuple's constructor
// (train/optimizer.hpp, pairs_for), whose resolution by g++ 12 takes time exponential in the
// depth of a graph with shared inputs. Measured (g++ 12, -O2, 2 shared cores): as written
// (minimize) it did not compile in 10 minutes; built empty, 87 s wall (52 s user) and 1.23 GB
// peak, over the 30 s budget (of which -fsyntax-only is 26 s, 0.77 GB); see
// docs/reference/rnn-cells.md.
#include <cstddef>
#include <cstdio>
#include <tuple>
#include <utility>

#include <boost/mp11/list.hpp>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, 8, 16>>();  // [batch, time, depth]
  auto y = tf::placeholder<"y", float, tf::shape<4, 1>>();
  auto cell = rnn::multi_rnn_cell(rnn::gru_cell<32>{}, rnn::gru_cell<32>{});
  auto [outputs, state] = rnn::static_rnn(cell, tf::unstack<1>(x));
  auto prediction = tf::layers::dense<1, "out">(std::get<7>(outputs));
  auto loss = tf::reduce_mean(tf::square(prediction - y));
#ifdef PAIRS_BUILT_EMPTY
  using vars = typename decltype(tf::session(loss))::variables;
  auto pairs = [&]<class... V>(boost::mp11::mp_list<V...>) {
    std::tuple<tf::train::grad_and_var_t<tf::autodiff::gradient_t<decltype(loss), V>, V>...> p;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::get<I>(p).gradient_node = tf::gradient(loss, V{})), ...);
    }(std::index_sequence_for<V...>{});
    return p;
  }(vars{});
  auto train_op = tf::train::adam(1e-2).apply_gradients(pairs);
#else
  auto train_op = tf::train::adam(1e-2).minimize(loss);
#endif
  tf::session sess(train_op, loss);
  sess.run(tf::global_variables_initializer());
  xt::xtensor_fixed<float, xt::xshape<4, 8, 16>> xv{};
  for (std::size_t i = 0; i < xv.size(); ++i) xv.flat(i) = float(i % 7) / 7.0f - 0.5f;
  xt::xtensor_fixed<float, xt::xshape<4, 1>> yv{{0.5f}, {-0.5f}, {0.25f}, {0.0f}};
  float first = 0, last = 0;
  for (int i = 0; i < 50; ++i) {
    auto [l, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(y, yv));
    (void)done;
    (i == 0 ? first : last) = l;
  }
  std::printf("loss %g -> %g\n", double(first), double(last));
  return last < first ? 0 : 1;
}
