// Exactly the computation path runs, each node at most once per run, side effects only on
// the path (DESIGN rules 2 and 7), proven with counters.
#include <doctest/doctest.h>

#include <sstream>

#include <typeflow/typeflow.hpp>

#include "../support/counting.hpp"

namespace tf = typeflow;
using typeflow_test::counted;
using typeflow_test::evaluations;

namespace {
void reset() {
  evaluations<1> = evaluations<2> = evaluations<3> = evaluations<4> = evaluations<5> = 0;
}
}  // namespace

TEST_CASE("a diamond: each shared node is evaluated once per run, also across fetches") {
  reset();
  auto x = tf::placeholder<"cx", float, tf::shape<3>>();
  auto a = counted<1>(x * x);
  auto b = counted<2>(a + a);
  auto c = counted<3>(a * b + b);
  auto off_path = counted<4>(x - x);
  tf::session sess(c, off_path);
  const xt::xtensor_fixed<float, xt::xshape<3>> xv = {1, 2, 3};

  auto [cv, bv, av] = sess.run(tf::fetch(c, b, a), tf::feed(x, xv));
  CHECK(evaluations<1> == 1);
  CHECK(evaluations<2> == 1);
  CHECK(evaluations<3> == 1);
  CHECK(evaluations<4> == 0);  // not on the path of c, b or a
  CHECK(av == xt::xtensor_fixed<float, xt::xshape<3>>{1, 4, 9});
  CHECK(bv == xt::xtensor_fixed<float, xt::xshape<3>>{2, 8, 18});
  CHECK(cv == xt::xtensor_fixed<float, xt::xshape<3>>{4, 40, 180});

  sess.run(c, tf::feed(x, xv));
  CHECK(evaluations<1> == 2);
  CHECK(evaluations<3> == 2);
  CHECK(evaluations<4> == 0);
}

TEST_CASE("a fed node cuts the path: its ancestors do not run and need no feed") {
  reset();
  auto x = tf::placeholder<"cut_x", float>();
  auto a = counted<1>(x * tf::constant<2>());
  auto b = counted<2>(a + tf::constant<1>());
  tf::session sess(b);
  CHECK(sess.run(b, tf::feed(a, 10.0f)) == 11.0f);  // x is not fed, and need not be
  CHECK(evaluations<1> == 0);
  CHECK(evaluations<2> == 1);
}

TEST_CASE("side effects run once per run when shared, and only on the path") {
  reset();
  auto v = tf::variable<"effects_v", float>(tf::init::zeros());
  auto w = tf::variable<"effects_w", float>(tf::init::zeros());
  auto inc_v = tf::assign_add(v, tf::constant<1>());
  auto inc_w = tf::assign_add(w, tf::constant<1>());
  auto twice = inc_v + inc_v;  // one assign, two uses
  tf::session sess(twice, inc_w);
  sess.initialize_all();

  CHECK(sess.run(twice) == 2.0f);  // v became 1 once, read twice
  CHECK(sess.run(v) == 1.0f);
  CHECK(sess.run(w) == 0.0f);  // inc_w is off the path

  sess.run(tf::group(inc_v, inc_w));
  CHECK(sess.run(v) == 2.0f);
  CHECK(sess.run(w) == 1.0f);

  auto [first, second] = sess.run(tf::fetch(inc_v, twice));
  CHECK(first == 3.0f);
  CHECK(second == 6.0f);
  CHECK(sess.run(v) == 3.0f);
}

TEST_CASE("control dependencies run first, in the order given, then the value") {
  reset();
  auto log = tf::variable<"order_log", float>(tf::init::zeros());
  auto times_ten = tf::assign(log, log * tf::constant<10>());
  auto plus_one = tf::assign_add(log, tf::constant<1>());
  auto plus_two = tf::assign_add(log, tf::constant<2>());
  auto result = tf::control_dependencies(plus_one, times_ten, plus_two)(tf::constant<7.f>());
  tf::session sess(result);
  sess.initialize_all();
  CHECK(sess.run(result) == 7.0f);
  CHECK(sess.run(log) == 12.0f);  // ((0 + 1) * 10) + 2
}

TEST_CASE("group: no value, every input runs once") {
  reset();
  auto x = tf::placeholder<"gx", float>();
  auto a = counted<1>(x);
  auto b = counted<2>(a * a);
  tf::session sess(tf::group(a, b));
  CHECK(sess.run(tf::group(a, b), tf::feed(x, 2.0f)) == tf::none_t{});
  CHECK(evaluations<1> == 1);
  CHECK(evaluations<2> == 1);
}

TEST_CASE("print inside the path prints once per run even when its value is used twice") {
  auto x = tf::placeholder<"printed_x", float>();
  auto shown = tf::print<"x=">(x, x);
  auto y = shown * shown;
  tf::session sess(y);
  std::ostringstream out;
  sess.set_print_stream(out);
  CHECK(sess.run(y, tf::feed(x, 3.0f)) == 9.0f);
  CHECK(out.str() == "x=[3]\n");
}
