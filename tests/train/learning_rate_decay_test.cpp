// Learning-rate schedules, ported from TensorFlow 1.x's learning_rate_decay_test.py: the same
// schedules, steps and expected values (each TEST_CASE names the TensorFlow test it ports).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace train = typeflow::train;

namespace {
// A session over `decayed` whose global step is set to `step` before each read.
template <class Decayed>
struct schedule_at {
  Decayed decayed;
  tf::session<Decayed> sess{decayed};
  schedule_at(const Decayed& d) : decayed(d), sess(d) { sess.initialize_all(); }
  double operator()(std::int64_t step) {
    sess.template slot<train::global_step_node>().value = step;
    return static_cast<double>(sess.run(decayed));
  }
};
}  // namespace

TEST_CASE("ExponentialDecayTest.testContinuous: 0.05 * 0.96 ^ (5 / 10)") {
  schedule_at lr(train::exponential_decay(0.05, train::global_step(), 10, 0.96));
  CHECK(lr(5) == doctest::Approx(0.05 * std::pow(0.96, 5.0 / 10.0)).epsilon(1e-12));
}

TEST_CASE("ExponentialDecayTest.testStaircase / testVariables: 0.1 * 0.96 ^ (step // 3)") {
  schedule_at lr(train::exponential_decay(0.1, train::global_step(), 3, 0.96, true));
  CHECK(lr(1) == doctest::Approx(0.1).epsilon(1e-6));  // no change to the learning rate
  CHECK(lr(2) == doctest::Approx(0.1).epsilon(1e-6));
  CHECK(lr(100) == doctest::Approx(0.1 * std::pow(0.96, 100 / 3)).epsilon(1e-6));
}

TEST_CASE("PiecewiseConstantDecayTest.testPiecewiseConstant") {
  schedule_at lr(train::piecewise_constant(train::global_step(), {100, 110, 120}, {1.0, 0.1, 0.01, 0.001}));
  CHECK(lr(-999) == doctest::Approx(1.0));
  CHECK(lr(100) == doctest::Approx(1.0));
  CHECK(lr(105) == doctest::Approx(0.1));
  CHECK(lr(110) == doctest::Approx(0.1));
  CHECK(lr(120) == doctest::Approx(0.01));
  CHECK(lr(999) == doctest::Approx(0.001));
}

TEST_CASE("PiecewiseConstantDecayTest.testPiecewiseConstantEdgeCases: lengths must agree") {
  CHECK_THROWS_WITH_AS(train::piecewise_constant(train::global_step(), {100, 110}, {1.0, 0.1}),
                       "InvalidArgument: The length of boundaries should be 1 less than the length of values "
                       "(PiecewiseConstant: 2 boundaries, 2 values)",
                       tf::invalid_argument_error);
  CHECK_THROWS_AS(train::piecewise_constant(train::global_step(), {110, 100}, {1.0, 0.1, 0.01}),
                  tf::invalid_argument_error);
}

TEST_CASE("PolynomialDecayTest: testHalfWay, testEnd, testHalfWayWithEnd, testBeyondEnd, testBeyondEndWithCycle") {
  const double lr = 0.05, end_lr = 0.001;
  schedule_at to_zero(train::polynomial_decay(lr, train::global_step(), 10, 0.0));
  CHECK(to_zero(5) == doctest::Approx(lr * 0.5));
  schedule_at linear(train::polynomial_decay(lr, train::global_step(), 10, end_lr));
  CHECK(linear(10) == doctest::Approx(end_lr));
  CHECK(linear(5) == doctest::Approx((lr - end_lr) * 0.5 + end_lr));
  CHECK(linear(15) == doctest::Approx(end_lr));
  schedule_at cycling(train::polynomial_decay(lr, train::global_step(), 10, end_lr, 1.0, true));
  CHECK(cycling(15) == doctest::Approx((lr - end_lr) * 0.25 + end_lr));
}

TEST_CASE("SqrtDecayTest: power 0.5, and PolynomialDecayTest.testBeginWithCycle") {
  const double lr = 0.05, end_lr = 0.001, power = 0.5;
  schedule_at to_zero(train::polynomial_decay(lr, train::global_step(), 10, 0.0, power));
  CHECK(to_zero(5) == doctest::Approx(lr * std::pow(0.5, power)));
  schedule_at sqrt_decay(train::polynomial_decay(lr, train::global_step(), 10, end_lr, power));
  CHECK(sqrt_decay(10) == doctest::Approx(end_lr));
  CHECK(sqrt_decay(5) == doctest::Approx((lr - end_lr) * std::pow(0.5, power) + end_lr));
  CHECK(sqrt_decay(15) == doctest::Approx(end_lr));
  schedule_at cycling(train::polynomial_decay(lr, train::global_step(), 10, end_lr, power, true));
  CHECK(cycling(15) == doctest::Approx((lr - end_lr) * std::pow(0.25, power) + end_lr));
  schedule_at begin(train::polynomial_decay(0.1, train::global_step(), 10, 0.001, 0.5, true));
  CHECK(begin(0) == doctest::Approx(0.1));  // step 0 with cycle: the multiplier is 1
}

TEST_CASE("InverseDecayTest.testDecay and testStaircase, step by step") {
  const double initial_lr = 0.1, rate = 0.96;
  const std::int64_t k = 10;
  schedule_at smooth(train::inverse_time_decay(initial_lr, train::global_step(), k, rate));
  schedule_at stairs(train::inverse_time_decay<"stairs">(initial_lr, train::global_step(), k, rate, true));
  for (std::int64_t i = 0; i <= k + 1; ++i) {
    CHECK(smooth(i) == doctest::Approx(initial_lr / (1 + double(i) / double(k) * rate)).epsilon(1e-6));
    CHECK(stairs(i) == doctest::Approx(initial_lr / (1 + rate * double(i / k))).epsilon(1e-6));
  }
}

TEST_CASE("a decayed learning rate drives an optimizer; the global step advances it, step by step") {
  // w -= lr_t * g with g = 1 (loss = w), lr_t = 0.1 * 0.5 ^ (t // 2), t the global step.
  auto w = tf::variable<"decay_w", double, tf::shape<>, tf::init::zeros()>();
  auto step = train::global_step();
  auto lr = train::exponential_decay(0.1, step, 2, 0.5, true);
  auto train_op = train::gradient_descent(lr).minimize(w, step);
  tf::session sess(train_op);
  sess.initialize_all();
  double expected = 0;
  for (int t = 0; t < 6; ++t) {
    CHECK(sess.run(lr) == doctest::Approx(0.1 * std::pow(0.5, t / 2)));
    sess.run(train_op);
    expected -= 0.1 * std::pow(0.5, t / 2);
    CHECK(sess.run(w) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(sess.run(step) == t + 1);
  }
}

TEST_CASE("schedule parameters may be nodes, and numbers are named constants under the schedule's name") {
  auto steps = tf::placeholder<"decay_steps", double>();
  auto lr = train::exponential_decay(0.05, train::global_step(), steps, 0.96);
  static_assert(tf::contains_v<tf::inputs_of<decltype(lr)>,
                               tf::named_constant_node<"ExponentialDecay/decay_rate", double, tf::scalar>>);
  tf::session sess(lr);
  sess.initialize_all();
  sess.slot<train::global_step_node>().value = 5;
  CHECK(sess.run(lr, tf::feed(steps, 10.0)) == doctest::Approx(0.05 * std::pow(0.96, 0.5)));
  CHECK(sess.run(lr, tf::feed(steps, 5.0)) == doctest::Approx(0.05 * 0.96));
}
