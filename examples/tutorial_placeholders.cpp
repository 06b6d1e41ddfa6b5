// Getting started, "Placeholders and feed_dict" (docs/getting-started.md).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet feed]
    auto input_placeholder = tf::placeholder<"input", std::int32_t>();
    tf::session sess(input_placeholder);
    std::int32_t two = sess.run(input_placeholder, tf::feed(input_placeholder, 2));
    std::cout << two << '\n';  // 2
    // [/snippet feed]
    EXPECT(two == 2);
  }
  {
    // [snippet tensor_feed]
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();  // [None, 3]
    auto doubled = x * tf::constant<2>();
    tf::session sess(doubled);

    xt::xtensor<float, 2> two_rows = {{1, 2, 3}, {4, 5, 6}};
    xt::xtensor<float, 2> result = sess.run(doubled, tf::feed(x, two_rows));
    // result is {{2, 4, 6}, {8, 10, 12}}
    // [/snippet tensor_feed]
    EXPECT(result == xt::xtensor<float, 2>{{2, 4, 6}, {8, 10, 12}});

    // [snippet wrong_shape]
    xt::xtensor<float, 2> two_columns = {{1, 2}, {3, 4}};
    try {
      sess.run(doubled, tf::feed(x, two_columns));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error& e) {
      std::cout << e.what() << '\n';
      EXPECT(e.message() ==
             "Cannot feed value of shape [2, 2] for placeholder 'x', which has shape [?, 3]");
    }
    // [/snippet wrong_shape]
  }
  return 0;
}
