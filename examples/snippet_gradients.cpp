// docs/reference/gradients.md: gradients derived from the graph's type.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet basic]
    auto x = tf::placeholder<"x", double>();
    auto w = tf::variable<"w", double>(tf::init::constant(3.0));
    auto y = w * x * x + tf::exp(x);

    auto [dy_dx, dy_dw] = tf::gradients(y, x, w);  // tf.gradients(y, [x, w])
    tf::session sess(y);
    sess.initialize_all();
    auto [value, gx, gw] = sess.run(tf::fetch(y, dy_dx, dy_dw), tf::feed(x, 2.0));
    // y = 3 * 4 + e^2; dy/dx = 2 w x + e^x; dy/dw = x^2
    EXPECT(std::abs(gx - (12.0 + std::exp(2.0))) < 1e-12);
    EXPECT(gw == 4.0);
    // [/snippet basic]
    (void)value;
  }
  {
    // [snippet second_order]
    auto x = tf::placeholder<"x2", double>();
    auto y = x * x * x;
    auto dy = tf::gradient(y, x);    // 3 x^2, an ordinary node
    auto d2y = tf::gradient(dy, x);  // 6 x: gradients of gradients
    tf::session sess(d2y);
    EXPECT(sess.run(d2y, tf::feed(x, 2.0)) == 12.0);
    // [/snippet second_order]
  }
  {
    // [snippet broadcasting]
    auto x = tf::placeholder<"bx", float, tf::shape<tf::dyn, 3>>();
    auto b = tf::variable<"bb", float, tf::shape<3>>(tf::init::zeros());
    auto loss = tf::reduce_sum(x + b);
    auto db = tf::gradient(loss, b);  // summed over the broadcast rows: shape [3]
    static_assert(std::is_same_v<tf::shape_of<decltype(db)>, tf::shape<3>>);
    tf::session sess(loss);
    sess.initialize_all();
    const xt::xtensor<float, 2> rows = {{1, 2, 3}, {4, 5, 6}};
    EXPECT(sess.run(db, tf::feed(x, rows)) == xt::xtensor_fixed<float, xt::xshape<3>>{2, 2, 2});
    // [/snippet broadcasting]
  }
  {
    // [snippet stop_and_zero]
    auto x = tf::placeholder<"sx", double>();
    auto u = tf::placeholder<"su", double>();
    auto y = tf::stop_gradient(x * x) + x;
    auto [gx, gu] = tf::gradients(y, x, u);  // u does not reach y: zeros of u's shape
    tf::session sess(y);
    EXPECT(sess.run(gx, tf::feed(x, 5.0)) == 1.0);
    EXPECT(sess.run(gu, tf::feed(u, 7.0)) == 0.0);
    // [/snippet stop_and_zero]
  }
  {
    // [snippet grad_ys]
    auto x = tf::placeholder<"gx", double, tf::shape<2>>();
    auto y = x * x;  // not a scalar
    auto weights = tf::constant<"gy">(xt::xtensor_fixed<double, xt::xshape<2>>{1.0, 10.0});
    auto g = tf::gradient(tf::grad_ys(y, weights), x);  // sum_i weights_i * dy_i/dx
    tf::session sess(y);
    const xt::xtensor_fixed<double, xt::xshape<2>> at = {3, 4};
    EXPECT(sess.run(g, tf::feed(x, at)) == xt::xtensor_fixed<double, xt::xshape<2>>{6, 80});
    // [/snippet grad_ys]
  }
  std::puts("snippet_gradients: ok");
  return 0;
}
