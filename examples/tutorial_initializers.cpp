// Getting started, "Initializers" (docs/getting-started.md).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet not_yet]
  auto const_init_node = tf::init::constant(0.);
  auto count_variable = tf::variable<"count", float>(const_init_node);
  tf::session sess(count_variable);
  try {
    sess.run(tf::fetch(count_variable));
    EXPECT(!"run throws");
  } catch (const tf::failed_precondition_error& e) {
    std::cout << e.what() << '\n';
    EXPECT(e.message() == "Attempting to use uninitialized value count");
  }
  // [/snippet not_yet]

  // [snippet init]
  auto init = tf::global_variables_initializer();
  sess.run(init);
  std::tuple<float> values = sess.run(tf::fetch(count_variable));
  std::cout << std::get<0>(values) << '\n';  // 0
  // [/snippet init]
  EXPECT(std::get<0>(values) == 0.0f);

  // [snippet report]
  auto other = tf::variable<"other", std::int32_t>(tf::init::constant(7));
  tf::session both(count_variable + tf::cast<float>(other));
  auto missing = both.run(tf::report_uninitialized_variables());  // {"count", "other"}
  both.run(tf::variables_initializer(other));
  bool other_ready = both.run(tf::is_variable_initialized(other));  // true
  // [/snippet report]
  EXPECT((missing == std::vector<std::string>{"count", "other"}));
  EXPECT(other_ready);
  EXPECT(!both.run(tf::is_variable_initialized(count_variable)));
  EXPECT(both.run(other) == 7);
  return 0;
}
