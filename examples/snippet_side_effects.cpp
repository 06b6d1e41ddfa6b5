// docs/reference/side-effects.md: assign, group, control dependencies, print,
// check_numerics and the initialization nodes.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <xtensor/xfixed.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet assign]
    auto v = tf::variable<"v", float, tf::shape<2>>(tf::init::zeros());
    auto delta = tf::placeholder<"delta", float, tf::shape<2>>();
    auto set = tf::assign(v, delta);
    auto add = tf::assign_add(v, delta);
    auto sub = tf::assign_sub(v, delta);
    tf::session sess(set, add, sub);

    using pair = xt::xtensor_fixed<float, xt::xshape<2>>;
    EXPECT(sess.run(set, tf::feed(delta, pair{1, 2})) == pair{1, 2});  // assign initializes v
    EXPECT(sess.run(add, tf::feed(delta, pair{10, 10})) == pair{11, 12});
    EXPECT(sess.run(sub, tf::feed(delta, pair{1, 1})) == pair{10, 11});  // the new value
    EXPECT(sess.run(v) == pair{10, 11});    // reading v runs none of them

    tf::session fresh(add);  // v has no value in this session: assign_add cannot run
    try {
      fresh.run(add, tf::feed(delta, pair{1, 1}));
      EXPECT(!"run throws");
    } catch (const tf::failed_precondition_error& e) {
      EXPECT(e.message() == "Attempting to use uninitialized value v");
    }
    // [/snippet assign]
  }
  {
    // [snippet order]
    auto v = tf::variable<"order", std::int32_t>();
    auto first = tf::group(tf::assign(v, tf::constant<1>()), tf::assign(v, tf::constant<2>()));
    auto second = tf::group(tf::assign(v, tf::constant<2>()), tf::assign(v, tf::constant<1>()));
    tf::session sess(first, second);
    sess.run(first);
    EXPECT(sess.run(v) == 2);  // inputs run left to right
    sess.run(second);
    EXPECT(sess.run(v) == 1);
    // [/snippet order]
  }
  {
    // [snippet group_once]
    auto count = tf::variable<"count", std::int32_t>();
    auto increment = tf::assign_add(count, tf::constant<1>());
    auto twice = tf::group(increment, increment);  // one node, listed twice
    tf::session sess(twice);
    sess.initialize_all();
    sess.run(twice);
    EXPECT(sess.run(count) == 1);  // each node runs at most once per run
    // [/snippet group_once]
  }
  {
    // [snippet control_dependencies]
    auto count = tf::variable<"count", std::int32_t>();
    auto increment = tf::assign_add(count, tf::constant<1>());
    auto after = tf::control_dependencies(increment)(count * tf::constant<10>());
    tf::session sess(after);
    sess.initialize_all();
    EXPECT(sess.run(after) == 10);  // count is read after the increment
    EXPECT(sess.run(after) == 20);
    EXPECT(sess.run(count) == 2);
    // [/snippet control_dependencies]
  }
  {
    // [snippet print]
    auto x = tf::placeholder<"x", float, tf::shape<4>>();
    auto mean = tf::reduce_mean(x);
    auto traced = tf::print<"mean, x: ">(mean, mean, x);
    std::ostringstream log;
    tf::session sess(traced);
    sess.set_print_stream(log);  // std::cerr by default

    xt::xtensor_fixed<float, xt::xshape<4>> value = {1, 2, 3, 6};
    EXPECT(sess.run(traced * tf::constant<2>(), tf::feed(x, value)) == 6.0f);
    EXPECT(log.str() == "mean, x: [3][1 2 3...]\n");
    sess.run(mean, tf::feed(x, value));  // off the path: prints nothing
    sess.run(traced, tf::feed(traced, 1.0f));  // fed: not evaluated, prints nothing
    EXPECT(log.str() == "mean, x: [3][1 2 3...]\n");
    // [/snippet print]
  }
  {
    // [snippet check_numerics]
    auto x = tf::placeholder<"x", float>();
    auto checked = tf::check_numerics<"log(x)">(tf::log(x));
    tf::session sess(checked);
    EXPECT(sess.run(checked, tf::feed(x, 1.0f)) == 0.0f);  // passes the value on
    try {
      sess.run(checked, tf::feed(x, -1.0f));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error& e) {
      EXPECT(e.message() == "log(x) : Tensor had NaN values");
    }
    try {
      sess.run(checked, tf::feed(x, 0.0f));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error& e) {
      EXPECT(e.message() == "log(x) : Tensor had Inf values");
    }
    // [/snippet check_numerics]
  }
  {
    // [snippet initialization]
    auto a = tf::variable<"a", float>(tf::init::constant(1.5));
    auto b = tf::variable<"b", std::int32_t>(tf::init::constant(7));
    tf::session sess(a + tf::cast<float>(b));

    EXPECT((sess.run(tf::report_uninitialized_variables()) == std::vector<std::string>{"a", "b"}));
    sess.run(tf::variables_initializer(b));
    EXPECT(sess.run(tf::is_variable_initialized(b)) && !sess.run(tf::is_variable_initialized(a)));
    sess.run(tf::global_variables_initializer());  // every variable of the session, b again too
    EXPECT(sess.run(tf::report_uninitialized_variables()).empty());
    EXPECT(sess.run(a + tf::cast<float>(b)) == 8.5f);
    // [/snippet initialization]
  }
  {
    // [snippet checked_first]
    auto done = tf::variable<"done", float>(tf::init::zeros());
    auto never = tf::variable<"never", float>(tf::init::zeros());
    auto step = tf::group(tf::assign_add(done, tf::constant<1>()), never * tf::constant<2>());
    tf::session sess(step);
    sess.run(tf::variables_initializer(done));
    try {
      sess.run(step);
      EXPECT(!"run throws");
    } catch (const tf::failed_precondition_error& e) {
      EXPECT(e.message() == "Attempting to use uninitialized value never");
    }
    EXPECT(sess.run(done) == 0.0f);  // checked before anything ran: no side effect
    // [/snippet checked_first]
  }
  {
    // [snippet checked_first_assign]
    auto w = tf::variable<"w", float>(tf::init::zeros());
    auto read_after_set = tf::control_dependencies(tf::assign(w, tf::constant<7>()))(w * w);
    tf::session sess(read_after_set);
    try {
      sess.run(read_after_set);  // w is read on the path and not initialized when the run starts
      EXPECT(!"run throws");
    } catch (const tf::failed_precondition_error& e) {
      EXPECT(e.message() == "Attempting to use uninitialized value w");
    }
    // [/snippet checked_first_assign]
  }
  {
    // [snippet failure_midway]
    auto done = tf::variable<"done", float>(tf::init::zeros());
    auto x = tf::placeholder<"x", float>();
    auto step = tf::group(tf::assign_add(done, tf::constant<1>()),
                          tf::check_numerics<"log(x)">(tf::log(x)));
    tf::session sess(step);
    sess.initialize_all();
    try {
      sess.run(step, tf::feed(x, -1.0f));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error&) {
    }
    EXPECT(sess.run(done) == 1.0f);  // the assign ran before check_numerics failed
    // [/snippet failure_midway]
  }
  return 0;
}
