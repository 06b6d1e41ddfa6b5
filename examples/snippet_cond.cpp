// docs/reference/loops.md: tf.cond — the value of one of two branches, only that branch
// computed; several results; gradients through the branch taken. tf.case, a chain of conds.
#include <cstdint>
#include <tuple>

#include <xtensor/xtensor.hpp>

#include <typeflow/control/case.hpp>
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet cond]
    // z = tf.cond(x < y, lambda: x * 17, lambda: y + 23)
    auto x = tf::placeholder<"x", std::int32_t>();
    auto y = tf::placeholder<"y", std::int32_t>();
    auto z = tf::cond(tf::less(x, y), [&] { return x * tf::constant<17>(); }, [&] { return y + tf::constant<23>(); });
    tf::session sess(z);
    const std::int32_t a = sess.run(z, tf::feed(x, 2), tf::feed(y, 5));  // 34: only x * 17 ran
    const std::int32_t b = sess.run(z, tf::feed(x, 2), tf::feed(y, 1));  // 24: only y + 23 ran
    // [/snippet cond]
    EXPECT(a == 34);
    EXPECT(b == 24);
  }
  {
    // [snippet cond_gradient]
    // The gradient flows through the branch taken: 42 when c < 2, else 3 (testCondGrad_2).
    auto c = tf::placeholder<"c", std::int32_t>();
    auto w = tf::variable<"w", float, tf::shape<2>, tf::init::constant(10.0)>();
    auto [r, total] = tf::cond(
        tf::less(c, tf::constant<2>()), [&] { return std::tuple{w * tf::constant<42.0f>(), tf::reduce_sum(w)}; },
        [&] { return std::tuple{w * tf::constant<3.0f>(), tf::constant<0.0f>()}; });
    auto dw = tf::gradient(tf::reduce_sum(r), w);
    tf::session sess(dw, total);
    sess.initialize_all();
    const auto [g1, t1] = sess.run(tf::fetch(dw, total), tf::feed(c, 1));  // g1 == {42, 42}; t1 == 20
    const auto [g3, t3] = sess.run(tf::fetch(dw, total), tf::feed(c, 3));  // g3 == {3, 3};   t3 == 0
    // [/snippet cond_gradient]
    EXPECT(g1 == xt::xtensor_fixed<float, xt::xshape<2>>{42, 42});
    EXPECT(g3 == xt::xtensor_fixed<float, xt::xshape<2>>{3, 3});
    EXPECT(t1 == 20.0f);
    EXPECT(t3 == 0.0f);
  }
  {
    // [snippet case]
    // tf.case([(tf.equal(x, 1), lambda: 2), (tf.equal(x, 2), lambda: 4)], default=lambda: 6, exclusive=True)
    auto x = tf::placeholder<"x", std::int32_t>();
    auto out = tf::case_(std::tuple{std::pair{tf::equal(x, tf::constant<1>()), [] { return tf::constant<2>(); }},
                                    std::pair{tf::equal(x, tf::constant<2>()), [] { return tf::constant<4>(); }}},
                         [] { return tf::constant<6>(); }, tf::exclusive);
    tf::session sess(out);
    const std::int32_t two = sess.run(out, tf::feed(x, 1));  // 2
    const std::int32_t six = sess.run(out, tf::feed(x, 5));  // 6: no predicate holds
    // [/snippet case]
    EXPECT(two == 2);
    EXPECT(six == 6);
  }
  return 0;
}
