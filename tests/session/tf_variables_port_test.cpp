// Variables and their updates (ops/variable.hpp, ops/state.hpp, the session's variable state),
// ported from TensorFlow 1.x's tensorflow/python/kernel_tests/variables_test.py
// (VariablesTestCase, IsInitializedTest, ObsoleteIsInitializedTest) and
// dense_update_ops_test.py (AssignOpTest). Each case names the TensorFlow test it ports; the
// expected values are the test's literals or its numpy reference computed here. TensorFlow's
// automatic names ("Variable", "Variable_1") are written out: a typeflow variable is named.
// Initializers: tf_init_ops_port_test.cpp.
//
// Not ported:
// - testCachingDevice, testDevicePlacement, testColocation, testInitializerFunctionDevicePlacement,
//   VariableContainerTest, testDistributeStrategy, AggregationModesTest,
//   testSynchronizationAndAggregationSaved: devices, containers and distribution strategies.
// - testCountUpToInt32 / Int64: no count_up_to op.
// - testIterable, testRepr, testConstraintArg, testLoad, testVariableDefInitializedInstances,
//   testTrainableInProto, PartitionedVariableTest: Python protocols, protos, constraints,
//   Variable.load and partitioned variables, none of which typeflow has.
// - testInitializerFunction, testNoRefDataRace, testInitializationOrder's depdep,
//   testControlFlowInitialization: initial values computed from other nodes
//   (initialized_value(), lambdas); typeflow's initializers are values (variables.md,
//   "Differences from TensorFlow"); testInitializationOrder's `dep` (a copy of rnd) is ported
//   with init::like.
// - testControlFlow's cond, testZeroSizeStringAssign (a string dtype), testCollections'
//   `collections=` argument, AssignOpTest.testAssignNonStrictShapeChecking
//   (validate_shape=False: a variable's shape is its type) and the testParallel*WithLocking
//   threads (use_locking).
// - testCollections' trainable=False: typeflow has no trainable flag; the case below ports what
//   it is for (an optimizer leaves the variable alone) with train::var_list.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
using tf::shape;

namespace {
template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;
using names = std::vector<std::string>;
}  // namespace

TEST_CASE("VariablesTestCase.testInitialization: scalars, uninitialized until the initializer runs") {
  auto var0 = tf::variable<"Variable", float>(tf::init::constant(0.0));
  auto var1 = tf::variable<"Variable_1", float>(tf::init::constant(1.1));
  static_assert(std::is_same_v<tf::shape_of<decltype(var0)>, shape<>>);  // get_shape() == []
  tf::session sess(var0, var1);
  CHECK_THROWS_WITH_AS(sess.run(var0), "FailedPrecondition: Attempting to use uninitialized value Variable",
                       tf::failed_precondition_error);
  CHECK_THROWS_WITH_AS(sess.run(var1), "FailedPrecondition: Attempting to use uninitialized value Variable_1",
                       tf::failed_precondition_error);
  sess.run(tf::global_variables_initializer());
  CHECK(sess.run(var0) == 0.0f);
  CHECK(sess.run(var1) == doctest::Approx(1.1f));
}

TEST_CASE("VariablesTestCase.testInitializationOrder: dep starts as a copy of rnd (init::like)") {
  // rnd = Variable(random_uniform([3, 6])); dep = Variable(rnd.initialized_value())
  auto rnd = tf::variable<"rnd", float, shape<3, 6>, tf::init::random_uniform()>();
  auto dep = tf::variable_node<"dep", float, shape<3, 6>, tf::init::like<decltype(rnd)>>{};
  tf::session sess(rnd, dep);
  sess.run(tf::global_variables_initializer());
  const auto r = sess.run(rnd);
  CHECK(sess.run(dep) == r);
  CHECK(xt::amin(r)() >= 0.0f);
  CHECK(xt::amax(r)() < 1.0f);
}

TEST_CASE("VariablesTestCase.testAssignments: assign_add, assign_sub, assign and their values as fetches") {
  auto var = tf::variable<"Variable", float>(tf::init::constant(0.0));
  auto plus_one = tf::assign_add(var, tf::constant<1.0>());
  auto minus_one = tf::assign_sub(var, tf::constant<2.0>());
  auto four = tf::assign(var, tf::constant<4.0>());
  tf::session sess(plus_one, minus_one, four);
  sess.run(tf::global_variables_initializer());
  CHECK(sess.run(var) == 0.0f);
  CHECK(sess.run(plus_one) == 1.0f);
  CHECK(sess.run(var) == 1.0f);
  CHECK(sess.run(minus_one) == -1.0f);
  CHECK(sess.run(var) == -1.0f);
  CHECK(sess.run(four) == 4.0f);
  CHECK(sess.run(var) == 4.0f);
}

TEST_CASE("VariablesTestCase.testUseVariableAsTensor / testSession") {
  auto var_x = tf::variable<"var_x", float>(tf::init::constant(2.0));
  auto var_y = tf::variable<"var_y", float>(tf::init::constant(3.0));
  // testSession: Variable([1, 12]): a tensor initial value is assigned from a named constant
  auto var = tf::variable<"var", std::int32_t, shape<2>>(tf::init::zeros());
  auto set_var = tf::assign(var, tf::constant<"var/initial_value">(fixed<std::int32_t, 2>{1, 12}));
  tf::session sess(var_x + var_y, set_var);
  sess.run(tf::global_variables_initializer());
  CHECK(sess.run(var_x) == 2.0f);
  CHECK(sess.run(var_y) == 3.0f);
  CHECK(sess.run(var_x + var_y) == 5.0f);
  sess.run(set_var);
  CHECK(sess.run(var) == fixed<std::int32_t, 2>{1, 12});
}

TEST_CASE("VariablesTestCase.testOperators: a variable in expressions, as a tensor") {
  auto var_f = tf::variable<"var_f", float, shape<1>>(tf::init::constant(2.0));
  auto var_m = tf::variable<"var_m", float, shape<1, 2>>(tf::init::zeros());
  auto set_m = tf::assign(var_m, tf::constant<"var_m/initial_value">(fixed<float, 1, 2>{{2.0f, 3.0f}}));
  auto col = tf::constant<"col">(fixed<float, 2, 1>{{10.0f}, {20.0f}});
  tf::session sess(var_f, set_m);
  sess.run(tf::global_variables_initializer());
  sess.run(set_m);
  using one = fixed<float, 1>;
  CHECK(sess.run(var_f + tf::constant<0.0>()) == one{2.0f});
  CHECK(sess.run(tf::constant<1.0>() + var_f) == one{3.0f});
  CHECK(sess.run(var_f - tf::constant<1.0>()) == one{1.0f});
  CHECK(sess.run(tf::constant<1.0>() - var_f) == one{-1.0f});
  CHECK(sess.run(var_f * tf::constant<10.0>()) == one{20.0f});
  CHECK(sess.run(tf::constant<10.0>() * var_f) == one{20.0f});
  CHECK(sess.run(var_f / tf::constant<10.0>())(0) == doctest::Approx(0.2f));
  CHECK(sess.run(tf::constant<10.0>() / var_f) == one{5.0f});
  CHECK(sess.run(-var_f) == one{-2.0f});
  CHECK(sess.run(tf::abs(var_f)) == one{2.0f});
  using yes = fixed<bool, 1>;
  CHECK(sess.run(var_f < tf::constant<3.0>()) == yes{true});
  CHECK(sess.run(tf::constant<3.0>() < var_f) == yes{false});
  CHECK(sess.run(var_f <= tf::constant<2.0>()) == yes{true});
  CHECK(sess.run(tf::constant<2.0>() <= var_f) == yes{true});
  CHECK(sess.run(var_f > tf::constant<3.0>()) == yes{false});
  CHECK(sess.run(tf::constant<3.0>() > var_f) == yes{true});
  CHECK(sess.run(var_f >= tf::constant<2.0>()) == yes{true});
  CHECK(sess.run(tf::constant<2.0>() >= var_f) == yes{true});
  // var_m.__matmul__([[10], [20]]) == [[80]]; __rmatmul__ == [[20, 30], [40, 60]]
  CHECK(sess.run(tf::matmul(var_m, col)) == fixed<float, 1, 1>{{80.0f}});
  CHECK(sess.run(tf::matmul(col, var_m)) == fixed<float, 2, 2>{{20.0f, 30.0f}, {40.0f, 60.0f}});
}

TEST_CASE("VariablesTestCase.testZeroSizeVarSameAsConst / IsInitializedTest.testZeroSizeVarInitialized") {
  auto zero_size_var = tf::variable<"zero_size_var", float, shape<0, 2>>(tf::init::zeros());
  auto zero_size_const = tf::placeholder<"zero_size_const", float, shape<2, 0>>();  // ones([2, 0])
  auto variable_mul = tf::matmul(zero_size_const, zero_size_var);
  auto const_mul = tf::matmul<false, true>(zero_size_const, zero_size_const);
  tf::session sess(variable_mul);
  CHECK(sess.run(tf::report_uninitialized_variables()) == names{"zero_size_var"});
  sess.run(tf::global_variables_initializer());
  CHECK(sess.run(tf::report_uninitialized_variables()).empty());
  const fixed<float, 2, 0> empty{};
  const auto variable_output = sess.run(variable_mul, tf::feed(zero_size_const, empty));
  CHECK(variable_output == sess.run(const_mul, tf::feed(zero_size_const, empty)));
  CHECK(variable_output == fixed<float, 2, 2>{{0.0f, 0.0f}, {0.0f, 0.0f}});
}

TEST_CASE("IsInitializedTest.testTrainingWithZeroSizeVar: gradient descent with a [0, 2] variable") {
  auto a = tf::variable<"a", float, shape<0, 2>>(tf::init::zeros());
  auto b = tf::variable<"b", float, shape<2, 2>>(tf::init::ones());
  auto objective = tf::reduce_sum(b + tf::matmul<true, false>(a, a));
  auto do_opt = tf::train::gradient_descent(0.1).minimize(objective);
  tf::session sess(do_opt);
  sess.run(tf::global_variables_initializer());
  sess.run(do_opt);
  CHECK(sess.run(b) == fixed<float, 2, 2>{{0.9f, 0.9f}, {0.9f, 0.9f}});
}

TEST_CASE("VariablesTestCase.testCollections: a variable the optimizer must not train (trainable=False)") {
  // var_y = Variable(2.0, trainable=False): minimize(loss) updates var_x and var_z only. typeflow
  // has no trainable flag: the variables to train are listed (train::var_list).
  auto var_x = tf::variable<"var_x", float>(tf::init::constant(2.0));
  auto var_y = tf::variable<"var_y", float>(tf::init::constant(2.0));
  auto var_z = tf::variable<"var_z", float>(tf::init::constant(2.0));
  auto loss = var_x * var_y + var_z;
  auto train = tf::train::gradient_descent(0.5).minimize(loss, tf::train::var_list(var_x, var_z));
  tf::session sess(train);
  auto all = sess.uninitialized_names();  // global_variables(), in the graph's order
  std::sort(all.begin(), all.end());
  CHECK(all == names{"var_x", "var_y", "var_z"});
  sess.initialize_all();
  sess.run(train);
  CHECK(sess.run(var_x) == 1.0f);  // 2 - 0.5 * var_y
  CHECK(sess.run(var_y) == 2.0f);  // not trained
  CHECK(sess.run(var_z) == 1.5f);  // 2 - 0.5 * 1
}

TEST_CASE("VariablesTestCase.testVariableNamesPreserveNameScopesWithDefun: name_scope('foo') + 'bar'") {
  constexpr auto foo = tf::name_scope<"foo">{};
  auto v = foo.variable<"bar", float>(tf::init::constant(0.0));
  static_assert(tf::name_of<decltype(v)>() == "foo/bar");
  tf::session sess(v);
  CHECK(sess.uninitialized_names() == names{"foo/bar"});
}

TEST_CASE("IsInitializedTest.testNoVars / testAssertVariablesInitialized / testVariableList") {
  tf::session none;
  CHECK(none.run(tf::report_uninitialized_variables()).empty());  // testNoVars: size 0

  auto v = tf::variable<"v", std::int32_t, shape<2>>(tf::init::constant(1));
  auto w = tf::variable<"w", std::int32_t, shape<2>>(tf::init::constant(3));
  auto uninited = tf::report_uninitialized_variables();
  {
    tf::session sess(v, w);
    CHECK(sess.run(uninited) == names{"v", "w"});
    sess.run(tf::global_variables_initializer());
    CHECK(sess.run(uninited).empty());
  }
  tf::session sess(v, w);
  CHECK(sess.run(uninited) == names{"v", "w"});
  sess.run(tf::variables_initializer(w));  // sess.run(w.initializer)
  CHECK(sess.run(uninited) == names{"v"});
  CHECK_FALSE(sess.run(tf::is_variable_initialized(v)));
  sess.initialize<decltype(v)>();  // v.initializer.run()
  CHECK(sess.run(uninited).empty());
  CHECK(sess.run(tf::is_variable_initialized(v)));
}

TEST_CASE("ObsoleteIsInitializedTest.testVariables / testVariableList: a read of v asserts it is initialized") {
  // assert_variables_initialized([v]) fails with "Attempting to use uninitialized value" until
  // v is initialized; typeflow checks every variable a run reads before the run starts.
  auto v = tf::variable<"v", std::int32_t, shape<2>>(tf::init::constant(1));
  auto w = tf::variable<"w", std::int32_t, shape<2>>(tf::init::constant(3));
  auto inited = tf::group(v);
  tf::session sess(v, w);
  CHECK_THROWS_WITH_AS(sess.run(inited), "FailedPrecondition: Attempting to use uninitialized value v",
                       tf::failed_precondition_error);
  sess.run(tf::variables_initializer(w));
  CHECK_THROWS_WITH_AS(sess.run(inited), "FailedPrecondition: Attempting to use uninitialized value v",
                       tf::failed_precondition_error);
  sess.run(tf::variables_initializer(v));
  CHECK_NOTHROW(sess.run(inited));
}

namespace {
// AssignOpTest._initAssign{,Add,Sub}Fetch for one dtype: p = Variable(zeros), op = assign*(p, y);
// returns (p after the op, the op's value).
template <class T>
void check_assign_ops() {
  INFO(std::string(tf::dtype_name_of<T>));
  using value = fixed<T, 4, 5>;
  value y{};
  for (std::size_t i = 0; i < y.size(); ++i) y.flat(i) = static_cast<T>(i);  // np.arange(0, 20).reshape([4, 5])
  const value x = xt::zeros<T>({4, 5});
  auto p = tf::variable<"p", T, shape<4, 5>>(tf::init::zeros());
  auto yn = tf::placeholder<"y", T, shape<4, 5>>();
  auto assign = tf::assign(p, yn);
  auto add = tf::assign_add(p, yn);
  auto sub = tf::assign_sub(p, yn);
  tf::session sess(assign, add, sub);
  const auto fetch = [&](auto op) {
    sess.run(tf::variables_initializer(p));
    const value op_value = sess.run(op, tf::feed(yn, y));
    return std::pair{value(sess.run(p)), op_value};
  };
  const auto [a_var, a_op] = fetch(assign);
  CHECK(a_var == y);
  CHECK(a_op == y);
  const auto [add_var, add_op] = fetch(add);
  CHECK(add_var == value(x + y));
  CHECK(add_op == value(x + y));
  const auto [sub_var, sub_op] = fetch(sub);
  CHECK(sub_var == value(x - y));
  CHECK(sub_op == value(x - y));
}
}  // namespace

TEST_CASE("AssignOpTest.testBasic: assign, assign_add and assign_sub for float32, float64, int32, int64") {
  check_assign_ops<float>();
  check_assign_ops<double>();
  check_assign_ops<std::int32_t>();
  check_assign_ops<std::int64_t>();
}

TEST_CASE("AssignOpTest.testInitRequiredAssignAdd / testInitRequiredAssignSub") {
  // p = Variable(fill([1024, 1024], 1)); assign_add(p, fill([1024, 1024], 0)) before p's
  // initializer fails with "use uninitialized"; nothing is written.
  auto p = tf::variable<"p", std::int32_t, shape<1024, 1024>>(tf::init::constant(1));
  auto fill = tf::placeholder<"fill", std::int32_t, shape<1024, 1024>>();
  auto add = tf::assign_add(p, fill);
  auto sub = tf::assign_sub(p, fill);
  tf::session sess(add, sub);
  const xt::xtensor<std::int32_t, 2> zeros = xt::zeros<std::int32_t>({1024, 1024});  // on the heap
  const xt::xtensor<std::int32_t, 2> twos = xt::zeros<std::int32_t>({1024, 1024}) + 2;
  CHECK_THROWS_WITH_AS(sess.run(tf::group(add), tf::feed(fill, zeros)), doctest::Contains("use uninitialized value p"),
                       tf::failed_precondition_error);
  CHECK_THROWS_WITH_AS(sess.run(tf::group(sub), tf::feed(fill, zeros)), doctest::Contains("use uninitialized value p"),
                       tf::failed_precondition_error);
  CHECK_FALSE(sess.is_initialized(p));
  // while an assign initializes (tf.assign needs no initialized value)
  sess.run(tf::group(tf::assign(p, fill)), tf::feed(fill, twos));
  CHECK(sess.is_initialized(p));
  // a sum: no 4 MB value on the stack
  CHECK(sess.run(tf::reduce_sum(add), tf::feed(fill, zeros)) == 2 * 1024 * 1024);
}
