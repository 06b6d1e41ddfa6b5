// The tutorial's sections on variables and side effects, and variable sharing, ported cell by cell.
// A variable's definition (name, dtype, shape, initializer) is program-wide, so the
// tutorial's cells that redefine "count" with another initializer live in another file.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("variables: reading an uninitialized variable fails with FailedPrecondition naming it") {
  // count_variable = tf.get_variable("count", []); sess.run(count_variable)
  auto count_variable = tf::variable<"count", float>();
  tf::session sess(count_variable);
  CHECK_THROWS_WITH_AS(sess.run(count_variable), "FailedPrecondition: Attempting to use uninitialized value count",
                       tf::failed_precondition_error);
  try {
    sess.run(count_variable);
  } catch (const tf::error& e) {
    CHECK(e.code() == tf::error_code::failed_precondition);
    CHECK(e.message() == "Attempting to use uninitialized value count");
  }
}

TEST_CASE("side effects: sess.run(assign_node) then sess.run(count_variable) gives 0") {
  // zero_node = tf.constant(0.); assign_node = tf.assign(count_variable, zero_node)
  auto count_variable = tf::variable<"count", float>();
  auto zero_node = tf::constant<0.>();
  auto assign_node = tf::assign(count_variable, zero_node);
  tf::session sess(assign_node);
  CHECK_FALSE(sess.run(tf::is_variable_initialized(count_variable)));
  CHECK(sess.run(assign_node) == 0.0f);
  CHECK(sess.run(count_variable) == 0.0f);
  CHECK(sess.run(tf::is_variable_initialized(count_variable)));
}

TEST_CASE("variable sharing: defining a variable again is the same variable; another initializer in one graph is refused") {
  auto first = tf::variable<"shared", float, tf::shape<2>>(tf::init::ones());
  auto again = tf::variable<"shared", float, tf::shape<2>>(tf::init::ones());
  static_assert(std::is_same_v<decltype(first), decltype(again)>);
  auto zeros = tf::variable<"shared", float, tf::shape<2>>(tf::init::zeros());
  CHECK_THROWS_WITH_AS(first + zeros, doctest::Contains("Variable shared is defined twice in one graph"),
                       tf::already_exists_error);
  tf::session sess(first + again);
  sess.initialize_all();
  CHECK(sess.run(first + again) == xt::xtensor_fixed<float, xt::xshape<2>>{2, 2});
}

TEST_CASE("variables live in the session: two sessions hold separate values") {
  auto v = tf::variable<"per_session", float>(tf::init::constant(1.));
  auto inc = tf::assign_add(v, tf::constant<1>());
  tf::session s1(inc), s2(inc);
  s1.initialize_all();
  s2.initialize_all();
  s1.run(inc);
  CHECK(s1.run(v) == 2.0f);
  CHECK(s2.run(v) == 1.0f);
}
