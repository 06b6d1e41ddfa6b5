// Getting started, "Naming and scopes" (docs/getting-started.md): names are part of the
// types; a scope is a compile-time prefix.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet scopes]
  constexpr auto first = tf::name_scope<"first_scope">{};
  constexpr auto second = first.scope<"second_scope">();

  auto a = tf::placeholder<"a", float>();
  auto b = tf::placeholder<"b", float>();
  auto coef = second.variable<"coef", float>(tf::init::constant(0.5));
  auto product = second(a * b) * coef;
  std::cout << tf::describe_graph(product).to_text();
  // a = Placeholder() : float32 []
  // b = Placeholder() : float32 []
  // first_scope/second_scope/mul = mul(a, b) : float32 []
  // first_scope/second_scope/coef = VariableV2() : float32 []
  // mul = mul(first_scope/second_scope/mul, first_scope/second_scope/coef) : float32 []
  // [/snippet scopes]
  EXPECT(tf::describe_graph(product).to_text() ==
         "a = Placeholder() : float32 []\n"
         "b = Placeholder() : float32 []\n"
         "first_scope/second_scope/mul = mul(a, b) : float32 []\n"
         "first_scope/second_scope/coef = VariableV2() : float32 []\n"
         "mul = mul(first_scope/second_scope/mul, first_scope/second_scope/coef) : float32 []\n");

  // [snippet name]
  static_assert(tf::name_of<decltype(coef)>() == "first_scope/second_scope/coef");
  static_assert(std::is_same_v<decltype(coef),
                               decltype(tf::variable<"first_scope/second_scope/coef", float>(tf::init::constant(0.5)))>);
  // [/snippet name]

  // [snippet run]
  tf::session sess(product);
  sess.run(tf::global_variables_initializer());
  std::cout << sess.run(product, tf::feed(a, 3.0f), tf::feed(b, 4.0f)) << '\n';  // 6
  // [/snippet run]
  EXPECT(sess.run(product, tf::feed(a, 3.0f), tf::feed(b, 4.0f)) == 6.0f);
  return 0;
}
