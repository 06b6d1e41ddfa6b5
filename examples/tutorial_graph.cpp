// Getting started, "The computation graph" (docs/getting-started.md): nodes are values
// whose types describe the graph; building them computes nothing.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

// [snippet namespace]
namespace tf = typeflow;
// [/snippet namespace]

int main() {
  // [snippet two_node]
  auto two_node = tf::constant<2>();
  std::cout << tf::describe_graph(two_node).to_text();  // Const = Const() : int32 []
  // [/snippet two_node]
  EXPECT(tf::describe_graph(two_node).to_text() == "Const = Const() : int32 []\n");

  // [snippet same_node]
  auto another_two_node = tf::constant<2>();
  static_assert(std::is_same_v<decltype(two_node), decltype(another_two_node)>);
  // [/snippet same_node]

  // [snippet sum_node]
  auto three_node = tf::constant<3>();
  auto sum_node = two_node + three_node;  // or tf::add(two_node, three_node)
  std::cout << tf::describe_graph(sum_node).to_text();
  // [/snippet sum_node]
  EXPECT(tf::describe_graph(sum_node).to_text() ==
         "Const = Const() : int32 []\n"
         "Const_1 = Const() : int32 []\n"
         "add = add(Const, Const_1) : int32 []\n");
  static_assert(std::is_same_v<decltype(sum_node), decltype(tf::add(two_node, three_node))>);

  // [snippet shared_sum]
  auto four_node = two_node + another_two_node;  // one Const node, used twice
  std::cout << tf::describe_graph(four_node).to_text();
  // [/snippet shared_sum]
  EXPECT(tf::describe_graph(four_node).to_text() ==
         "Const = Const() : int32 []\n"
         "add = add(Const, Const) : int32 []\n");

  // [snippet types]
  using sum_type = decltype(sum_node);
  static_assert(std::is_same_v<tf::value_type_of<sum_type>, std::int32_t>);
  static_assert(tf::shape_of<sum_type>::rank == 0);
  // [/snippet types]
  return 0;
}
