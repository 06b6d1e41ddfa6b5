// docs/reference/loops.md: loops in the graph — tf.scan, the loop under dynamic_rnn with
// sequence lengths, gradients through a loop, a loop in a loop's body.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <utility>

#include <xtensor/xtensor.hpp>

#include <typeflow/control/scan.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet scan]
    // tf.scan(lambda a, x: a + x, elems, initializer=0.0): running sums.
    auto elems = tf::placeholder<"elems", float, tf::shape<tf::dyn>>();
    auto sums = tf::scan([](auto a, auto x) { return a + x; }, elems, tf::constant<0.0f>());
    tf::session sess(sums);
    const xt::xtensor<float, 1> got = sess.run(sums, tf::feed(elems, xt::xtensor<float, 1>{1, 2, 3, 4}));
    // got == {1, 3, 6, 10}; a run with 100 elements runs the same compiled body 100 times.
    // [/snippet scan]
    EXPECT(got == xt::xtensor<float, 1>{1, 3, 6, 10});
  }
  {
    // [snippet gradient]
    // A loop that reads a variable: the gradient flows to it, to the sequence and to the
    // initial state, through a reverse loop over the steps.
    auto xs = tf::placeholder<"xs", double, tf::shape<tf::dyn, 2>>();
    auto w = tf::variable<"w", double, tf::shape<2>, tf::init::constant(0.5)>();
    auto ys = tf::scan<"decay">([&](auto a, auto x) { return a * w + x; }, xs, tf::constant<"a0">(xt::xtensor_fixed<double, xt::xshape<2>>{1, 1}));
    auto loss = tf::reduce_sum(ys);
    auto [dw, dxs] = tf::gradients(loss, w, xs);
    tf::session sess(loss, dw, dxs);
    sess.initialize_all();
    const auto [l, gw, gx] = sess.run(tf::fetch(loss, dw, dxs), tf::feed(xs, xt::xtensor<double, 2>{{1, 2}, {3, 4}}));
    // ys = [[1.5, 2.5], [3.75, 5.25]]: l == 13; gw == a0 + ys[0] + w a0 == [3, 4];
    // gx == [[1 + w, 1 + w], [1, 1]]
    // [/snippet gradient]
    EXPECT(l == 13.0);
    EXPECT(gw(0) == 3.0 && gw(1) == 4.0);
    EXPECT(gx == xt::xtensor<double, 2>{{1.5, 1.5}, {1, 1}});
  }
  {
    // [snippet lengths]
    // The loop under dynamic_rnn: states [batch, 2] carried over xs [time, batch, 2]; an
    // example past its length outputs zeros and keeps its state.
    auto xs = tf::placeholder<"xs", float, tf::shape<tf::dyn, tf::dyn, 2>>();
    auto h0 = tf::placeholder<"h0", float, tf::shape<tf::dyn, 2>>();
    auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<tf::dyn>>();
    auto loop = tf::control::dynamic_loop<"accumulate">(
        [](const auto& states, const auto& x) {
          auto h = std::get<0>(states) + x;           // the new state
          return std::pair{h, std::tuple{h}};         // (the step's output, its new states)
        },
        xs, std::tuple{h0}, lengths);
    auto outputs = loop.outputs;                      // [time, batch, 2]
    auto last = std::get<0>(loop.final_state);        // [batch, 2]
    tf::session sess(outputs, last);
    const auto [out, h] = sess.run(tf::fetch(outputs, last), tf::feed(xs, xt::xtensor<float, 3>{{{1, 1}, {1, 1}}, {{2, 2}, {2, 2}}}),
                                   tf::feed(h0, xt::xtensor<float, 2>{{0, 0}, {10, 10}}),
                                   tf::feed(lengths, xt::xtensor<std::int32_t, 1>{2, 1}));
    // out == {{{1, 1}, {11, 11}}, {{3, 3}, {0, 0}}}; h == {{3, 3}, {11, 11}}
    // [/snippet lengths]
    EXPECT(out == xt::xtensor<float, 3>{{{1, 1}, {11, 11}}, {{3, 3}, {0, 0}}});
    EXPECT(h == xt::xtensor<float, 2>{{3, 3}, {11, 11}});
  }
  {
    // [snippet nested]
    // A loop in a loop's body: for each row, the inner loop's running sums; the outer
    // state adds up their totals.
    auto rows = tf::placeholder<"rows", float, tf::shape<tf::dyn, 3>>();
    auto totals = tf::scan<"outer">(
        [](auto acc, auto row) {
          auto inner = tf::scan<"inner">([](auto a, auto x) { return a + x; }, row, tf::constant<0.0f>());
          return acc + tf::reduce_sum(inner);
        },
        rows, tf::constant<0.0f>());
    tf::session sess(totals);
    const xt::xtensor<float, 1> got = sess.run(totals, tf::feed(rows, xt::xtensor<float, 2>{{1, 2, 3}, {1, 1, 1}}));
    // row 0: 1 + 3 + 6 = 10; row 1: 1 + 2 + 3 = 6; got == {10, 16}
    // [/snippet nested]
    EXPECT(got == xt::xtensor<float, 1>{10, 16});
  }
  std::puts("loops: every value as documented");
  return 0;
}
