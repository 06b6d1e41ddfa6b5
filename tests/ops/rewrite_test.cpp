// Values of rewritten graphs (ops/rewrite.hpp, docs/reference/graph-rewrites.md): each rule's
// result compared bit for bit with the user's graph computed by hand in C++, in the order the
// graph states it; the documented exceptions (the sign of a zero) checked as documented.
// Built twice (tests/ops/CMakeLists.txt): ops.rewrite runs the graphs rewritten,
// ops.rewrite_as_written as written (TYPEFLOW_NO_GRAPH_REWRITES).
// The rewritten types are checked in rewrite_static_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

namespace {

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Values with a spread of exponents and both signs.
std::vector<double> samples() {
  std::mt19937_64 g(16);
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  std::vector<double> v{0.1, -0.3, 1.0 / 3.0, 1e-3, -7.25, 123456.789};
  for (int i = 0; i < 40; ++i) v.push_back(u(g) * std::pow(10.0, u(g)));
  return v;
}

}  // namespace

TEST_CASE("constant folding: a literal subgraph folded gives the value the run computed") {
  auto x = tf::placeholder<"x", double>();
  auto y = x * (tf::constant<0.1>() * tf::constant<3.0>());
  auto z = tf::constant<1.5f>() / tf::constant<0.3f>() + tf::constant<2.0f>();
  tf::session sess(y, z);
  for (double xv : samples()) CHECK(same_bits(sess.run(y, tf::feed(x, xv)), xv * (0.1 * 3.0)));
  CHECK(same_bits(sess.run(z), 1.5f / 0.3f + 2.0f));
  // Not folded, and computed at run time as before: x / 0 and an int32 overflow.
  auto inf = tf::constant<1.0>() / tf::constant<0.0>();
  tf::session s2(inf);
  CHECK(std::isinf(s2.run(inf)));
}

TEST_CASE("identity, stop_gradient, x * 1, x / 1, x - 0 give x exactly") {
  auto x = tf::placeholder<"x", double>();
  auto a = tf::identity(x) * tf::constant<1>();
  auto b = tf::stop_gradient(x) / tf::constant<1.0>();
  auto c = x - tf::constant<0.0>();
  tf::session sess(a, b, c);
  for (double xv : samples()) {
    const auto [ra, rb, rc] = sess.run(tf::fetch(a, b, c), tf::feed(x, xv));
    CHECK(same_bits(ra, xv));
    CHECK(same_bits(rb, xv));
    CHECK(same_bits(rc, xv));
  }
  CHECK(std::signbit(sess.run(c, tf::feed(x, -0.0))));  // -0 - 0 is -0: exact
}

TEST_CASE("x + 0 gives x, also for -0 (TensorFlow's rule; -0 + 0 would be +0)") {
  auto x = tf::placeholder<"x", double>();
  auto i = tf::placeholder<"i", std::int32_t>();
  auto a = x + tf::constant<0>();
  auto b = tf::constant<0>() + i;
  tf::session sess(a, b);
  for (double xv : samples()) CHECK(same_bits(sess.run(a, tf::feed(x, xv)), xv));
#ifdef TYPEFLOW_NO_GRAPH_REWRITES
  CHECK(!std::signbit(sess.run(a, tf::feed(x, -0.0))));  // as written: -0 + 0 is +0
#else
  CHECK(std::signbit(sess.run(a, tf::feed(x, -0.0))));  // the documented difference
#endif
  CHECK(sess.run(b, tf::feed(i, -17)) == -17);
}

TEST_CASE("negations: -(-x), a + (-b), (-a) + b, a - (-b), -(a - b)") {
  auto x = tf::placeholder<"x", double>();
  auto y = tf::placeholder<"y", double>();
  auto n2 = -(-x);
  auto p = x + (-y);
  auto q = (-x) + y;
  auto r = x - (-y);
  auto s = -(x - y);
  tf::session sess(n2, p, q, r, s);
  const auto v = samples();
  for (std::size_t k = 0; k + 1 < v.size(); ++k) {
    const double a = v[k], b = v[k + 1];
    const auto [rn, rp, rq, rr, rs] = sess.run(tf::fetch(n2, p, q, r, s), tf::feed(x, a), tf::feed(y, b));
    CHECK(same_bits(rn, -(-a)));
    CHECK(same_bits(rp, a + (-b)));
    CHECK(same_bits(rq, (-a) + b));
    CHECK(same_bits(rr, a - (-b)));
    CHECK(same_bits(rs, -(a - b)));
  }
  // The documented difference: -(a - a) is -0, b - a is +0.
#ifdef TYPEFLOW_NO_GRAPH_REWRITES
  CHECK(std::signbit(sess.run(s, tf::feed(x, 1.5), tf::feed(y, 1.5))));
#else
  CHECK(!std::signbit(sess.run(s, tf::feed(x, 1.5), tf::feed(y, 1.5))));
#endif
}

TEST_CASE("power-of-two literal factors moved outward and combined give the same bits") {
  auto x = tf::placeholder<"x", double>();
  auto y = tf::placeholder<"y", double>();
  auto a = (x * tf::constant<2.0>()) * y;
  auto b = y * (x * tf::constant<0.25>());
  auto c = x * tf::constant<3.0>() * tf::constant<0.5>();
  auto d = (x * tf::constant<2.0>()) * (y * tf::constant<4.0>());
  auto e = tf::constant<3.0>() * x;
  tf::session sess(a, b, c, d, e);
  const auto v = samples();
  for (std::size_t k = 0; k + 1 < v.size(); ++k) {
    const double p = v[k], q = v[k + 1];
    const auto [ra, rb, rc, rd, re] = sess.run(tf::fetch(a, b, c, d, e), tf::feed(x, p), tf::feed(y, q));
    CHECK(same_bits(ra, (p * 2.0) * q));
    CHECK(same_bits(rb, q * (p * 0.25)));
    CHECK(same_bits(rc, p * 3.0 * 0.5));
    CHECK(same_bits(rd, (p * 2.0) * (q * 4.0)));
    CHECK(same_bits(re, 3.0 * p));
  }
}

TEST_CASE("scalar regression: the rewritten step gives the user's graph's values to the last bit") {
  auto m = tf::variable<"m", double>(tf::init::constant(0.));
  auto b = tf::variable<"b", double>(tf::init::constant(0.));
  auto x = tf::placeholder<"x", double>();
  auto y = tf::placeholder<"y", double>();
  auto loss = tf::square(m * x + b - y);
  auto train_op = tf::train::gradient_descent(1e-3).minimize(loss);
  tf::session sess(train_op);
  sess.run(tf::global_variables_initializer());
  // The user's graph, by hand: square's rule G * (e * 2) with G = 1, the mul's that times x,
  // the optimizer's lr * g.
  double hm = 0, hb = 0;
  const double lr = 1e-3;
  std::mt19937_64 g(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 2000; ++i) {
    const double xv = u(g), yv = 2.5 * xv - 1.25;
    sess.run(train_op, tf::feed(x, xv), tf::feed(y, yv));
    const double e = hm * xv + hb - yv;
    const double gm = (1.0 * (e * 2)) * xv, gb = 1.0 * (e * 2);
    hm -= lr * gm;
    hb -= lr * gb;
  }
  CHECK(same_bits(sess.run(m), hm));
  CHECK(same_bits(sess.run(b), hb));
}

TEST_CASE("float regression: the learning rate rounded to float, then scaled, as before") {
  auto m = tf::variable<"m", float>(tf::init::constant(0.f));
  auto x = tf::placeholder<"x", float>();
  auto y = tf::placeholder<"y", float>();
  auto loss = tf::square(m * x - y);
  auto train_op = tf::train::gradient_descent(0.01).minimize(loss);
  tf::session sess(train_op);
  sess.run(tf::global_variables_initializer());
  float hm = 0;
  const float lr = static_cast<float>(0.01);
  for (int i = 1; i <= 300; ++i) {
    const float xv = 0.01f * static_cast<float>(i % 97) - 0.3f, yv = 1.7f * xv;
    sess.run(train_op, tf::feed(x, xv), tf::feed(y, yv));
    const float e = hm * xv - yv;
    hm -= lr * ((e * 2.0f) * xv);
  }
  CHECK(same_bits(sess.run(m), hm));
}

TEST_CASE("a gradient that is its variable times a power of two: w -= (lr 2) w") {
  auto w = tf::variable<"w", double>(tf::init::constant(3.0));
  auto v = tf::variable<"v", double>(tf::init::constant(3.0));
  auto step_w = tf::train::gradient_descent(0.1).minimize(tf::square(w));  // gradient w * 2
  auto step_v = tf::train::gradient_descent<"GD2">(0.1).minimize(tf::constant<0.5>() * tf::square(v));  // gradient v
  tf::session sess(step_w, step_v);
  sess.run(tf::global_variables_initializer());
  double hw = 3.0, hv = 3.0;
  for (int i = 0; i < 10; ++i) {
    sess.run(tf::fetch(step_w, step_v));
    hw -= 0.1 * (1.0 * (hw * 2));
    hv -= 0.1 * (1.0 * (0.5 * (hv * 2)));
  }
  CHECK(same_bits(sess.run(w), hw));
  CHECK(same_bits(sess.run(v), hv));
}

TEST_CASE("a fed op is read as fed: nothing below it is rewritten") {
  auto x = tf::placeholder<"x", double>();
  auto y = tf::placeholder<"y", double>();
  auto d = x - y;
  auto n = -d;
  tf::session sess(n);
  CHECK(sess.run(n, tf::feed(d, 4.0)) == -4.0);
  CHECK(sess.run(n, tf::feed(x, 1.0), tf::feed(y, 5.0)) == 4.0);
}

TEST_CASE("an update reached through group and directly runs once") {
  auto w = tf::variable<"w", double>(tf::init::constant(1.0));
  auto step = tf::train::gradient_descent(0.5).minimize(tf::square(w));
  auto both = tf::group(step);
  tf::session sess(step, both);
  sess.run(tf::global_variables_initializer());
  sess.run(tf::fetch(step, both));
  CHECK(sess.run(w) == 1.0 - 0.5 * 2.0);
}

TEST_CASE("describe_graph shows the user's graph; of rewritten(node), what a run evaluates") {
  auto x = tf::placeholder<"x", double>();
  auto y = -(-(x * tf::constant<1.0>()));
  const std::string before = tf::describe_graph(y).to_text();
  const std::string after = tf::describe_graph(tf::rewritten(y)).to_text();
  CHECK(before.find("Neg") != std::string::npos);
  CHECK(before.find("mul") != std::string::npos);
  CHECK(after == tf::describe_graph(x).to_text());
}
