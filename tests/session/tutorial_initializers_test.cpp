// The tutorial's sections on initializers and side effects on the computation path, ported cell by cell.
// A variable's definition (name, dtype, shape, initializer) is program-wide, so the
// tutorial's cells that redefine "count" with another initializer live in another file.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("side effects: an assign runs only when a fetch's path flows through it") {
  auto count_variable = tf::variable<"count", float>(tf::init::constant(0.));
  auto increment = tf::assign_add(count_variable, tf::constant<1>());
  tf::session sess(increment);
  sess.run(tf::global_variables_initializer());
  sess.run(count_variable);  // reading the variable does not run the assign: no edge back
  CHECK(sess.run(count_variable) == 0.0f);
  sess.run(increment);
  sess.run(increment);
  CHECK(sess.run(count_variable) == 2.0f);
  // The assign's value is the variable's new value.
  CHECK(sess.run(increment) == 3.0f);
}

TEST_CASE("initializers: the initializer runs only when global_variables_initializer does") {
  // const_init_node = tf.constant_initializer(0.)
  // count_variable = tf.get_variable("count", [], initializer=const_init_node)
  auto count_variable = tf::variable<"count", float>(tf::init::constant(0.));
  tf::session sess(count_variable);
  CHECK_THROWS_AS(sess.run(tf::fetch(count_variable)), tf::failed_precondition_error);
  // init = tf.global_variables_initializer(); sess.run(init); sess.run(count_variable)
  auto init = tf::global_variables_initializer();
  sess.run(init);
  CHECK(sess.run(count_variable) == 0.0f);
}

TEST_CASE("initializers: variables_initializer and report_uninitialized_variables") {
  auto a = tf::variable<"init_a", float>(tf::init::constant(1.5));
  auto b = tf::variable<"init_b", std::int32_t>(tf::init::constant(7));
  tf::session sess(a + tf::cast<float>(b));
  CHECK(sess.run(tf::report_uninitialized_variables()) == std::vector<std::string>{"init_a", "init_b"});
  sess.run(tf::variables_initializer(b));
  CHECK(sess.run(tf::report_uninitialized_variables()) == std::vector<std::string>{"init_a"});
  CHECK(sess.run(b) == 7);
  sess.run(tf::variables_initializer(a));
  CHECK(sess.run(tf::report_uninitialized_variables()).empty());
  CHECK(sess.run(a + tf::cast<float>(b)) == 8.5f);
}

TEST_CASE("an uninitialized read anywhere on the path means no side effect at all") {
  auto done = tf::variable<"effects_done", float>(tf::init::zeros());
  auto never = tf::variable<"never_initialized", float>(tf::init::zeros());
  auto step = tf::group(tf::assign_add(done, tf::constant<1>()), never * tf::constant<2>());
  tf::session sess(step);
  sess.run(tf::variables_initializer(done));
  CHECK_THROWS_WITH_AS(sess.run(step), "FailedPrecondition: Attempting to use uninitialized value never_initialized",
                       tf::failed_precondition_error);
  CHECK(sess.run(done) == 0.0f);
}
