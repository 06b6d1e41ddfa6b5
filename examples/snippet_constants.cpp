// docs/reference/constants.md: compile-time literals and named constant tensors.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

template <class N>
using dtype_of_node = tf::value_type_of<N>;

int main() {
  // [snippet literal_types]
  static_assert(std::is_same_v<dtype_of_node<decltype(tf::constant<2>())>, std::int32_t>);
  static_assert(std::is_same_v<dtype_of_node<decltype(tf::constant<2L>())>, std::int64_t>);
  static_assert(std::is_same_v<dtype_of_node<decltype(tf::constant<2.0>())>, double>);
  static_assert(std::is_same_v<dtype_of_node<decltype(tf::constant<2.0f>())>, float>);
  static_assert(std::is_same_v<dtype_of_node<decltype(tf::constant<true>())>, bool>);
  static_assert(std::is_same_v<dtype_of_node<decltype(tf::constant<0.5, float>())>, float>);
  // [/snippet literal_types]

  // [snippet literal_identity]
  auto two = tf::constant<2>();
  auto another_two = tf::constant<2>();
  static_assert(std::is_same_v<decltype(two), decltype(another_two)>);  // one node
  static_assert(!std::is_same_v<decltype(two), decltype(tf::constant<2.0>())>);
  // [/snippet literal_identity]

  {
    // [snippet adopt]
    auto x = tf::placeholder<"x", float>();
    auto y = x * tf::constant<2>() + tf::constant<0.5>();  // 2 and 0.5 become float
    static_assert(std::is_same_v<tf::value_type_of<decltype(y)>, float>);
    tf::session sess;
    EXPECT(sess.run(y, tf::feed(x, 1.0f)) == 2.5f);
    // [/snippet adopt]
  }
  {
    // [snippet adopt_int]
    auto n = tf::placeholder<"n", std::int32_t>();
    auto doubled = n * tf::constant<2.0>();  // 2.0 converts exactly: the int32 2
    static_assert(std::is_same_v<tf::value_type_of<decltype(doubled)>, std::int32_t>);
    tf::session sess;
    EXPECT(sess.run(doubled, tf::feed(n, 7)) == 14);
    // n * tf::constant<0.5>() does not compile: 0.5 is not an int32
    auto half = tf::cast<float>(n) * tf::constant<0.5>();
    EXPECT(sess.run(half, tf::feed(n, 7)) == 3.5f);
    // [/snippet adopt_int]
  }

  // [snippet named_static]
  xt::xtensor_fixed<float, xt::xshape<2, 3>> values = {{1, 2, 3}, {4, 5, 6}};
  auto table = tf::constant<"table">(values);
  static_assert(std::is_same_v<tf::shape_of<decltype(table)>, tf::shape<2, 3>>);
  tf::session sess;
  EXPECT(sess.run(tf::reduce_sum(table)) == 21.0f);
  // [/snippet named_static]

  // [snippet named_dynamic]
  xt::xtensor<double, 1> weights = {0.25, 0.75};
  auto w = tf::constant<"weights">(weights);  // an xt::xtensor: its dims are dyn
  static_assert(std::is_same_v<tf::shape_of<decltype(w)>, tf::shape<tf::dyn>>);
  auto pi = tf::constant<"pi">(3.14159);      // a scalar: double, shape<>
  static_assert(std::is_same_v<decltype(pi), tf::named_constant_node<"pi", double, tf::shape<>>>);
  // [/snippet named_dynamic]
  EXPECT(sess.run(tf::reduce_sum(w)) == 1.0);

  // [snippet named_explicit]
  xt::xtensor<float, 2> rows = {{1, 0}, {0, 1}};
  auto identity = tf::constant<"identity", float, tf::shape<2, 2>>(rows);  // checked: [2, 2]
  // [/snippet named_explicit]
  EXPECT(sess.run(identity)(1, 1) == 1.0f);

  // [snippet named_twice]
  auto same_table = tf::constant<"table">(values);  // same values: the same node, no copy
  static_assert(std::is_same_v<decltype(same_table), decltype(table)>);

  xt::xtensor_fixed<float, xt::xshape<2, 3>> other_values = {{0, 0, 0}, {0, 0, 0}};
  auto other_table = tf::constant<"table">(other_values);  // another graph's "table"
  EXPECT(tf::session(other_table).run(tf::reduce_sum(other_table)) == 0.0f);
  try {
    auto both = table + other_table;  // two definitions of one node in one graph
    EXPECT(!"building the node throws");
    (void)both;
  } catch (const tf::already_exists_error& e) {
    EXPECT(e.message() ==
           "Constant table is defined twice in one graph, with different values; a node's name "
           "identifies it: build it once and use that node");
  }
  // [/snippet named_twice]

  // [snippet named_shape]
  xt::xtensor<float, 2> three_rows = {{1, 2}, {3, 4}, {5, 6}};
  try {
    tf::constant<"square", float, tf::shape<2, 2>>(three_rows);
    EXPECT(!"the definition throws");
  } catch (const tf::invalid_argument_error& e) {
    EXPECT(e.message() == "Constant square has shape [2, 2] but its values have shape [3, 2]");
  }
  // [/snippet named_shape]
  return 0;
}
