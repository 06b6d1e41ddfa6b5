// Getting started, "Computation paths" (docs/getting-started.md): a run evaluates only
// the ancestors of its fetches, so only the placeholders on that path need a feed.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet paths]
  auto input_placeholder = tf::placeholder<"input", std::int32_t>();
  auto three_node = tf::constant<3>();
  auto sum_node = input_placeholder + three_node;
  tf::session sess(sum_node);

  std::cout << sess.run(three_node) << '\n';  // 3: the placeholder is not on the path
  std::cout << sess.run(sum_node, tf::feed(input_placeholder, 2)) << '\n';  // 5
  // [/snippet paths]
  EXPECT(sess.run(three_node) == 3);
  EXPECT(sess.run(sum_node, tf::feed(input_placeholder, 2)) == 5);

  // [snippet describe_path]
  std::cout << tf::describe_path(tf::fetch(three_node)).to_text();
  // Const = Const() : int32 []
  std::cout << tf::describe_path(sum_node, tf::feed(input_placeholder, 2)).to_text();
  // input = Placeholder() : int32 []
  // Const = Const() : int32 []
  // add = add(input, Const) : int32 []
  // [/snippet describe_path]
  EXPECT(tf::describe_path(tf::fetch(three_node)).to_text() == "Const = Const() : int32 []\n");
  EXPECT(tf::describe_path(sum_node, tf::feed(input_placeholder, 2)).to_text() ==
         "input = Placeholder() : int32 []\n"
         "Const = Const() : int32 []\n"
         "add = add(input, Const) : int32 []\n");

  // [snippet feed_any_node]
  auto doubled = sum_node * tf::constant<2>();
  // Feeding sum_node cuts the path there: input_placeholder needs no value.
  std::cout << sess.run(doubled, tf::feed(sum_node, 10)) << '\n';  // 20
  // [/snippet feed_any_node]
  EXPECT(sess.run(doubled, tf::feed(sum_node, 10)) == 20);
  return 0;
}
