// Getting started, "Variable sharing" (docs/getting-started.md): a variable is its name,
// element type and shape; the definitions that meet in one graph must agree.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

// [snippet model]
// Each call "creates" the variable again: it is the same variable every time.
auto scaled(auto x) {
  auto scale = tf::variable<"scale", float>(tf::init::constant(2.));
  return x * scale;
}
// [/snippet model]

int main() {
  // [snippet shared]
  auto a = tf::placeholder<"a", float>();
  auto b = tf::placeholder<"b", float>();
  auto sum = scaled(a) + scaled(b);  // one variable "scale", used twice
  tf::session sess(sum);
  sess.run(tf::global_variables_initializer());
  std::cout << sess.run(sum, tf::feed(a, 1.0f), tf::feed(b, 10.0f)) << '\n';  // 22

  auto scale = tf::variable<"scale", float>(tf::init::constant(2.));
  sess.run(tf::assign(scale, tf::constant<3>()));
  std::cout << sess.run(sum, tf::feed(a, 1.0f), tf::feed(b, 10.0f)) << '\n';  // 33
  // [/snippet shared]
  EXPECT(sess.run(sum, tf::feed(a, 1.0f), tf::feed(b, 10.0f)) == 33.0f);
  EXPECT(tf::describe_graph(sum).to_text() ==
         "a = Placeholder() : float32 []\n"
         "scale = VariableV2() : float32 []\n"
         "mul = mul(a, scale) : float32 []\n"
         "b = Placeholder() : float32 []\n"
         "mul_1 = mul(b, scale) : float32 []\n"
         "add = add(mul, mul_1) : float32 []\n");

  // [snippet conflict]
  auto zero_scale = tf::variable<"scale", float>(tf::init::zeros());  // another definition
  try {
    auto both = sum * zero_scale;  // meets the first in one graph
    EXPECT(!"building the node throws");
    (void)both;
  } catch (const tf::already_exists_error& e) {
    std::cout << e.what() << '\n';
    EXPECT(e.message() ==
           "Variable scale is defined twice in one graph, with different initializers; a node's "
           "name identifies it: build it once and use that node");
  }
  // [/snippet conflict]

  // [snippet handle]
  using scale_variable = decltype(scale);  // the type is the variable: no initializer needed
  sess.run(tf::assign(scale_variable{}, tf::constant<4>()));
  // [/snippet handle]
  EXPECT(sess.run(scale) == 4.0f);

  // [snippet per_session]
  tf::session other(sum);  // another session: its own storage for "scale"
  EXPECT(!other.is_initialized(scale));
  other.run(tf::global_variables_initializer());
  EXPECT(other.run(scale) == 2.0f && sess.run(scale) == 4.0f);
  // [/snippet per_session]
  return 0;
}
