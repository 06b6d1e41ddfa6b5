// TensorFlow's moving_average_optimizer_test.py (tf.contrib.opt.MovingAverageOptimizer),
// ported: testRun (updates, averages, the swapping saver is an identity, a subset saver,
// a plain saver restores the averages), testFailWhenSaverCreatedBeforeInitialized and
// testCorrectOverride. (float16 and resource variables have no typeflow counterpart; the
// missing-average var_list case is a compile-fail test:
// tests/train/compile_fail/swapping_saver_without_average.cpp.)
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/moving_average_optimizer.hpp>
#include <typeflow/train/saver.hpp>

#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;
using ckpt_testing::temp_dir;

namespace {
template <class T>
using vec2 = xt::xtensor_fixed<T, xt::xshape<2>>;

template <class A, class T>
void check_close(const A& got, vec2<T> expected) {
  const double tol = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  for (std::size_t i = 0; i < 2; ++i) CHECK(double(got(i)) == doctest::Approx(double(expected(i))).epsilon(tol));
}

template <class T>
void run_test() {
  temp_dir dir;
  const std::string save_path = dir / "model";
  auto var0 = tf::variable<"var0", T, tf::shape<2>>(tf::init::zeros());
  auto var1 = tf::variable<"var1", T, tf::shape<2>>(tf::init::zeros());
  auto grads0 = tf::constant<"grads0">(vec2<T>{T(0.1), T(0.1)});
  auto grads1 = tf::constant<"grads1">(vec2<T>{T(0.01), T(0.01)});
  auto opt = train::moving_average_optimizer(train::gradient_descent(2.0), 0.5);
  auto update = opt.apply_gradients(train::grad_and_var(grads0, var0), train::grad_and_var(grads1, var1));
  auto ema_var0 = opt.moving_average().average(var0);
  auto ema_var1 = opt.moving_average().average(var1);
  static_assert(decltype(ema_var0)::name == tf::fixed_string("var0/ExponentialMovingAverage"));
  auto perturb = tf::group(tf::assign_add(var0, tf::constant<"one">(vec2<T>{1, 1})),
                           tf::assign_add(var1, tf::constant<"two">(vec2<T>{2, 2})),
                           tf::assign_add(ema_var0, tf::constant<"three">(vec2<T>{3, 3})),
                           tf::assign_add(ema_var1, tf::constant<"four">(vec2<T>{4, 4})));
  tf::session sess(update, perturb);
  auto train_saver = opt.swapping_saver(sess);
  auto train_saver_subset = opt.swapping_saver(sess, train::var_list(var0, ema_var0));
  train::saver inference_saver;
  sess.initialize_all();
  sess.template slot<decltype(var0)>().value = vec2<T>{1, 2};  // orig_val0
  sess.template slot<decltype(var1)>().value = vec2<T>{3, 4};  // orig_val1
  sess.template slot<decltype(ema_var0)>().value = vec2<T>{1, 2};
  sess.template slot<decltype(ema_var1)>().value = vec2<T>{3, 4};
  const vec2<T> orig0{1, 2}, orig1{3, 4};

  // Step 1.
  sess.run(update);
  check_close(sess.run(var0), vec2<T>{T(0.8), T(1.8)});
  check_close(sess.run(var1), vec2<T>{T(2.98), T(3.98)});
  check_close(sess.run(ema_var0), vec2<T>{T(0.9), T(1.9)});
  check_close(sess.run(ema_var1), vec2<T>{T(2.99), T(3.99)});
  // The swapping saver's save and restore is the identity.
  train_saver.save(sess, save_path);
  train_saver.restore(sess, save_path);
  check_close(sess.run(var0), vec2<T>{T(0.8), T(1.8)});
  check_close(sess.run(var1), vec2<T>{T(2.98), T(3.98)});
  check_close(sess.run(ema_var0), vec2<T>{T(0.9), T(1.9)});
  check_close(sess.run(ema_var1), vec2<T>{T(2.99), T(3.99)});
  // The subset saver saves and restores var0 and its average only.
  const std::string subset_path = save_path + "_subset";
  train_saver_subset.save(sess, subset_path);
  sess.run(perturb);
  check_close(sess.run(var0), vec2<T>{T(1.8), T(2.8)});
  check_close(sess.run(ema_var0), vec2<T>{T(3.9), T(4.9)});
  check_close(sess.run(var1), vec2<T>{T(4.98), T(5.98)});
  check_close(sess.run(ema_var1), vec2<T>{T(6.99), T(7.99)});
  train_saver_subset.restore(sess, subset_path);
  check_close(sess.run(var0), vec2<T>{T(0.8), T(1.8)});
  check_close(sess.run(ema_var0), vec2<T>{T(0.9), T(1.9)});
  check_close(sess.run(var1), vec2<T>{T(4.98), T(5.98)});
  check_close(sess.run(ema_var1), vec2<T>{T(6.99), T(7.99)});
  train_saver.restore(sess, save_path);  // back to the state after step 1

  // A plain saver restores the averages into the variables: between the original values
  // and the latest ones.
  auto between = [&] {
    const auto val0 = sess.run(var0);
    const auto val1 = sess.run(var1);
    train_saver.save(sess, save_path);
    inference_saver.restore(sess, save_path);
    const auto avg0 = sess.run(var0);
    const auto avg1 = sess.run(var1);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(val0(i) < avg0(i));
      CHECK(avg0(i) < orig0(i));
      CHECK(val1(i) < avg1(i));
      CHECK(avg1(i) < orig1(i));
    }
    train_saver.restore(sess, save_path);
  };
  between();
  // Step 2.
  sess.run(update);
  check_close(sess.run(var0), vec2<T>{T(0.6), T(1.6)});
  check_close(sess.run(var1), vec2<T>{T(2.96), T(3.96)});
  between();
}
}  // namespace

TEST_CASE("testRun: float and double") {
  run_test<float>();
  run_test<double>();
}

TEST_CASE("testFailWhenSaverCreatedBeforeInitialized") {
  auto var = tf::variable<"fail/var", float, tf::shape<1>>(tf::init::ones());
  auto opt = train::moving_average_optimizer(train::gradient_descent(2.0));
  tf::session sess(var);
  CHECK_THROWS_WITH_AS(opt.swapping_saver(sess),
                       "FailedPrecondition: Must call apply_gradients or minimize before creating the "
                       "swapping_saver()",
                       tf::failed_precondition_error);
}

TEST_CASE("testCorrectOverride: minimize goes through the wrapped optimizer") {
  auto var = tf::variable<"override/var", float, tf::shape<1>>(tf::init::constant(1.2));
  auto loss = tf::reduce_sum(tf::square(var));
  auto opt = train::moving_average_optimizer(train::gradient_descent(2.0));
  auto train_op = opt.minimize(loss);
  tf::session sess(train_op);
  sess.initialize_all();
  sess.run(train_op);
  // Started at 1.2, gradient 2 * 1.2 = 2.4, lr 2: -3.6.
  CHECK(sess.run(var)(0) == doctest::Approx(-3.6).epsilon(1e-6));
  CHECK(sess.run(opt.moving_average().average(var))(0) == doctest::Approx(1.2 * 0.9999 - 3.6 * 0.0001).epsilon(1e-6));
}
