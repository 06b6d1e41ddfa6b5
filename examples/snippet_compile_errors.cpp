// docs/reference/compile-errors.md: the fix of each compile-time error, compiled and run.
// The failing programs themselves are in docs/compile-errors/ (not built).
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet unfed_placeholder]
    auto input_placeholder = tf::placeholder<"input", std::int32_t>();
    auto sum_node = input_placeholder + tf::constant<3>();
    tf::session sess(sum_node);
    EXPECT(sess.run(sum_node, tf::feed(input_placeholder, 2)) == 5);
    // [/snippet unfed_placeholder]
  }
  {
    // [snippet duplicate_name]
    auto x = tf::placeholder<"x", float>();
    auto other_x = tf::placeholder<"x_double", double>();
    tf::session sess(x + tf::cast<float>(other_x));
    // [/snippet duplicate_name]
  }
  {
    // [snippet matmul]
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
    auto w = tf::variable<"w", float, tf::shape<3, 2>>();               // 3 rows for 3 columns
    auto row = tf::placeholder<"row", float, tf::shape<3>>();
    auto y = tf::matmul(tf::reshape<tf::shape<1, 3>>(row), w);          // a vector as [1, 3]
    static_assert(std::is_same_v<tf::shape_of<decltype(tf::matmul(x, w))>, tf::shape<tf::dyn, 2>>);
    static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<1, 2>>);
    // [/snippet matmul]
  }
  {
    // [snippet broadcast]
    auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
    auto per_row = tf::placeholder<"per_row", float, tf::shape<2, 1>>();  // [2, 1], not [2]
    static_assert(std::is_same_v<tf::shape_of<decltype(a + per_row)>, tf::shape<2, 3>>);
    // [/snippet broadcast]
  }
  {
    // [snippet element_type]
    auto a = tf::placeholder<"a", float>();
    auto b = tf::placeholder<"b", double>();
    auto n = tf::placeholder<"n", std::int32_t>();
    auto sum = a + tf::cast<float>(b);
    auto root = tf::sqrt(tf::cast<float>(n));
    auto checked = tf::check_numerics<"n">(tf::cast<float>(n));
    tf::session sess;
    EXPECT(sess.run(sum, tf::feed(a, 1.0f), tf::feed(b, 2.0)) == 3.0f);
    EXPECT(sess.run(root, tf::feed(n, 9)) == 3.0f);
    EXPECT(sess.run(checked, tf::feed(n, 9)) == 9.0f);
    // [/snippet element_type]
  }
  {
    // [snippet shapes]
    auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
    auto rows_of_two = tf::reshape<tf::shape<tf::dyn, 2>>(a);  // 6 elements: [3, 2]
    auto swapped = tf::transpose<1, 0>(a);
    auto row_sums = tf::reduce_sum<-1>(a);                     // the last axis
    auto probabilities = tf::softmax(a);                       // rank >= 1
    static_assert(std::is_same_v<tf::shape_of<decltype(rows_of_two)>, tf::shape<3, 2>>);
    static_assert(std::is_same_v<tf::shape_of<decltype(swapped)>, tf::shape<3, 2>>);
    static_assert(std::is_same_v<tf::shape_of<decltype(row_sums)>, tf::shape<2>>);
    static_assert(std::is_same_v<tf::shape_of<decltype(probabilities)>, tf::shape<2, 3>>);
    // [/snippet shapes]
  }
  {
    // [snippet assign]
    auto v = tf::variable<"v", float, tf::shape<3>>();
    auto value = tf::placeholder<"value", double, tf::shape<3>>();
    auto set = tf::assign(v, tf::cast<float>(value));  // the variable's dtype and shape
    auto init = tf::variables_initializer(v);          // variables only
    tf::session sess(set);
    sess.run(init);
    xt::xtensor_fixed<double, xt::xshape<3>> value_data = {1, 2, 3};
    EXPECT(sess.run(set, tf::feed(value, value_data)) ==
           xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
    // [/snippet assign]
  }
  {
    // [snippet variable_shape]
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();  // the batch is dynamic,
    auto w = tf::variable<"w", float, tf::shape<3, 3>>();           // the parameters are not
    (void)tf::matmul(x, w);
    // [/snippet variable_shape]
  }
  {
    // [snippet session_graph]
    auto v = tf::variable<"v", float>(tf::init::ones());
    auto w = tf::variable<"w2", float>(tf::init::ones());
    tf::session sess(v + w);  // a root that reaches both
    sess.run(tf::global_variables_initializer());
    EXPECT(sess.run(v + w) == 2.0f);
    // [/snippet session_graph]
  }
  {
    // [snippet feeds]
    auto x = tf::placeholder<"x", float, tf::shape<3>>();
    tf::session sess(x);
    xt::xtensor_fixed<double, xt::xshape<3>> doubles = {1, 2, 3};
    xt::xtensor_fixed<float, xt::xshape<3>> floats = doubles;  // convert the data, not the node
    EXPECT(sess.run(x * x, tf::feed(x, floats)) == xt::xtensor_fixed<float, xt::xshape<3>>{1, 4, 9});
    // [/snippet feeds]
  }
  return 0;
}
