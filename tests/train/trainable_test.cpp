// trainable=False: a variable made with typeflow::not_trainable, which optimizers given no
// var_list leave out (TensorFlow's var_list defaults to tf.trainable_variables()). Ported
// from TensorFlow 1.x's observable behaviour: optimizer_test.py (testBasic, with var1 made
// non-trainable; testNoVariables is tests/train/compile_fail/minimize_only_not_trainable.cpp),
// variables_test.py (testCollections: trainable is an attribute of the variable, global
// variables include the non-trainable ones), and what trainable=False leaves unchanged:
// tf.gradients, initialization, assignment, Saver, an explicit var_list.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <typeflow/train/moving_average.hpp>
#include <typeflow/train/saver.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;
using ckpt_testing::temp_dir;

namespace {
using vec2 = xt::xtensor_fixed<double, xt::xshape<2>>;

// optimizer_test.py's testBasic: var0 = [1, 2], var1 = [3, 4], loss = 5 * var0 + 3 * var1
// (summed), here with var1 non-trainable.
auto var0() { return tf::variable<"var0", double, tf::shape<2>, tf::init::zeros()>(); }
auto var1() { return tf::variable<"var1", double, tf::shape<2>, tf::init::zeros()>(tf::not_trainable); }
template <class V0, class V1>
auto basic_loss(const V0& v0, const V1& v1) {
  return tf::reduce_sum(tf::constant<5.0>() * v0 + tf::constant<3.0>() * v1);
}
// tf.Variable([1.0, 2.0]) and tf.Variable([3.0, 4.0]): set after initialization.
template <class Session, class V0, class V1>
void set_basic_values(Session& sess, const V0&, const V1&) {
  sess.initialize_all();
  sess.template slot<V0>().value = vec2{1, 2};
  sess.template slot<V1>().value = vec2{3, 4};
}
}  // namespace

TEST_CASE("trainable: not_trainable marks the initializer source; an ordinary variable's type is unchanged") {
  using plain = decltype(tf::variable<"t/a", float, tf::shape<3>, tf::init::zeros()>());
  static_assert(std::is_same_v<plain, tf::variable_node<"t/a", float, tf::shape<3>, tf::init::fixed<tf::init::zeros()>>>);
  using frozen = decltype(tf::variable<"t/a", float, tf::shape<3>, tf::init::zeros()>(tf::not_trainable));
  static_assert(std::is_same_v<frozen, tf::variable_node<"t/a", float, tf::shape<3>,
                                                         tf::init::not_trainable<tf::init::fixed<tf::init::zeros()>>>>);
  // The initializer source the session reads is the one inside the mark.
  static_assert(std::is_same_v<frozen::initializer_source, plain::initializer_source>);
  using frozen_run_time = decltype(tf::variable<"t/r", float>(tf::init::ones(), tf::not_trainable));
  static_assert(std::is_same_v<frozen_run_time::initializer_source, tf::init::run_time>);
  // The default initializer, as for any variable.
  using frozen_default = decltype(tf::variable<"t/d", std::int64_t>(tf::not_trainable));
  static_assert(std::is_same_v<frozen_default::initializer_source, tf::init::fixed<tf::init::zeros()>>);

  // variables_test.py's testCollections: trainable is the variable's own attribute.
  static_assert(tf::is_trainable_v<plain>);
  static_assert(!tf::is_trainable_v<frozen> && !tf::is_trainable_v<frozen_run_time> &&
                !tf::is_trainable_v<frozen_default>);
  static_assert(tf::is_trainable_v<decltype(tf::variable<"t/w", float, tf::shape<2>>(tf::init::zeros()))>);
  // Not variables, an op's hidden state, a moving average's shadow: not trainable.
  static_assert(!tf::is_trainable_v<decltype(tf::placeholder<"t/x", float>())>);
  static_assert(!tf::is_trainable_v<decltype(plain{} + plain{})>);
  static_assert(!tf::is_trainable_v<tf::dropout_state_node<1>>);
  static_assert(!tf::is_trainable_v<decltype(train::exponential_moving_average(0.9).average(plain{}))>);
  // The variables TensorFlow makes with trainable=False: the global step (whose type is the
  // one a program declares itself), optimizers' slots, Adam's beta powers.
  static_assert(!tf::is_trainable_v<decltype(train::global_step())>);
  static_assert(std::is_same_v<decltype(train::global_step()),
                               decltype(tf::variable<"global_step", std::int64_t>(tf::not_trainable))>);
  auto adam = train::adam(0.001);
  static_assert(!tf::is_trainable_v<decltype(train::slot<0>(adam, plain{}))> &&
                !tf::is_trainable_v<decltype(train::slot<1>(adam, plain{}))>);
  static_assert(!tf::is_trainable_v<decltype(train::non_slot<0>(adam, plain{}))> &&
                !tf::is_trainable_v<decltype(train::non_slot<1>(adam, plain{}))>);
  static_assert(!tf::is_trainable_v<decltype(train::slot<0>(train::momentum(0.1, 0.9), plain{}))>);
  static_assert(!tf::is_trainable_v<decltype(train::slot<0>(train::adagrad(0.1), plain{}))>);
  static_assert(!tf::is_trainable_v<decltype(train::slot<0>(train::rmsprop(0.1), plain{}))>);
}

TEST_CASE("trainable: the run-time form keeps its initializer and its checks") {
  auto c = tf::variable<"t/c", double, tf::shape<2>>(tf::init::constant(7), tf::not_trainable);
  tf::session sess(c);
  sess.initialize_all();
  CHECK(sess.run(c) == vec2{7, 7});
  // As tf::variable's: TensorFlow's ValueError when the variable is made.
  auto make_int = [] { return tf::variable<"t/i", std::int32_t>(tf::init::random_normal(), tf::not_trainable); };
  CHECK_THROWS_WITH_AS((void)make_int(),
                       "InvalidArgument: Expected floating point type, got int32: random_normal_initializer "
                       "cannot initialize variable t/i",
                       tf::invalid_argument_error);
}

TEST_CASE("trainable: minimize(loss) updates the trainable variable and leaves the non-trainable one (testBasic)") {
  auto v0 = var0();
  auto v1 = var1();
  auto loss = basic_loss(v0, v1);
  auto sgd_op = train::gradient_descent(3.0).minimize(loss);
  tf::session sess(sgd_op);
  set_basic_values(sess, v0, v1);
  sess.run(sgd_op);
  CHECK(sess.run(v0) == vec2{1.0 - 3.0 * 5.0, 2.0 - 3.0 * 5.0});
  CHECK(sess.run(v1) == vec2{3, 4});
  sess.run(sgd_op);
  CHECK(sess.run(v0) == vec2{1.0 - 6.0 * 5.0, 2.0 - 6.0 * 5.0});
  CHECK(sess.run(v1) == vec2{3, 4});
}

TEST_CASE("trainable: compute_gradients(loss) pairs the trainable variables only") {
  auto v0 = var0();
  auto v1 = var1();
  auto loss = basic_loss(v0, v1);
  auto pairs = train::gradient_descent(3.0).compute_gradients(loss);
  static_assert(std::tuple_size_v<decltype(pairs)> == 1);
  static_assert(std::is_same_v<std::tuple_element_t<0, decltype(pairs)>::variable, decltype(v0)>);
  // With var_list, both (TensorFlow: var_list overrides trainable).
  auto both = train::gradient_descent(3.0).compute_gradients(loss, train::var_list(v0, v1));
  static_assert(std::tuple_size_v<decltype(both)> == 2);
  static_assert(std::is_same_v<std::tuple_element_t<1, decltype(both)>::variable, decltype(v1)>);
}

TEST_CASE("trainable: a var_list naming the non-trainable variable trains it") {
  auto v0 = var0();
  auto v1 = var1();
  auto loss = basic_loss(v0, v1);
  auto sgd_op = train::gradient_descent(3.0).minimize(loss, train::var_list(v0, v1));
  tf::session sess(sgd_op);
  set_basic_values(sess, v0, v1);
  sess.run(sgd_op);
  CHECK(sess.run(v0) == vec2{-14, -13});
  CHECK(sess.run(v1) == vec2{3.0 - 3.0 * 3.0, 4.0 - 3.0 * 3.0});

  auto only_v1 = train::gradient_descent(3.0).minimize(loss, train::var_list(v1));
  tf::session sess1(only_v1);
  set_basic_values(sess1, v0, v1);
  sess1.run(only_v1);
  CHECK(sess1.run(v0) == vec2{1, 2});
  CHECK(sess1.run(v1) == vec2{-6, -5});
}

// optimizer_test.py's testNoGradients (cost = 5 * var0, minimize with var_list [var1]: no
// variable receives a gradient, a compile error here: tests/train/compile_fail/
// minimize_no_gradient_in_var_list.cpp), and what apply_gradients does with a None gradient
// beside real ones: it leaves that pair out, so the variable keeps its value and gets no slots.
TEST_CASE("trainable: a var_list variable that no path joins to the loss is left out, as a None gradient") {
  auto v0 = var0();
  auto v1 = var1();
  auto cost = tf::reduce_sum(tf::constant<5.0>() * v0);
  auto opt = train::adam(0.5);
  auto pairs = opt.compute_gradients(cost, train::var_list(v0, v1));
  static_assert(std::tuple_size_v<decltype(pairs)> == 2);  // (zeros, var1): TensorFlow's (None, var1)
  auto train_op = opt.apply_gradients(pairs);
  tf::session sess(train_op, v1);  // var1 too: the update node no longer reaches it
  static_assert(decltype(sess)::holds<train::slot_t<decltype(v0), "Adam", 0>>);
  static_assert(!decltype(sess)::holds<train::slot_t<decltype(v1), "Adam", 0>> &&
                !decltype(sess)::holds<train::slot_t<decltype(v1), "Adam", 1>>);
  set_basic_values(sess, v0, v1);
  for (int i = 0; i < 3; ++i) sess.run(train_op);
  CHECK(sess.run(v1) == vec2{3, 4});
  // Adam's first steps move each element by about the learning rate, against the gradient.
  CHECK(sess.run(v0)(0) == doctest::Approx(1.0 - 3 * 0.5).epsilon(1e-6));
  CHECK(sess.run(v0)(1) == doctest::Approx(2.0 - 3 * 0.5).epsilon(1e-6));
}

TEST_CASE("trainable: tf::gradients does not ask whether a variable is trainable") {
  auto v0 = var0();
  auto v1 = var1();
  auto loss = basic_loss(v0, v1);
  auto [g0, g1] = tf::gradients(loss, v0, v1);
  tf::session sess(loss);
  set_basic_values(sess, v0, v1);
  CHECK(sess.run(tf::gradient(loss, v1)) == vec2{3, 3});
  CHECK(sess.run(g1) == vec2{3, 3});
  CHECK(sess.run(g0) == vec2{5, 5});
  // A product, so the gradient reads the other variable's value.
  auto prod = tf::reduce_sum(v0 * v1);
  CHECK(sess.run(tf::gradient(prod, v1)) == vec2{1, 2});
}

TEST_CASE("trainable: a non-trainable variable is initialized, assigned and read like any other") {
  auto step = tf::variable<"t/step", std::int64_t>(tf::not_trainable);
  auto increment = tf::assign_add(step, tf::constant<std::int64_t{1}>());
  auto scale = tf::variable<"t/scale", double, tf::shape<>, tf::init::constant(0.5)>(tf::not_trainable);
  auto set_scale = tf::assign(scale, tf::constant<2.0>());
  tf::session sess(increment, set_scale);
  CHECK(sess.uninitialized_names() == std::vector<std::string>{"t/step", "t/scale"});
  sess.run(tf::global_variables_initializer());
  CHECK(sess.run(step) == 0);
  CHECK(sess.run(scale) == 0.5);
  sess.run(increment);
  sess.run(increment);
  sess.run(set_scale);
  CHECK(sess.run(step) == 2);
  CHECK(sess.run(scale) == 2.0);
}

TEST_CASE("trainable: Saver saves and restores the non-trainable variable (a global variable)") {
  auto v0 = var0();
  auto v1 = var1();
  auto loss = basic_loss(v0, v1);
  auto sgd_op = train::gradient_descent(3.0).minimize(loss);
  tf::session sess(sgd_op);
  set_basic_values(sess, v0, v1);
  temp_dir dir;
  const auto path = train::saver{}.save(sess, dir / "model.ckpt", 0);
  const auto vars = train::list_variables(path);
  REQUIRE(vars.size() == 2);
  CHECK(vars[0] == train::variable_info{"var0", tf::dtype::float64, {2}});
  CHECK(vars[1] == train::variable_info{"var1", tf::dtype::float64, {2}});

  tf::session other(sgd_op);
  other.initialize_all();
  CHECK(other.run(v1) == vec2{0, 0});
  train::saver{}.restore(other, path);
  CHECK(other.run(v0) == vec2{1, 2});
  CHECK(other.run(v1) == vec2{3, 4});
}

TEST_CASE("trainable: Adam keeps no slots for a non-trainable variable") {
  auto v0 = var0();
  auto v1 = var1();
  auto loss = basic_loss(v0, v1);
  auto opt = train::adam(0.001);
  auto train_op = opt.minimize(loss);
  tf::session sess(train_op);
  static_assert(decltype(sess)::holds<train::slot_t<decltype(v0), "Adam", 0>>);
  static_assert(!decltype(sess)::holds<train::slot_t<decltype(v1), "Adam", 0>>);
  static_assert(!decltype(sess)::holds<train::slot_t<decltype(v1), "Adam", 1>>);
  set_basic_values(sess, v0, v1);
  sess.run(train_op);
  CHECK(sess.run(v1) == vec2{3, 4});
  temp_dir dir;
  std::vector<std::string> names;
  for (const auto& v : train::list_variables(train::saver{}.save(sess, dir / "model.ckpt", 1)))
    names.push_back(v.name);
  CHECK(names == std::vector<std::string>{"beta1_power", "beta2_power", "var0", "var0/Adam", "var0/Adam_1", "var1"});
}

TEST_CASE("trainable: an evaluation program's variables_to_restore averages the trainable variables only") {
  auto w = tf::variable<"t/ema/w", float, tf::shape<2>, tf::init::zeros()>();
  auto moving = tf::variable<"t/ema/moving", float, tf::shape<2>, tf::init::zeros()>(tf::not_trainable);
  auto ema = train::exponential_moving_average(0.5);
  tf::session eval_sess(tf::group(w, moving));
  // TensorFlow's default: tf.trainable_variables() (and moving_average_variables()) under
  // their averages' names, every other global variable under its own.
  using map = decltype(ema.variables_to_restore(eval_sess));
  static_assert(std::is_same_v<
                map, train::saver_var_map<train::saved_as_t<"t/ema/w/ExponentialMovingAverage", decltype(w)>,
                                          train::saved_as_t<"t/ema/moving", decltype(moving)>>>);

  // A training program's session without shadows: the optimizer's slots, beta powers and
  // the global step are restored under their own names, as TensorFlow's are.
  auto loss = tf::reduce_sum(w * w);
  auto step = train::global_step();
  auto train_op = train::adam(0.1).minimize(loss, step);
  tf::session train_sess(train_op);
  using train_map = decltype(ema.variables_to_restore(train_sess));
  static_assert(std::is_same_v<
                train_map, train::saver_var_map<train::saved_as_t<"t/ema/w/ExponentialMovingAverage", decltype(w)>,
                                                train::saved_as_t<"t/ema/w/Adam", train::slot_t<decltype(w), "Adam", 0>>,
                                                train::saved_as_t<"t/ema/w/Adam_1", train::slot_t<decltype(w), "Adam", 1>>,
                                                train::saved_as_t<"beta1_power", decltype(train::non_slot<0>(train::adam(0.1), w))>,
                                                train::saved_as_t<"beta2_power", decltype(train::non_slot<1>(train::adam(0.1), w))>,
                                                train::saved_as_t<"global_step", decltype(step)>>>);
}
