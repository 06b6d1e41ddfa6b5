// Getting started, "Debugging with tf.Print" (docs/getting-started.md): a print node
// prints when, and only when, a run's path goes through it.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  std::ostringstream printed;

  // [snippet on_path]
  auto two_node = tf::constant<2>();
  auto three_node = tf::constant<3>();
  auto sum_node = two_node + three_node;
  auto print_sum_node = tf::print<"">(sum_node, two_node, three_node);
  tf::session sess(print_sum_node);
  sess.set_print_stream(printed);  // std::cerr unless told otherwise

  std::cout << sess.run(print_sum_node) << '\n';  // 5, and printed holds "[2][3]\n"
  // [/snippet on_path]
  EXPECT(printed.str() == "[2][3]\n");
  EXPECT(sess.run(print_sum_node) == 5);
  EXPECT(printed.str() == "[2][3]\n[2][3]\n");

  printed.str("");
  // [snippet off_path]
  auto print_two_node = tf::print<"">(two_node, two_node, three_node, sum_node);
  std::cout << sess.run(sum_node) << '\n';  // 5, and nothing is printed
  // [/snippet off_path]
  EXPECT(printed.str().empty());
  (void)print_two_node;

  // [snippet message]
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto checked = tf::print<"x and its sum: ">(x, x, tf::reduce_sum(x));
  tf::session xs(checked);
  xs.set_print_stream(printed);
  xt::xtensor_fixed<float, xt::xshape<2, 3>> value = {{1, 2, 3}, {4, 5, 6}};
  xs.run(checked, tf::feed(x, value));
  // printed: "x and its sum: [[1 2 3...]][21]\n"  (3 elements per tensor by default)
  // [/snippet message]
  EXPECT(printed.str() == "x and its sum: [[1 2 3...]][21]\n");

  printed.str("");
  // [snippet summarize]
  auto all = tf::print<"x: ", 6>(x, x);  // up to 6 elements per tensor
  xs.run(all, tf::feed(x, value));       // printed: "x: [[1 2 3][4 5 6]]\n"
  // [/snippet summarize]
  EXPECT(printed.str() == "x: [[1 2 3][4 5 6]]\n");
  return 0;
}
