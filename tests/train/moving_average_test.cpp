// train::exponential_moving_average: shadows, apply as a side effect, num_updates, and
// restoring averaged weights into an evaluation program's plain variables.
#include <doctest/doctest.h>

#include <cmath>

#include <typeflow/ops/constant.hpp>
#include <typeflow/ops/placeholder.hpp>
#include <typeflow/ops/state.hpp>
#include <typeflow/ops/variable.hpp>
#include <typeflow/session/session.hpp>
#include <typeflow/train/moving_average.hpp>
#include <typeflow/train/saver.hpp>

#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;
using ckpt_testing::temp_dir;

TEST_CASE("ema: the shadow is the variable \"v/ExponentialMovingAverage\" and starts as v's initial value") {
  auto w = tf::variable<"ema/w", float, tf::shape<3, 4>>();  // glorot_uniform, seeded by name
  auto ema = train::exponential_moving_average(0.9);
  auto shadow = ema.average(w);
  static_assert(decltype(ema)::average_name(decltype(w){}) == "ema/w/ExponentialMovingAverage");
  CHECK(ema.average_name(w) == "ema/w/ExponentialMovingAverage");
  CHECK(decltype(shadow)::name.view() == "ema/w/ExponentialMovingAverage");
  tf::session sess(ema.apply(w));
  static_assert(decltype(sess)::holds<decltype(shadow)>);
  sess.initialize_all();
  CHECK(sess.run(shadow) == sess.run(w));
  CHECK(sess.run(w)(0, 0) != 0.0f);
}

TEST_CASE("ema: apply is a side effect: shadow -= (1 - decay) * (shadow - v), only when it runs") {
  auto v = tf::variable<"ema/v", float, tf::shape<2>>(tf::init::constant(10));
  auto s = tf::variable<"ema/s", double>(tf::init::constant(1));
  auto ema = train::exponential_moving_average<"ema_a">(0.75);
  auto update = ema.apply(v, s);
  auto set_s = tf::assign(s, tf::constant<3.0>());
  tf::session sess(tf::group(update, set_s));
  sess.initialize_all();
  sess.run(set_s);
  sess.slot<decltype(v)>().value.fill(20);
  CHECK(sess.run(ema.average(v)) == xt::xtensor_fixed<float, xt::xshape<2>>{10, 10});  // not run yet
  sess.run(update);
  CHECK(sess.run(ema.average(v)) == xt::xtensor_fixed<float, xt::xshape<2>>{12.5f, 12.5f});
  CHECK(sess.run(ema.average(s)) == doctest::Approx(1.5));
  sess.run(update);
  CHECK(sess.run(ema.average(v))(0) == doctest::Approx(14.375f));
  CHECK(sess.run(ema.average(s)) == doctest::Approx(1.875));
  CHECK(sess.run(ema.decay()) == 0.75);  // the named constant "ema_a/decay"
  static_assert(std::remove_cvref_t<decltype(ema.decay())>::name == tf::fixed_string("ema_a/decay"));
}

TEST_CASE("ema: with num_updates the decay is min(decay, (1 + n) / (10 + n))") {
  auto v = tf::variable<"ema/nv", double>(tf::init::constant(0));
  auto step = tf::variable<"ema/step", std::int64_t>(tf::init::constant(0));
  auto ema = train::exponential_moving_average<"ema_n">(0.99, step);
  auto update = ema.apply(v);
  auto set_v = tf::assign(v, tf::constant<1.0>());
  tf::session sess(tf::group(update, set_v));
  sess.initialize_all();
  sess.run(set_v);
  sess.run(update);  // n = 0: decay = 0.1
  CHECK(sess.run(ema.average(v)) == doctest::Approx(0.9));
  sess.slot<decltype(step)>().value = 1000000;  // decay = 0.99
  sess.run(update);
  CHECK(sess.run(ema.average(v)) == doctest::Approx(0.9 + 0.01 * 0.1));
}

TEST_CASE("ema: the decay travels with the update node; two decays are two definitions") {
  auto v = tf::variable<"ema/dv", double>(tf::init::constant(0));
  auto set_v = tf::assign(v, tf::constant<1.0>());
  auto slow = train::exponential_moving_average<"ema_def">(0.5).apply(v);
  auto fast = train::exponential_moving_average<"ema_def">(0.25).apply(v);
  static_assert(std::is_same_v<decltype(slow), decltype(fast)>);
  auto shadow = train::exponential_moving_average<"ema_def">(0.5).average(v);
  tf::session a(tf::group(slow, set_v)), b(tf::group(fast, set_v));
  a.initialize_all();
  b.initialize_all();
  a.run(set_v);
  b.run(set_v);
  a.run(slow);
  b.run(fast);
  CHECK(a.run(shadow) == doctest::Approx(0.5));   // 0 - 0.5 * (0 - 1)
  CHECK(b.run(shadow) == doctest::Approx(0.75));  // 0 - 0.75 * (0 - 1)
  CHECK_THROWS_WITH_AS(tf::group(slow, fast), doctest::Contains("Constant ema_def/decay is defined twice"),
                       tf::already_exists_error);
  CHECK_THROWS_WITH_AS(train::exponential_moving_average<"ema_bad">(1.5),
                       "InvalidArgument: ExponentialMovingAverage ema_bad: decay 1.500000 is not in [0, 1]",
                       tf::invalid_argument_error);
}

TEST_CASE("ema: the decay may be a node: fed per run") {
  auto v = tf::variable<"ema/fv", double>(tf::init::constant(0));
  auto set_v = tf::assign(v, tf::constant<1.0>());
  auto decay = tf::placeholder<"ema_decay", double>();
  auto ema = train::exponential_moving_average<"ema_fed">(decay);
  auto update = ema.apply(v);
  tf::session sess(tf::group(update, set_v));
  sess.initialize_all();
  sess.run(set_v);
  sess.run(update, tf::feed(decay, 0.5));
  CHECK(sess.run(ema.average(v)) == doctest::Approx(0.5));
  sess.run(update, tf::feed(decay, 0.0));
  CHECK(sess.run(ema.average(v)) == doctest::Approx(1.0));
}

TEST_CASE("ema: an uninitialized shadow makes apply fail, naming it") {
  auto v = tf::variable<"ema/u", float>(tf::init::constant(1));
  auto ema = train::exponential_moving_average<"ema_u">(0.5);
  auto update = ema.apply(v);
  tf::session sess(update);
  sess.initialize<decltype(v)>();
  CHECK_THROWS_WITH_AS(sess.run(update), "FailedPrecondition: Attempting to use uninitialized value ema/u/ema_u",
                       tf::failed_precondition_error);
}

namespace {
auto model_w() { return tf::variable<"model/w", float, tf::shape<2>>(tf::init::constant(0)); }
auto model_step() { return tf::variable<"model/step", std::int64_t>(tf::init::constant(0)); }
}  // namespace

TEST_CASE("ema: variables_to_restore restores averaged weights into an evaluation program's plain variables") {
  temp_dir dir;
  std::string path;
  {
    // Training: w moves to 1, then 2; its average lags behind.
    auto w = model_w();
    auto step = model_step();
    auto ema = train::exponential_moving_average<"EMA">(0.5);
    auto update = ema.apply(w);
    tf::session train_sess(tf::group(update, step));
    train_sess.initialize_all();
    auto& wv = train_sess.slot<decltype(w)>().value;
    wv.fill(1);
    train_sess.run(update);  // 0.5
    wv.fill(2);
    train_sess.run(update);  // 1.25
    train_sess.slot<decltype(step)>().value = 7;
    // In the training graph: w and step under their names, the shadow left out.
    using map = decltype(ema.variables_to_restore(train_sess));
    static_assert(std::is_same_v<map, train::saver_var_map<train::saved_as_t<"model/w/EMA", decltype(w)>,
                                                           train::saved_as_t<"model/step", decltype(step)>>>);
    path = train::saver{}.save(train_sess, dir / "model.ckpt", 7);
    const auto vars = train::list_variables(path);
    REQUIRE(vars.size() == 3);
    CHECK(vars[0].name == "model/step");  // sorted by name, as tf.train.list_variables
    CHECK(vars[1].name == "model/w");
    CHECK(vars[2].name == "model/w/EMA");
  }
  // Evaluation: plain variables only; the float one is restored from its average, the
  // integer one under its own name.
  auto w = model_w();
  auto step = model_step();
  auto ema = train::exponential_moving_average<"EMA">(0.5);
  tf::session eval_sess(tf::group(w, step));
  using map = decltype(ema.variables_to_restore(eval_sess));
  static_assert(std::is_same_v<map, train::saver_var_map<train::saved_as_t<"model/w/EMA", decltype(w)>,
                                                         train::saved_as_t<"model/step", decltype(step)>>>);
  train::saver(ema.variables_to_restore(eval_sess)).restore(eval_sess, path);
  CHECK(eval_sess.run(w) == xt::xtensor_fixed<float, xt::xshape<2>>{1.25f, 1.25f});
  CHECK(eval_sess.run(step) == 7);
  // With the averaged variables given explicitly.
  using explicit_map = decltype(ema.variables_to_restore(eval_sess, step));
  static_assert(std::is_same_v<explicit_map, train::saver_var_map<train::saved_as_t<"model/w", decltype(w)>,
                                                                  train::saved_as_t<"model/step/EMA", decltype(step)>>>);
  // A plain saver restores the raw weights.
  train::saver{}.restore(eval_sess, path);
  CHECK(eval_sess.run(w) == xt::xtensor_fixed<float, xt::xshape<2>>{2, 2});
}
