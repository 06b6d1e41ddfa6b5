// docs/reference/loops.md: tf.map_fn — fn applied to each element along the first
// dimension, the results stacked; several sequences and outputs; gradients.
#include <cstdint>
#include <tuple>

#include <xtensor/xtensor.hpp>

#include <typeflow/control/map_fn.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet map_fn]
    // tf.map_fn(lambda x: tf.reduce_sum(x * w), elems): one loop step per row of elems.
    auto elems = tf::placeholder<"elems", float, tf::shape<tf::dyn, 3>>();
    auto w = tf::variable<"w", float, tf::shape<3>, tf::init::constant(0.5)>();
    auto sums = tf::map_fn([&](auto x) { return tf::reduce_sum(x * w); }, elems);  // [n]
    auto dw = tf::gradient(tf::reduce_sum(sums), w);                               // through the loop
    tf::session sess(sums, dw);
    sess.initialize_all();
    const auto [got, g] = sess.run(tf::fetch(sums, dw), tf::feed(elems, xt::xtensor<float, 2>{{1, 2, 3}, {4, 5, 6}}));
    // got == {3, 7.5}; g == {5, 7, 9}. With 0 rows, got is empty (shape [0]).
    // [/snippet map_fn]
    EXPECT(got == xt::xtensor<float, 1>{3, 7.5});
    EXPECT(g == xt::xtensor_fixed<float, xt::xshape<3>>{5, 7, 9});
  }
  {
    // [snippet map_fn_structures]
    // tf.map_fn(lambda x: (x[0] * x[1], x[0] - x[1]), (a, b), dtype=(tf.int64, tf.int64)):
    // several sequences of one shape, several outputs of one shape; the element types are fn's.
    auto a = tf::placeholder<"a", std::int64_t, tf::shape<tf::dyn>>();
    auto b = tf::placeholder<"b", std::int64_t, tf::shape<tf::dyn>>();
    auto [prod, diff] = tf::map_fn(
        [](auto x) { return std::tuple{std::get<0>(x) * std::get<1>(x), std::get<0>(x) - std::get<1>(x)}; },
        std::tuple{a, b});
    tf::session sess(prod, diff);
    const auto [p, d] = sess.run(tf::fetch(prod, diff), tf::feed(a, xt::xtensor<std::int64_t, 1>{1, 2, 3}),
                                 tf::feed(b, xt::xtensor<std::int64_t, 1>{4, 5, 6}));
    // p == {4, 10, 18}; d == {-3, -3, -3}
    // [/snippet map_fn_structures]
    EXPECT(p == xt::xtensor<std::int64_t, 1>{4, 10, 18});
    EXPECT(d == xt::xtensor<std::int64_t, 1>{-3, -3, -3});
  }
  return 0;
}
