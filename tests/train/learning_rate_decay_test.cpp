// Learning-rate schedules, ported from TensorFlow 1.x's learning_rate_decay_test.py: the same
// schedules, steps and expected values (each TEST_CASE names the TensorFlow test it ports).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

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

// TensorFlow's numpy references (learning_rate_decay_test.py), in double.
double np_cosine_decay(double step, double decay_steps, double alpha = 0.0) {
  step = std::min(step, decay_steps);
  const double completed_fraction = step / decay_steps;
  const double decay = 0.5 * (1.0 + std::cos(std::numbers::pi * completed_fraction));
  return (1.0 - alpha) * decay + alpha;
}

double np_cosine_decay_restarts(double step, double decay_steps, double t_mul = 2.0, double m_mul = 1.0,
                                double alpha = 0.0) {
  double fac = 1.0;
  while (step >= decay_steps) {
    step -= decay_steps;
    decay_steps *= t_mul;
    fac *= m_mul;
  }
  const double completed_fraction = step / decay_steps;
  const double decay = fac * 0.5 * (1.0 + std::cos(std::numbers::pi * completed_fraction));
  return (1.0 - alpha) * decay + alpha;
}

double np_linear_cosine_decay(double step, double decay_steps, double alpha = 0.0, double beta = 0.001,
                              double num_periods = 0.5) {
  step = std::min(step, decay_steps);
  const double linear_decayed = (decay_steps - step) / decay_steps;
  const double fraction = 2.0 * num_periods * step / decay_steps;
  const double cosine_decayed = 0.5 * (1.0 + std::cos(std::numbers::pi * fraction));
  return (alpha + linear_decayed) * cosine_decayed + beta;
}

// The cosine part of linear_cosine_decay, and the standard deviation of the noisy schedule's
// eps, at a step (both at min(step, decay_steps)).
double np_cosine_part(double step, double decay_steps, double num_periods = 0.5) {
  step = std::min(step, decay_steps);
  return 0.5 * (1.0 + std::cos(std::numbers::pi * 2.0 * num_periods * step / decay_steps));
}
double np_noise_stddev(double step, double decay_steps, double initial_variance = 1.0, double variance_decay = 0.55) {
  step = std::min(step, decay_steps);
  return std::sqrt(initial_variance / std::pow(1.0 + step, variance_decay));
}
// Every draw of the noise has |z| <= sqrt(-2 ln 2^-53) (train/cosine_decay.hpp).
const double max_normal_draw = std::sqrt(-2.0 * std::log(0x1.0p-53)) + 1e-9;
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

TEST_CASE("ExponentialDecayTest.testDecay and testStaircase (natural_exp_decay), step by step") {
  const double initial_lr = 0.1, decay_rate = 0.96;
  const std::int64_t k = 10;
  schedule_at smooth(train::natural_exp_decay(initial_lr, train::global_step(), k, decay_rate));
  schedule_at stairs(train::natural_exp_decay<"stairs">(initial_lr, train::global_step(), k, decay_rate, true));
  for (std::int64_t i = 0; i <= k; ++i) {
    CHECK(smooth(i) == doctest::Approx(initial_lr * std::exp(-double(i) / double(k) * decay_rate)).epsilon(1e-6));
    CHECK(stairs(i) == doctest::Approx(initial_lr * std::exp(-decay_rate * double(i / k))).epsilon(1e-6));
  }
}

TEST_CASE("CosineDecayTest.testDecay and testAlpha") {
  const double num_training_steps = 1000, initial_lr = 1.0, alpha = 0.1;
  schedule_at decay(train::cosine_decay(initial_lr, train::global_step(), num_training_steps));
  schedule_at with_alpha(train::cosine_decay<"alpha">(initial_lr, train::global_step(), num_training_steps, alpha));
  for (std::int64_t step = 0; step < 1500; step += 250) {
    CHECK(decay(step) == doctest::Approx(np_cosine_decay(double(step), num_training_steps)).epsilon(1e-6));
    CHECK(with_alpha(step) == doctest::Approx(np_cosine_decay(double(step), num_training_steps, alpha)).epsilon(1e-6));
  }
}

TEST_CASE("CosineDecayRestartsTest.testDecay, testAlpha, testMMul and testTMul") {
  const double num_training_steps = 1000, initial_lr = 1.0;
  auto step = train::global_step();
  schedule_at decay(train::cosine_decay_restarts(initial_lr, step, num_training_steps));
  schedule_at alpha(train::cosine_decay_restarts<"alpha">(initial_lr, step, num_training_steps, 2.0, 1.0, 0.1));
  schedule_at m_mul(train::cosine_decay_restarts<"m_mul">(initial_lr, step, num_training_steps, 2.0, 0.9));
  schedule_at t_mul(train::cosine_decay_restarts<"t_mul">(initial_lr, step, num_training_steps, 1.0));
  for (std::int64_t s = 0; s < 1500; s += 250) {
    const double at = double(s);
    CHECK(decay(s) == doctest::Approx(np_cosine_decay_restarts(at, num_training_steps)).epsilon(1e-6));
    CHECK(alpha(s) == doctest::Approx(np_cosine_decay_restarts(at, num_training_steps, 2.0, 1.0, 0.1)).epsilon(1e-6));
    CHECK(m_mul(s) == doctest::Approx(np_cosine_decay_restarts(at, num_training_steps, 2.0, 0.9)).epsilon(1e-6));
    CHECK(t_mul(s) == doctest::Approx(np_cosine_decay_restarts(at, num_training_steps, 1.0)).epsilon(1e-6));
  }
}

TEST_CASE("cosine_decay_restarts: the first step of each period, where log's rounding misplaces TensorFlow's floor") {
  // With t_mul 10 the periods start at steps 1, 11, 111 (log(1000) / log(10) < 3 in double);
  // with t_mul 3 at 1, 4, 13, 40, 121 (log(243) / log(3) < 5). The numpy loop is the reference.
  auto step = train::global_step();
  schedule_at tens(train::cosine_decay_restarts<"tens">(1.0, step, 1, 10.0, 0.5));
  schedule_at threes(train::cosine_decay_restarts<"threes">(1.0, step, 1, 3.0, 0.5));
  for (std::int64_t s = 0; s <= 130; ++s) {
    CHECK(tens(s) == doctest::Approx(np_cosine_decay_restarts(double(s), 1, 10.0, 0.5)).epsilon(1e-6));
    CHECK(threes(s) == doctest::Approx(np_cosine_decay_restarts(double(s), 1, 3.0, 0.5)).epsilon(1e-6));
  }
  CHECK(tens(111) == doctest::Approx(0.125));  // a restart: m_mul ^ 3, not the end of period 2
  CHECK(threes(121) == doctest::Approx(0.03125));
}

TEST_CASE("LinearCosineDecayTest.testDefaultDecay and testNonDefaultDecay") {
  const double num_training_steps = 1000, initial_lr = 1.0;
  auto step = train::global_step();
  schedule_at by_default(train::linear_cosine_decay(initial_lr, step, num_training_steps));
  schedule_at non_default(
      train::linear_cosine_decay<"non_default">(initial_lr, step, num_training_steps, 5, /*alpha=*/0.1, 1e-4));
  for (std::int64_t s = 0; s < 1500; s += 250) {
    const double at = double(s);
    CHECK(by_default(s) == doctest::Approx(np_linear_cosine_decay(at, num_training_steps)).epsilon(1e-6));
    CHECK(non_default(s) ==
          doctest::Approx(np_linear_cosine_decay(at, num_training_steps, 0.1, 1e-4, 5)).epsilon(1e-6));
  }
}

TEST_CASE("NoisyLinearCosineDecayTest.testDefaultNoisyLinearCosine and testNonDefaultNoisyLinearCosine") {
  // TensorFlow only evaluates them. Here: the linear cosine value plus lr * eps * cosine, eps
  // within the largest draw times its standard deviation, and present wherever the cosine is.
  const double num_training_steps = 1000, initial_lr = 1.0;
  auto step = train::global_step();
  schedule_at by_default(train::noisy_linear_cosine_decay(initial_lr, step, num_training_steps));
  schedule_at non_default(train::noisy_linear_cosine_decay<"non_default">(initial_lr, step, num_training_steps,
                                                                          /*initial_variance=*/0.5,
                                                                          /*variance_decay=*/0.1, 5, 0.1, 1e-4));
  for (std::int64_t s = 0; s < 1500; s += 250) {
    const double at = double(s);
    const double quiet = np_linear_cosine_decay(at, num_training_steps);
    const double bound = initial_lr * np_cosine_part(at, num_training_steps) *
                         np_noise_stddev(at, num_training_steps) * max_normal_draw;
    CHECK(std::abs(by_default(s) - quiet) <= bound + 1e-12);
    if (s >= 1000) CHECK(by_default(s) == doctest::Approx(quiet).epsilon(1e-12));  // the cosine is 0 there
    if (s < 1000) CHECK(by_default(s) != doctest::Approx(quiet).epsilon(1e-9));    // and only there

    const double quiet_nd = np_linear_cosine_decay(at, num_training_steps, 0.1, 1e-4, 5);
    const double bound_nd = initial_lr * np_cosine_part(at, num_training_steps, 5) *
                            np_noise_stddev(at, num_training_steps, 0.5, 0.1) * max_normal_draw;
    CHECK(std::abs(non_default(s) - quiet_nd) <= bound_nd + 1e-12);
    if (s == 500) CHECK(non_default(s) == doctest::Approx(quiet_nd).epsilon(1e-12));  // cos(5 pi): the cosine is 0
    if (s != 500) CHECK(non_default(s) != doctest::Approx(quiet_nd).epsilon(1e-9));
  }
}

TEST_CASE("noisy_linear_cosine_decay: the noise is a function of (seed, step)") {
  auto step = train::global_step();
  schedule_at seed0(train::noisy_linear_cosine_decay(1.0, step, 1000));
  schedule_at again(train::noisy_linear_cosine_decay(1.0, step, 1000));
  schedule_at seed1(train::noisy_linear_cosine_decay(1.0, step, 1000, 1.0, 0.55, 0.5, 0.0, 0.001, 1));
  const double at_123 = seed0(123);
  for (std::int64_t s = 0; s < 10; ++s) {
    CHECK(seed0(s) == again(s));  // another session, the same value
    CHECK(seed0(s) != seed1(s));  // another seed, another noise
  }
  CHECK(seed0(123) == at_123);  // the same step again, after others
  CHECK(seed0(124) != at_123);

  // The seed may be a node, and is the named constant "<Name>/seed" (0) when not given.
  static_assert(tf::contains_v<tf::inputs_of<decltype(train::noisy_linear_cosine_decay(1.0, step, 1000))>,
                               tf::named_constant_node<"NoisyLinearCosineDecay/seed", std::int64_t, tf::scalar>>);
  auto seed = tf::placeholder<"noise_seed", std::int64_t>();
  auto fed = train::noisy_linear_cosine_decay(1.0, step, 1000, 1.0, 0.55, 0.5, 0.0, 0.001, seed);
  tf::session sess(fed);
  sess.initialize_all();
  sess.slot<train::global_step_node>().value = 7;
  CHECK(sess.run(fed, tf::feed(seed, std::int64_t{1})) == seed1(7));
  CHECK(sess.run(fed, tf::feed(seed, std::int64_t{0})) == seed0(7));
}

TEST_CASE("noisy_linear_cosine_decay: eps is normal, of variance initial_variance / (1 + step) ^ variance_decay") {
  // With num_periods 0 the cosine part is 1, and with alpha and beta 0 the value is
  // linear + eps: eps / stddev over 20000 steps (one fixed seed, so the check is the same on
  // every run) must have mean 0, variance 1 and a normal's share within one stddev. An absent
  // noise, a variance taken for the stddev, or a variance that does not decay fails it.
  const double decay_steps = 1e9, initial_variance = 0.5, variance_decay = 0.55;
  schedule_at noisy(train::noisy_linear_cosine_decay(1.0, train::global_step(), decay_steps, initial_variance,
                                                     variance_decay, 0.0, 0.0, 0.0, 7));
  const int n = 20000;
  double sum = 0, sum_sq = 0, largest = 0;
  int within_one = 0;
  for (std::int64_t s = 0; s < n; ++s) {
    const double linear = (decay_steps - double(s)) / decay_steps;
    const double z = (noisy(s) - linear) / np_noise_stddev(double(s), decay_steps, initial_variance, variance_decay);
    sum += z;
    sum_sq += z * z;
    largest = std::max(largest, std::abs(z));
    within_one += std::abs(z) < 1.0;
  }
  const double mean = sum / n, variance = sum_sq / n - mean * mean;
  CHECK(std::abs(mean) < 0.05);                            // 7 standard errors
  CHECK(variance == doctest::Approx(1.0).epsilon(0.05));   // 5 standard errors
  CHECK(double(within_one) / n == doctest::Approx(0.6827).epsilon(0.03));
  CHECK(largest <= max_normal_draw);
  CHECK(largest > 3.0);  // 20000 normal draws reach past 3 (all but surely)
}

TEST_CASE("noisy_linear_cosine_decay: over many steps, the mean is the noiseless schedule's") {
  // Steps 0 to 999 of the default schedule, where the cosine (and so the noise) is not 0:
  // the mean of the noise's standard error is about 0.006 here; its mean absolute value is
  // sqrt(2 / pi) times the mean of lr * cosine * stddev.
  const double decay_steps = 1000;
  schedule_at noisy(train::noisy_linear_cosine_decay(1.0, train::global_step(), decay_steps));
  double noisy_sum = 0, quiet_sum = 0, deviation_sum = 0, expected_deviation_sum = 0;
  for (std::int64_t s = 0; s < 1000; ++s) {
    const double v = noisy(s), quiet = np_linear_cosine_decay(double(s), decay_steps);
    noisy_sum += v;
    quiet_sum += quiet;
    deviation_sum += std::abs(v - quiet);
    expected_deviation_sum += std::sqrt(2.0 / std::numbers::pi) * np_cosine_part(double(s), decay_steps) *
                              np_noise_stddev(double(s), decay_steps);
  }
  CHECK(std::abs(noisy_sum - quiet_sum) / 1000 < 0.03);
  CHECK(deviation_sum / expected_deviation_sum == doctest::Approx(1.0).epsilon(0.2));
}

TEST_CASE("a cosine-decayed learning rate drives an optimizer, step by step") {
  // w -= lr_t * g with g = 1 (loss = w), lr_t = 0.1 * 0.5 * (1 + cos(pi * min(t, 4) / 4)).
  auto w = tf::variable<"cosine_w", double, tf::shape<>, tf::init::zeros()>();
  auto step = train::global_step();
  auto lr = train::cosine_decay(0.1, step, 4);
  auto train_op = train::gradient_descent(lr).minimize(w, step);
  tf::session sess(train_op);
  sess.initialize_all();
  double expected = 0;
  for (int t = 0; t < 6; ++t) {
    const double lr_t = 0.1 * np_cosine_decay(t, 4);
    CHECK(sess.run(lr) == doctest::Approx(lr_t).epsilon(1e-12));
    sess.run(train_op);
    expected -= lr_t;
    CHECK(sess.run(w) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(sess.run(step) == t + 1);
  }
  CHECK(expected == doctest::Approx(-0.1 * (1.0 + 0.5 * (1 + std::cos(std::numbers::pi / 4)) + 0.5 +
                                            0.5 * (1 + std::cos(3 * std::numbers::pi / 4)))));
}

TEST_CASE("cosine schedules: parameters may be nodes, numbers are named constants, the result has lr's type") {
  auto t_mul = tf::placeholder<"t_mul", double>();
  auto lr = train::cosine_decay_restarts(1.0, train::global_step(), 1000, t_mul);
  static_assert(tf::contains_v<tf::inputs_of<decltype(lr)>,
                               tf::named_constant_node<"SGDRDecay/m_mul", double, tf::scalar>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(lr)>, double>);
  tf::session sess(lr);
  sess.initialize_all();
  sess.slot<train::global_step_node>().value = 1250;
  CHECK(sess.run(lr, tf::feed(t_mul, 2.0)) == doctest::Approx(np_cosine_decay_restarts(1250, 1000, 2.0)));
  CHECK(sess.run(lr, tf::feed(t_mul, 1.0)) == doctest::Approx(np_cosine_decay_restarts(1250, 1000, 1.0)));

  auto single = train::linear_cosine_decay(tf::constant<1.0f>(), train::global_step(), 1000);
  static_assert(std::is_same_v<tf::value_type_of<decltype(single)>, float>);
  schedule_at at(single);
  CHECK(at(250) == doctest::Approx(np_linear_cosine_decay(250, 1000)).epsilon(1e-6));
}
