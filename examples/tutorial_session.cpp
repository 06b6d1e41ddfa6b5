// Getting started, "The session" (docs/getting-started.md): a session evaluates nodes.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <tuple>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet run]
  auto two_node = tf::constant<2>();
  auto three_node = tf::constant<3>();
  auto sum_node = two_node + three_node;
  tf::session sess(sum_node);

  std::int32_t five = sess.run(sum_node);
  std::cout << five << '\n';  // 5
  // [/snippet run]
  EXPECT(five == 5);

  // [snippet fetch]
  auto [two, sum] = sess.run(tf::fetch(two_node, sum_node));
  std::cout << two << ' ' << sum << '\n';  // 2 5
  // [/snippet fetch]
  EXPECT(two == 2 && sum == 5);
  static_assert(std::is_same_v<decltype(sess.run(tf::fetch(two_node, sum_node))),
                               std::tuple<std::int32_t, std::int32_t>>);

  // [snippet no_roots]
  tf::session plain;  // no variables to hold: no roots needed
  EXPECT(plain.run(sum_node) == 5);
  // [/snippet no_roots]
  return 0;
}
