// Getting started, "Variables and side effects" (docs/getting-started.md).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet uninitialized]
  auto count_variable = tf::variable<"count", float>();  // shape<>: a scalar
  tf::session sess(count_variable);
  try {
    sess.run(count_variable);
    EXPECT(!"run throws");
  } catch (const tf::failed_precondition_error& e) {
    std::cout << e.what() << '\n';
    EXPECT(e.message() == "Attempting to use uninitialized value count");
  }
  // [/snippet uninitialized]

  {
    // [snippet assign]
    auto zero_node = tf::constant<0.>();
    auto assign_node = tf::assign(count_variable, zero_node);
    tf::session sess(assign_node);
    sess.run(assign_node);
    std::cout << sess.run(count_variable) << '\n';  // 0
    // [/snippet assign]
    EXPECT(sess.run(count_variable) == 0.0f);
  }

  {
    // [snippet side_effects]
    auto increment = tf::assign_add(count_variable, tf::constant<1>());
    tf::session sess(increment);
    sess.run(tf::assign(count_variable, tf::constant<0>()));

    sess.run(count_variable);  // reading the variable does not run the assign
    EXPECT(sess.run(count_variable) == 0.0f);
    sess.run(increment);       // fetching the assign does
    sess.run(increment);
    EXPECT(sess.run(count_variable) == 2.0f);
    EXPECT(sess.run(increment) == 3.0f);  // an assign's value is the variable's new value
    // [/snippet side_effects]
  }
  return 0;
}
