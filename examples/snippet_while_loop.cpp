// docs/reference/loops.md: tf.while_loop — loop variables carried while a condition of them
// holds; several variables of different element types; maximum_iterations; gradients
// through the steps taken.
#include <cstdint>
#include <tuple>

#include <xtensor/xtensor.hpp>

#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet while]
    // i = tf.constant(0); r = tf.while_loop(lambda i: tf.less(i, 10), lambda i: tf.add(i, 1), [i])
    auto i = tf::constant<0>();
    auto r = tf::while_loop([](auto i) { return tf::less(i, tf::constant<10>()); },
                            [](auto i) { return i + tf::constant<1>(); }, i);
    tf::session sess(r);
    const std::int32_t ten = sess.run(r);  // 10
    // [/snippet while]
    EXPECT(ten == 10);
  }
  {
    // [snippet while_several]
    // Double x until its sum passes a fed limit, counting the steps, at most 5 of them.
    auto x0 = tf::placeholder<"x0", float, tf::shape<2>>();
    auto limit = tf::placeholder<"limit", float>();
    auto [steps, x] = tf::while_loop<"doubling">(
        [&](auto, auto x) { return tf::less(tf::reduce_sum(x), limit); },
        [](auto n, auto x) { return std::tuple{n + tf::constant<1>(), x * tf::constant<2.0f>()}; },
        std::tuple{tf::constant<0>(), x0}, tf::constant<5>());
    tf::session sess(steps, x);
    const xt::xtensor<float, 1> start{1, 2};
    const auto [n1, x1] = sess.run(tf::fetch(steps, x), tf::feed(x0, start), tf::feed(limit, 20.0f));
    // n1 == 3, x1 == {8, 16}: the sum 24 is past 20
    const auto [n2, x2] = sess.run(tf::fetch(steps, x), tf::feed(x0, start), tf::feed(limit, 1e6f));
    // n2 == 5, x2 == {32, 64}: maximum_iterations stopped it
    // [/snippet while_several]
    EXPECT(n1 == 3);
    EXPECT((x1 == xt::xtensor<float, 1>{8, 16}));
    EXPECT(n2 == 5);
    EXPECT((x2 == xt::xtensor<float, 1>{32, 64}));
  }
  {
    // [snippet while_gradient]
    // testWhileGrad_Square: v = 2, squared while v < 100: 256; d/dv v^8 = 8 v^7 = 1024.
    auto v = tf::placeholder<"v", double>();
    auto r = tf::while_loop([](auto v) { return tf::less(v, tf::constant<100.0>()); },
                            [](auto v) { return tf::square(v); }, v);
    auto dv = tf::gradient(r, v);
    tf::session sess(r, dv);
    const auto [value, grad] = sess.run(tf::fetch(r, dv), tf::feed(v, 2.0));  // 256, 1024
    // [/snippet while_gradient]
    EXPECT(value == 256.0);
    EXPECT(grad == 1024.0);
  }
  return 0;
}
