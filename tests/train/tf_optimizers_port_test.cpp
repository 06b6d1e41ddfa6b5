// TensorFlow 1.x's optimizer tests, ported: tensorflow/python/training/gradient_descent_test.py,
// momentum_test.py, adam_test.py and adagrad_test.py. Each TEST_CASE names the test it ports
// and keeps its sizes, initial values, hyperparameters, number of steps and expected values
// (TF's literals, or its numpy reference re-implemented here in the variable's type, as numpy
// computes it), float32 and float64 as TF's loops over dtypes, with TF's tolerance
// (assertAllClose[AccordingToType]: rtol = atol = 1e-6 for both) or, where the reference is
// computed in float64, 1e-12.
//
// How TF's constructs are written here: tf.Variable([1.0, 2.0]) is a variable whose value is
// set in the session after initialization; IndexedSlices(values, indices) is the gradient of
// reduce_sum(embedding_lookup(var, indices) * values), whose rows are the values exactly;
// "ResourceVariable" tests are ported with typeflow's one kind of variable.
//
// Ported elsewhere:
//   GradientDescentOptimizerTest.testSparseBasic  tests/train/sparse_update_test.cpp (float32)
//   AdagradOptimizerTest.testSparseBasic          tests/train/sparse_update_test.cpp (float32)
//   (sparse_update_test.cpp also has a float64, two-step variant of Adagrad's
//   testSparseRepeatedIndices; the full port is here.)
//
// Not ported:
//   dtypes.half in every test       typeflow has no float16 element type
//   GD testBasicResourceVariable    the same as testBasic with a resource variable: one kind of variable
//   Momentum testResourceBasic, Adam testResourceBasic and testResourceSparse, Adagrad
//     testBasicResource             the same again: resource vs ref variables
//   testBasicCallableParams (GD, Momentum, Adam, Adagrad)  eager mode, callable hyperparameters
//                                   (scalar nodes are the typeflow form: the TensorLearningRate cases)
//   Adam testSlotsUniqueEager       eager mode
//   Adagrad testBasicLocked         use_locking: a session's runs do not race on its variables
//   Adagrad testDynamicShapeVariableWithCallableInit  dynamic-shape variables (validate_shape=False)
//   Adam testSparseDevicePlacement  device placement: only the int32/int64 gather it builds is ported
//   embedding_lookup([var0], ids)   a list of partitioned tables: the one table var0 instead
//
// float32 only, to keep the file's compile time moderate (each float64 instantiation is one
// more session to compile): the three testSharing, Adam's testSparseRepeatedIndices and
// Adagrad's testSparseRepeatedIndicesResourceVariable, whose float64 kernels the other float64
// cases run. testVariablesAcrossGraphs, testMinimizeWith2DIndicesForEmbeddingLookup,
// testLikeDistBeliefMom01, testSparseDevicePlacement and testTwoSessions use one dtype in TF.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace mp = boost::mp11;

namespace {

template <class T>
using vec2 = xt::xtensor_fixed<T, xt::xshape<2>>;
template <class T>
using col2 = xt::xtensor_fixed<T, xt::xshape<2, 1>>;
using ids1 = xt::xtensor_fixed<std::int32_t, xt::xshape<1>>;
using ids2 = xt::xtensor_fixed<std::int32_t, xt::xshape<2>>;

// assertAllClose[AccordingToType]'s tolerance, float32 and float64 alike.
constexpr double tf_tol = 1e-6;
// Where the reference is computed in T: TF's for float32, tighter for float64.
template <class T>
constexpr double tight = std::is_same_v<T, float> ? 1e-6 : 1e-12;

// numpy.allclose element by element (doctest::Approx with its default scale of 1 is
// |a - e| < tol (1 + max(|a|, |e|)): TF's rtol = atol = tol).
void check_close(const std::vector<double>& actual, const std::vector<double>& expected, double tol) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(tol));
  }
}
template <class T>
void check_close(const std::vector<double>& actual, const std::vector<T>& expected, double tol) {
  check_close(actual, std::vector<double>(expected.begin(), expected.end()), tol);
}

template <class V>
std::vector<double> as_doubles(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return {static_cast<double>(v)};
  } else {
    return std::vector<double>(v.begin(), v.end());
  }
}
// The values of nodes, as doubles, fetched in one run: a test fetches the same set of nodes at
// each of its checks, so that its session compiles one run plan for them, not one per node.
template <class S, class... N>
std::array<std::vector<double>, sizeof...(N)> fetch_values(S& sess, const N&... nodes) {
  if constexpr (sizeof...(N) == 1) {
    return {as_doubles(sess.run(nodes...))};
  } else {
    const auto values = sess.run(tf::fetch(nodes...));
    return std::apply(
        [](const auto&... v) { return std::array<std::vector<double>, sizeof...(N)>{as_doubles(v)...}; }, values);
  }
}

// tf.Variable([...]): the session's value of v, after initialization.
template <class S, class V>
void set_value(S& sess, V, const std::vector<double>& values) {
  auto& value = sess.template slot<V>().value;
  REQUIRE(value.size() == values.size());
  for (std::size_t i = 0; i < values.size(); ++i) value.data()[i] = static_cast<tf::value_type_of<V>>(values[i]);
}

// momentum_test.py's _update_nesterov_momentum_numpy, in T (numpy keeps float32 arrays float32).
template <class T>
void update_nesterov_momentum_numpy(std::vector<T>& var, std::vector<T>& accum, const std::vector<T>& g, T lr,
                                    T momentum) {
  for (std::size_t i = 0; i < var.size(); ++i) {
    var[i] = var[i] + accum[i] * lr * momentum;
    accum[i] = accum[i] * momentum + g[i];
    var[i] = var[i] - lr * accum[i];
    var[i] = var[i] - accum[i] * lr * momentum;
  }
}

// adam_test.py's adam_update_numpy, in T; t counts from 1.
template <class T>
void adam_update_numpy(std::vector<T>& param, const std::vector<T>& g, int t, std::vector<T>& m, std::vector<T>& v,
                       double alpha = 0.001, double beta1 = 0.9, double beta2 = 0.999, double epsilon = 1e-8) {
  const T alpha_t = static_cast<T>(alpha * std::sqrt(1 - std::pow(beta2, t)) / (1 - std::pow(beta1, t)));
  for (std::size_t i = 0; i < param.size(); ++i) {
    m[i] = static_cast<T>(beta1) * m[i] + static_cast<T>(1 - beta1) * g[i];
    v[i] = static_cast<T>(beta2) * v[i] + static_cast<T>(1 - beta2) * g[i] * g[i];
    param[i] = param[i] - alpha_t * m[i] / (std::sqrt(v[i]) + static_cast<T>(epsilon));
  }
}

// The gradients most of TF's tests apply: [0.1, 0.1] to var0 = [1, 2], [0.01, 0.01] to var1 = [3, 4].
template <class T>
auto grads0() {
  return tf::constant<"grads0">(vec2<T>{0.1, 0.1});
}
template <class T>
auto grads1() {
  return tf::constant<"grads1">(vec2<T>{0.01, 0.01});
}
template <class T>
auto var0() {
  return tf::variable<"var0", T, tf::shape<2>>(tf::init::zeros());
}
template <class T>
auto var1() {
  return tf::variable<"var1", T, tf::shape<2>>(tf::init::zeros());
}
}  // namespace


// =============================================================================================
// gradient_descent_test.py
// =============================================================================================

namespace {
// The checks of var0 and var1 most tests make.
template <class S, class V0, class V1>
void check_vars(S& sess, V0 v0, V1 v1, const std::vector<double>& expected0, const std::vector<double>& expected1,
                double tol) {
  const auto [got0, got1] = fetch_values(sess, v0, v1);
  check_close(got0, expected0, tol);
  check_close(got1, expected1, tol);
}
}  // namespace

TEST_CASE_TEMPLATE("GradientDescentOptimizerTest.testBasic (gradient_descent_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto optimizer = tf::train::gradient_descent(3.0);
  auto sgd_op = optimizer.apply_gradients(
      tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  // assertEqual(0, len(optimizer.variables())): no slot, no non-slot variable.
  using def = typename decltype(optimizer)::definition;
  static_assert(mp::mp_empty<typename def::template slots<decltype(v0)>>::value);
  static_assert(mp::mp_empty<typename def::template non_slots<decltype(v0)>>::value);
  CHECK(tf::train::get_slot_names(optimizer).empty());
  tf::session sess(sgd_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_vars(sess, v0, v1, {1.0, 2.0}, {3.0, 4.0}, tf_tol);
  sess.run(sgd_op);
  check_vars(sess, v0, v1, {1.0 - 3.0 * 0.1, 2.0 - 3.0 * 0.1}, {3.0 - 3.0 * 0.01, 4.0 - 3.0 * 0.01}, tight<T>);
}

TEST_CASE_TEMPLATE("GradientDescentOptimizerTest.testMinimizeResourceVariable (gradient_descent_test.py)", T, float,
                   double) {
  // var0's gradient is a matmul: gradient descent applies it as one gemm.
  auto v0 = tf::variable<"var0", T, tf::shape<1, 2>>(tf::init::zeros());
  auto v1 = tf::variable<"var1", T, tf::shape<1>>(tf::init::zeros());
  auto x = tf::constant<"x">(col2<T>{{4.0}, {5.0}});
  auto pred = tf::matmul(v0, x) + v1;
  auto loss = pred * pred;
  auto sgd_op = tf::train::gradient_descent(1.0).minimize(loss);
  tf::session sess(sgd_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0});
  check_vars(sess, v0, v1, {1.0, 2.0}, {3.0}, tf_tol);
  sess.run(sgd_op);
  const double np_pred = 1.0 * 4.0 + 2.0 * 5.0 + 3.0;
  const double np_grad = 2 * np_pred;
  check_vars(sess, v0, v1, {1.0 - np_grad * 4.0, 2.0 - np_grad * 5.0}, {3.0 - np_grad}, tight<T>);
}

TEST_CASE_TEMPLATE("GradientDescentOptimizerTest.testMinimizeSparseResourceVariable (gradient_descent_test.py)", T,
                   float, double) {
  auto v0 = tf::variable<"var0", T, tf::shape<1, 2>>(tf::init::zeros());
  auto v1 = tf::variable<"var1", T, tf::shape<1>>(tf::init::zeros());
  auto x = tf::constant<"x">(col2<T>{{4.0}, {5.0}});
  auto pred = tf::matmul(tf::embedding_lookup(v0, tf::constant<"ids">(ids1{0})), x) + v1;
  auto loss = pred * pred;
  auto optimizer = tf::train::gradient_descent(1.0);
  static_assert(tf::indexed_slices<decltype(std::get<0>(optimizer.compute_gradients(loss)).gradient_node)>);
  auto sgd_op = optimizer.minimize(loss);
  tf::session sess(sgd_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0});
  check_vars(sess, v0, v1, {1.0, 2.0}, {3.0}, tf_tol);
  sess.run(sgd_op);
  const double np_pred = 1.0 * 4.0 + 2.0 * 5.0 + 3.0;
  const double np_grad = 2 * np_pred;
  check_vars(sess, v0, v1, {1.0 - np_grad * 4.0, 2.0 - np_grad * 5.0}, {3.0 - np_grad}, tight<T>);
}

TEST_CASE_TEMPLATE("GradientDescentOptimizerTest.testTensorLearningRate (gradient_descent_test.py)", T, float,
                   double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto lrate = tf::constant<3.0f>();  // constant_op.constant(3.0): float32
  auto sgd_op = tf::train::gradient_descent(lrate).apply_gradients(
      tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  tf::session sess(sgd_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_vars(sess, v0, v1, {1.0, 2.0}, {3.0, 4.0}, tf_tol);
  sess.run(sgd_op);
  check_vars(sess, v0, v1, {1.0 - 3.0 * 0.1, 2.0 - 3.0 * 0.1}, {3.0 - 3.0 * 0.01, 4.0 - 3.0 * 0.01}, tight<T>);
}

TEST_CASE_TEMPLATE("GradientDescentOptimizerTest.testGradWrtRef (gradient_descent_test.py)", T, float, double) {
  // compute_gradients(var0 + var1, [var0, var1]): each gradient is [1.0].
  auto opt = tf::train::gradient_descent(3.0);
  auto a = tf::variable<"var0", T, tf::shape<1>>(tf::init::constant(1.0));
  auto b = tf::variable<"var1", T, tf::shape<1>>(tf::init::constant(3.0));
  auto grads_and_vars = opt.compute_gradients(a + b, tf::train::var_list(a, b));
  auto g0 = std::get<0>(grads_and_vars).gradient_node;
  auto g1 = std::get<1>(grads_and_vars).gradient_node;
  tf::session sess(g0, g1);
  sess.initialize_all();
  check_vars(sess, g0, g1, {1.0}, {1.0}, tf_tol);
}

TEST_CASE_TEMPLATE("GradientDescentOptimizerTest.testWithGlobalStep (gradient_descent_test.py)", T, float, double) {
  auto global_step = tf::train::global_step();  // int64 here, int32 in the test
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto sgd_op = tf::train::gradient_descent(3.0).apply_gradients(
      tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)), global_step);
  tf::session sess(sgd_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  auto check = [&](const std::vector<double>& expected0, const std::vector<double>& expected1, std::int64_t step,
                   double tol) {
    const auto [got0, got1, got_step] = fetch_values(sess, v0, v1, global_step);
    check_close(got0, expected0, tol);
    check_close(got1, expected1, tol);
    CHECK(got_step == std::vector<double>{static_cast<double>(step)});
  };
  check({1.0, 2.0}, {3.0, 4.0}, 0, tf_tol);
  sess.run(sgd_op);
  check({1.0 - 3.0 * 0.1, 2.0 - 3.0 * 0.1}, {3.0 - 3.0 * 0.01, 4.0 - 3.0 * 0.01}, 1, tight<T>);
}

// =============================================================================================
// momentum_test.py
// =============================================================================================

namespace {
// testBasic, testTensorLearningRateAndMomentum and testSharing: two steps of lr 2.0, momentum
// 0.9 (run_step(1), run_step(2)), checking the variables and their slots.
template <class S, class Slot0, class Slot1, class V0, class V1, class RunStep>
void check_two_momentum_steps(S& sess, Slot0 slot0, Slot1 slot1, V0 v0, V1 v1, double tol, RunStep run_step) {
  auto check = [&](const std::vector<double>& s0, const std::vector<double>& s1, const std::vector<double>& e0,
                   const std::vector<double>& e1, double t) {
    const auto [got_slot0, got_slot1, got0, got1] = fetch_values(sess, slot0, slot1, v0, v1);
    check_close(got_slot0, s0, t);
    check_close(got_slot1, s1, t);
    check_close(got0, e0, t);
    check_close(got1, e1, t);
  };
  check({0, 0}, {0, 0}, {1.0, 2.0}, {3.0, 4.0}, tf_tol);
  // Step 1: the momentum accumulators were 0, so a normal update: v -= grad * learning_rate.
  run_step(1);
  check({0.1, 0.1}, {0.01, 0.01}, {1.0 - (0.1 * 2.0), 2.0 - (0.1 * 2.0)}, {3.0 - (0.01 * 2.0), 4.0 - (0.01 * 2.0)},
        tol);
  // Step 2: the momentum accumulators contain the previous update.
  run_step(2);
  check({(0.9 * 0.1 + 0.1), (0.9 * 0.1 + 0.1)}, {(0.9 * 0.01 + 0.01), (0.9 * 0.01 + 0.01)},
        {1.0 - (0.1 * 2.0) - ((0.9 * 0.1 + 0.1) * 2.0), 2.0 - (0.1 * 2.0) - ((0.9 * 0.1 + 0.1) * 2.0)},
        {2.98 - ((0.9 * 0.01 + 0.01) * 2.0), 3.98 - ((0.9 * 0.01 + 0.01) * 2.0)}, tol);
}
}  // namespace

TEST_CASE_TEMPLATE("MomentumOptimizerTest.testBasic (momentum_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto mom_opt = tf::train::momentum(2.0, 0.9);
  auto mom_update = mom_opt.apply_gradients(
      tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  // Check we have slots: one per variable, of its shape and type, named as TF names them.
  auto slot0 = tf::train::get_slot<"momentum">(mom_opt, v0);
  auto slot1 = tf::train::get_slot<"momentum">(mom_opt, v1);
  CHECK(tf::train::get_slot_names(mom_opt) == std::vector<std::string>{"momentum"});
  static_assert(mp::mp_size<typename decltype(mom_opt)::template slots<decltype(v0)>>::value == 1);
  static_assert(decltype(slot0)::name == tf::fixed_string("var0/Momentum"));
  static_assert(decltype(slot1)::name == tf::fixed_string("var1/Momentum"));
  static_assert(std::is_same_v<tf::shape_of<decltype(slot0)>, tf::shape_of<decltype(v0)>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(slot1)>, T>);
  tf::session sess(mom_update);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_two_momentum_steps(sess, slot0, slot1, v0, v1, tight<T>, [&](int) { sess.run(mom_update); });
}

TEST_CASE("MomentumOptimizerTest.testVariablesAcrossGraphs (momentum_test.py)") {
  // One optimizer object, two graphs: each graph's optimizer variables are its own
  // variables' slots ("var0/...", "var1/..."; then "var2/...", "var3/...").
  auto optimizer = tf::train::momentum(0.01, 0.5);
  auto a = tf::variable<"var0", float, tf::shape<2>>(tf::init::constant(1.0));
  auto b = tf::variable<"var1", float, tf::shape<2>>(tf::init::constant(3.0));
  using slot_a = decltype(tf::train::get_slot<"momentum">(optimizer, a));
  using slot_b = decltype(tf::train::get_slot<"momentum">(optimizer, b));
  static_assert(slot_a::name == tf::fixed_string("var0/Momentum") && slot_b::name == tf::fixed_string("var1/Momentum"));
  {
    auto update = optimizer.minimize(tf::reduce_sum(a + b));
    tf::session sess(update);
    using S = decltype(sess);
    static_assert(S::template holds<slot_a> && S::template holds<slot_b>);
    sess.initialize_all();
    sess.run(update);
    check_close(fetch_values(sess, a)[0], {0.99, 0.99}, tf_tol);
  }
  {
    auto c = tf::variable<"var2", float, tf::shape<2>>(tf::init::constant(1.0));
    auto d = tf::variable<"var3", float, tf::shape<2>>(tf::init::constant(3.0));
    auto update = optimizer.minimize(tf::reduce_sum(c + d));
    tf::session sess(update);
    using S = decltype(sess);
    using slot_c = decltype(tf::train::get_slot<"momentum">(optimizer, c));
    using slot_d = decltype(tf::train::get_slot<"momentum">(optimizer, d));
    static_assert(slot_c::name == tf::fixed_string("var2/Momentum") && slot_d::name == tf::fixed_string("var3/Momentum"));
    static_assert(S::template holds<slot_c> && S::template holds<slot_d>);
    static_assert(!S::template holds<slot_a> && !S::template holds<slot_b>);
    sess.initialize_all();
    sess.run(update);
    check_close(fetch_values(sess, d)[0], {2.99, 2.99}, tf_tol);
  }
}

TEST_CASE_TEMPLATE("MomentumOptimizerTest.testNesterovMomentum (momentum_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  std::vector<T> var0_np{1.0, 2.0}, var1_np{3.0, 4.0}, accum0_np{0.0, 0.0}, accum1_np{0.0, 0.0};
  auto cost = tf::constant<T(5)>() * v0 * v0 + tf::constant<T(3)>() * v1;
  auto global_step = tf::train::global_step();
  auto mom_op = tf::train::momentum(2.0, 0.9, /*use_nesterov=*/true);
  auto opt_op = mom_op.minimize(cost, tf::train::var_list(v0, v1), global_step);
  tf::session sess(opt_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  for (int t = 1; t < 5; ++t) {
    CAPTURE(t);
    sess.run(opt_op);
    const std::vector<T> g0{var0_np[0] * T(10), var0_np[1] * T(10)};
    update_nesterov_momentum_numpy(var0_np, accum0_np, g0, T(2.0), T(0.9));
    update_nesterov_momentum_numpy(var1_np, accum1_np, std::vector<T>{3, 3}, T(2.0), T(0.9));
    const auto [got0, got1, step] = fetch_values(sess, v0, v1, global_step);
    check_close(got0, var0_np, tight<T>);
    check_close(got1, var1_np, tight<T>);
    CHECK(step[0] == t);
  }
}

TEST_CASE_TEMPLATE("MomentumOptimizerTest.testSparseNesterovMomentum (momentum_test.py)", T, float, double) {
  std::vector<T> var0_np{1.0, 2.0}, var1_np{3.0, 4.0}, accum0_np{0.0, 0.0}, accum1_np{0.0, 0.0};
  std::vector<std::vector<T>> grads;
  for (int t = 1; t < 5; ++t) {
    grads.push_back({var0_np[0] * T(10), var0_np[1] * T(10)});
    update_nesterov_momentum_numpy(var0_np, accum0_np, grads.back(), T(2.0), T(0.9));
    update_nesterov_momentum_numpy(var1_np, accum1_np, std::vector<T>{3, 3}, T(2.0), T(0.9));
  }
  var0_np = {1.0, 2.0};
  var1_np = {3.0, 4.0};
  accum0_np = {0.0, 0.0};
  accum1_np = {0.0, 0.0};
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto mom_op = tf::train::momentum(2.0, 0.9, /*use_nesterov=*/true);
  // IndexedSlices(x_feed, [0, 1], [2]): the gradient of an embedding lookup of ids [0, 1].
  auto x_feed = tf::placeholder<"x_feed", T, tf::shape<2>>();
  auto y_feed = tf::gradient(tf::reduce_sum(tf::embedding_lookup(v0, tf::constant<"ids">(ids2{0, 1})) * x_feed), v0);
  static_assert(tf::indexed_slices<decltype(y_feed)>);
  auto opt_update = mom_op.apply_gradients(tf::train::grad_and_var(y_feed, v0),
                                           tf::train::grad_and_var(tf::constant<"grads1">(vec2<T>{3.0, 3.0}), v1));
  tf::session sess(opt_update);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  for (int t = 1; t < 5; ++t) {
    CAPTURE(t);
    const auto& g = grads[static_cast<std::size_t>(t - 1)];
    sess.run(opt_update, tf::feed(x_feed, vec2<T>{g[0], g[1]}));
    const std::vector<T> g0{var0_np[0] * T(10), var0_np[1] * T(10)};
    update_nesterov_momentum_numpy(var0_np, accum0_np, g0, T(2.0), T(0.9));
    update_nesterov_momentum_numpy(var1_np, accum1_np, std::vector<T>{3, 3}, T(2.0), T(0.9));
    check_vars(sess, v0, v1, std::vector<double>(var0_np.begin(), var0_np.end()),
               std::vector<double>(var1_np.begin(), var1_np.end()), tight<T>);
  }
}

TEST_CASE_TEMPLATE("MomentumOptimizerTest.testMinimizeSparseResourceVariable (momentum_test.py)", T, float, double) {
  auto v0 = tf::variable<"var0", T, tf::shape<1, 2>>(tf::init::zeros());
  auto x = tf::constant<"x">(col2<T>{{4.0}, {5.0}});
  auto pred = tf::matmul(tf::embedding_lookup(v0, tf::constant<"ids">(ids1{0})), x);
  auto loss = pred * pred;
  auto opt = tf::train::momentum(1.0, 0.0);
  static_assert(tf::indexed_slices<decltype(std::get<0>(opt.compute_gradients(loss)).gradient_node)>);
  auto sgd_op = opt.minimize(loss);
  tf::session sess(sgd_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  check_close(fetch_values(sess, v0)[0], {1.0, 2.0}, tf_tol);
  sess.run(sgd_op);
  check_close(fetch_values(sess, v0)[0], {-111, -138}, tight<T>);
}

TEST_CASE("MomentumOptimizerTest.testMinimizeWith2DIndicesForEmbeddingLookup (momentum_test.py)") {
  auto v0 = tf::variable<"var0", float, tf::shape<2, 2>>(tf::init::ones());
  auto ids = tf::constant<"ids">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 1>>{{1}});
  auto loss = tf::reduce_sum(tf::embedding_lookup(v0, ids));
  auto sgd_op = tf::train::momentum(1.0, 0.0).minimize(loss);
  tf::session sess(sgd_op);
  sess.initialize_all();
  sess.run(sgd_op);
  check_close(fetch_values(sess, v0)[0], {1, 1, 0, 0}, tf_tol);
}

TEST_CASE_TEMPLATE("MomentumOptimizerTest.testTensorLearningRateAndMomentum (momentum_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  // constant_op.constant(2.0) and constant_op.constant(0.9): float32, cast to the variable's
  // type (0.9f as a double is 0.8999999762: TF's tolerance, not a tighter one).
  auto mom_opt = tf::train::momentum(tf::constant<2.0f>(), tf::constant<0.9f>());
  auto mom_update = mom_opt.apply_gradients(
      tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  auto slot0 = tf::train::get_slot<"momentum">(mom_opt, v0);
  auto slot1 = tf::train::get_slot<"momentum">(mom_opt, v1);
  CHECK(tf::train::get_slot_names(mom_opt) == std::vector<std::string>{"momentum"});
  static_assert(std::is_same_v<tf::shape_of<decltype(slot0)>, tf::shape_of<decltype(v0)>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(slot1)>, tf::shape_of<decltype(v1)>>);
  tf::session sess(mom_update);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_two_momentum_steps(sess, slot0, slot1, v0, v1, tf_tol, [&](int) { sess.run(mom_update); });
}

TEST_CASE("MomentumOptimizerTest.testLikeDistBeliefMom01 (momentum_test.py)") {
  // _dbParamsMom01: ten steps of lr 0.1, momentum 0.1 from zeros, gradients fed.
  using row = xt::xtensor_fixed<float, xt::xshape<10>>;
  const std::array<row, 10> db_grad{
      row{0.00096264342f, 0.17914793f, 0.93945462f, 0.41396621f, 0.53037018f, 0.93197989f, 0.78648776f, 0.50036013f,
          0.55345792f, 0.96722615f},
      row{0.17075552f, 0.88821375f, 0.20873757f, 0.25236958f, 0.57578111f, 0.15312378f, 0.5513742f, 0.94687688f,
          0.16012503f, 0.22159521f},
      row{0.35077485f, 0.47304362f, 0.44412705f, 0.44368884f, 0.078527533f, 0.81223965f, 0.31168157f, 0.43203235f,
          0.16792089f, 0.24644311f},
      row{0.9694621f, 0.75035888f, 0.28171822f, 0.83813518f, 0.53807181f, 0.3728098f, 0.81454384f, 0.03848977f,
          0.89759839f, 0.93665648f},
      row{0.38578293f, 0.8536852f, 0.88722926f, 0.66276771f, 0.13678469f, 0.94036359f, 0.69107032f, 0.81897682f,
          0.5433259f, 0.67860287f},
      row{0.27885768f, 0.76100707f, 0.24625534f, 0.81354135f, 0.18959245f, 0.48038563f, 0.84163809f, 0.41172323f,
          0.83259648f, 0.44941229f},
      row{0.27233034f, 0.056316052f, 0.5039115f, 0.24105175f, 0.35697976f, 0.75913221f, 0.73577434f, 0.16014607f,
          0.57500273f, 0.071136251f},
      row{0.58697265f, 0.2494842f, 0.08106143f, 0.39954534f, 0.15892942f, 0.12683646f, 0.74053431f, 0.16033f,
          0.66625422f, 0.73515922f},
      row{0.8215279f, 0.41994119f, 0.95172721f, 0.68000203f, 0.79439718f, 0.43384039f, 0.55561525f, 0.22567581f,
          0.93331909f, 0.29438227f},
      row{0.68297005f, 0.67758518f, 0.1748755f, 0.13266537f, 0.70697063f, 0.055731893f, 0.68593478f, 0.50580865f,
          0.12602448f, 0.093537711f},
  };
  const std::array<std::vector<double>, 10> db_out{{
      {-9.6264346e-05, -0.017914793, -0.093945466, -0.041396622, -0.053037018, -0.093197994, -0.078648776,
       -0.050036013, -0.055345792, -0.096722618},
      {-0.017181443, -0.10852765, -0.12421377, -0.070773244, -0.11591884, -0.11783017, -0.14165108, -0.14972731,
       -0.076892875, -0.1285544},
      {-0.053967446, -0.1648933, -0.1716533, -0.1180798, -0.13005978, -0.20151734, -0.17911947, -0.20289968,
       -0.095839672, -0.15638189},
      {-0.15459226, -0.24556576, -0.20456907, -0.20662397, -0.18528105, -0.24716705, -0.2643207, -0.21206589,
       -0.18749419, -0.2528303},
      {-0.20323303, -0.33900154, -0.29658359, -0.28175515, -0.20448165, -0.34576839, -0.34194785, -0.29488021,
       -0.25099224, -0.33033544},
      {-0.23598288, -0.42444581, -0.33041057, -0.3706224, -0.22536094, -0.40366709, -0.43387437, -0.34433398,
       -0.34060168, -0.38302717},
      {-0.26649091, -0.43862185, -0.38418442, -0.40361428, -0.26314685, -0.48537019, -0.51664448, -0.36529395,
       -0.40706289, -0.39540997},
      {-0.32823896, -0.46498787, -0.39766794, -0.446868, -0.28281838, -0.50622416, -0.59897494, -0.38342294,
       -0.48033443, -0.47016418},
      {-0.41656655, -0.50961858, -0.49418902, -0.51919359, -0.36422527, -0.55169362, -0.6627695, -0.40780342,
       -0.58099347, -0.50707781},
      {-0.49369633, -0.58184016, -0.52132869, -0.5396927, -0.44306302, -0.56181377, -0.73774242, -0.46082234,
       -0.60366184, -0.52012295},
  }};
  auto v0 = tf::variable<"var0", float, tf::shape<10>>(tf::init::zeros());
  auto g0 = tf::placeholder<"grads0", float, tf::shape<10>>();
  auto mom_update = tf::train::momentum(0.1, 0.1).apply_gradients(tf::train::grad_and_var(g0, v0));
  tf::session sess(mom_update);
  sess.initialize_all();
  for (std::size_t i = 0; i < db_grad.size(); ++i) {
    CAPTURE(i);
    sess.run(mom_update, tf::feed(g0, db_grad[i]));
    check_close(fetch_values(sess, v0)[0], db_out[i], tf_tol);
  }
}

TEST_CASE_TEMPLATE("MomentumOptimizerTest.testSparse (momentum_test.py)", T, float, double) {
  // grads0 = IndexedSlices([[.1, .1]], [1], [4, 2]); grads1 = IndexedSlices([[.01, .01],
  // [.01, .01]], [2, 3], [4, 2]): the gradients of lookups of those rows, weighted so.
  auto v0 = tf::variable<"var0", T, tf::shape<4, 2>>(tf::init::zeros());
  auto v1 = tf::variable<"var1", T, tf::shape<4, 2>>(tf::init::constant(1.0));
  auto c0 = tf::constant<"grads0">(xt::xtensor_fixed<T, xt::xshape<1, 2>>{{0.1, 0.1}});
  auto c1 = tf::constant<"grads1">(xt::xtensor_fixed<T, xt::xshape<2, 2>>{{0.01, 0.01}, {0.01, 0.01}});
  auto loss = tf::reduce_sum(tf::embedding_lookup(v0, tf::constant<"ids0">(ids1{1})) * c0) +
              tf::reduce_sum(tf::embedding_lookup(v1, tf::constant<"ids1">(ids2{2, 3})) * c1);
  auto mom_opt = tf::train::momentum(2.0, 0.9);
  auto pairs = mom_opt.compute_gradients(loss);
  static_assert(tf::indexed_slices<decltype(std::get<0>(pairs).gradient_node)> &&
                tf::indexed_slices<decltype(std::get<1>(pairs).gradient_node)>);
  auto mom_update = mom_opt.apply_gradients(pairs);
  auto slot0 = tf::train::get_slot<"momentum">(mom_opt, v0);
  auto slot1 = tf::train::get_slot<"momentum">(mom_opt, v1);
  CHECK(tf::train::get_slot_names(mom_opt) == std::vector<std::string>{"momentum"});
  static_assert(std::is_same_v<tf::shape_of<decltype(slot0)>, tf::shape<4, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(slot1)>, tf::shape<4, 2>>);
  tf::session sess(mom_update);
  sess.initialize_all();
  // Row r of a fetched [4, 2] value.
  auto row = [](const std::vector<double>& all, std::size_t r) { return std::vector<double>{all[2 * r], all[2 * r + 1]}; };
  // Fetch params to validate initial values.
  {
    const auto [got_slot0, got_slot1, got0, got1] = fetch_values(sess, slot0, slot1, v0, v1);
    check_close(row(got0, 0), {0, 0}, tf_tol);
    check_close(row(got0, 1), {0, 0}, tf_tol);
    check_close(row(got1, 2), {1, 1}, tf_tol);
  }
  // Step 1: the momentum accumulators are 0, so a normal update: v -= grad * learning_rate.
  sess.run(mom_update);
  {
    const auto [got_slot0, got_slot1, got0, got1] = fetch_values(sess, slot0, slot1, v0, v1);
    check_close(row(got_slot0, 0), {0, 0}, tight<T>);
    check_close(row(got_slot0, 1), {.1, .1}, tight<T>);
    check_close(row(got_slot1, 2), {.01, .01}, tight<T>);
    check_close(row(got0, 0), {0, 0}, tight<T>);
    check_close(row(got0, 1), {-(0.1 * 2.0), -(0.1 * 2.0)}, tight<T>);
    check_close(row(got1, 2), {1.0 - (0.01 * 2.0), 1.0 - (0.01 * 2.0)}, tight<T>);
  }
  // Step 2: the momentum accumulators contain the previous update.
  sess.run(mom_update);
  {
    const auto [got_slot0, got_slot1, got0, got1] = fetch_values(sess, slot0, slot1, v0, v1);
    check_close(row(got_slot0, 0), {0, 0}, tight<T>);
    check_close(row(got_slot0, 1), {(0.9 * 0.1 + 0.1), (0.9 * 0.1 + 0.1)}, tight<T>);
    check_close(row(got_slot1, 2), {(0.9 * 0.01 + 0.01), (0.9 * 0.01 + 0.01)}, tight<T>);
    check_close(row(got0, 0), {0, 0}, tight<T>);
    check_close(row(got0, 1), {-(0.1 * 2.0) - ((0.9 * 0.1 + 0.1) * 2.0), -(0.1 * 2.0) - ((0.9 * 0.1 + 0.1) * 2.0)},
                tight<T>);
    check_close(row(got1, 2), {0.98 - ((0.9 * 0.01 + 0.01) * 2.0), 0.98 - ((0.9 * 0.01 + 0.01) * 2.0)}, tight<T>);
  }
}

TEST_CASE_TEMPLATE("MomentumOptimizerTest.testSharing (momentum_test.py)", T, float) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto mom_opt = tf::train::momentum(2.0, 0.9);
  auto mom_update1 = mom_opt.apply_gradients(
      tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  // The same call again is the same node here (a node's type is its identity); the second
  // update lists the pairs in the other order: another update node, the same slots.
  static_assert(std::is_same_v<decltype(mom_update1), decltype(mom_opt.apply_gradients(tf::train::zip(
                                                          std::make_tuple(grads0<T>(), grads1<T>()),
                                                          std::make_tuple(v0, v1))))>);
  auto mom_update2 =
      mom_opt.apply_gradients(tf::train::grad_and_var(grads1<T>(), v1), tf::train::grad_and_var(grads0<T>(), v0));
  static_assert(!std::is_same_v<decltype(mom_update1), decltype(mom_update2)>);
  auto slot0 = tf::train::get_slot<"momentum">(mom_opt, v0);
  auto slot1 = tf::train::get_slot<"momentum">(mom_opt, v1);
  CHECK(tf::train::get_slot_names(mom_opt) == std::vector<std::string>{"momentum"});
  tf::session sess(mom_update1, mom_update2);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  // Step 1 by the first update, step 2 by the second, whose accumulators contain step 1's.
  check_two_momentum_steps(sess, slot0, slot1, v0, v1, tight<T>, [&](int step) {
    if (step == 1) {
      sess.run(mom_update1);
    } else {
      sess.run(mom_update2);
    }
  });
}

// =============================================================================================
// adam_test.py
// =============================================================================================

namespace {
// Three steps of Adam (run_step(t), t = 1, 2, 3) on var0 = [1, 2], var1 = [3, 4] with
// gradients [0.1, 0.1] and [0.01, 0.01] against adam_update_numpy; before step t,
// beta1_power and beta2_power are 0.9^t and 0.999^t.
template <class T, class S, class Opt, class V0, class V1, class RunStep>
void check_three_adam_steps(S& sess, const Opt& opt, V0 v0, V1 v1, double tol, RunStep run_step) {
  std::vector<T> var0_np{1.0, 2.0}, grads0_np{0.1, 0.1}, var1_np{3.0, 4.0}, grads1_np{0.01, 0.01};
  std::vector<T> m0(2), s0(2), m1(2), s1(2);
  auto beta1_power = tf::train::non_slot<0>(opt, v0);
  auto beta2_power = tf::train::non_slot<1>(opt, v0);
  for (int t = 1; t < 5; ++t) {
    CAPTURE(t);
    const auto [got0, got1, b1p, b2p] = fetch_values(sess, v0, v1, beta1_power, beta2_power);
    check_close(got0, var0_np, tol);
    check_close(got1, var1_np, tol);
    check_close(b1p, {std::pow(0.9, t)}, tf_tol);
    check_close(b2p, {std::pow(0.999, t)}, tf_tol);
    if (t == 4) break;
    run_step(t);
    adam_update_numpy(var0_np, grads0_np, t, m0, s0);
    adam_update_numpy(var1_np, grads1_np, t, m1, s1);
  }
}
}  // namespace

TEST_CASE_TEMPLATE("AdamOptimizerTest.testSparse (adam_test.py)", T, float, double) {
  // IndexedSlices(grads_np, [0, 1], [2]) for each variable: lookups of rows 0 and 1.
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto ids = tf::constant<"ids">(ids2{0, 1});
  auto loss = tf::reduce_sum(tf::embedding_lookup(v0, ids) * grads0<T>()) +
              tf::reduce_sum(tf::embedding_lookup(v1, ids) * grads1<T>());
  auto opt = tf::train::adam();
  auto pairs = opt.compute_gradients(loss);
  static_assert(tf::indexed_slices<decltype(std::get<0>(pairs).gradient_node)> &&
                tf::indexed_slices<decltype(std::get<1>(pairs).gradient_node)>);
  auto update = opt.apply_gradients(pairs);
  tf::session sess(update);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_three_adam_steps<T>(sess, opt, v0, v1, tight<T>, [&](int) { sess.run(update); });
}

TEST_CASE("AdamOptimizerTest.testSparseDevicePlacement (adam_test.py)") {
  // The gather of int32 and of int64 indices (the device placement itself does not apply);
  // one step of lr 3.0 moves each row by about -3.
  auto run = [](auto indices) {
    auto var = tf::variable<"var", float, tf::shape<2, 1>>(tf::init::zeros());
    auto gathered_sum = tf::reduce_sum(tf::gather(var, indices));
    auto minimize_op = tf::train::adam(3.0).minimize(gathered_sum);
    tf::session sess(minimize_op);
    sess.initialize_all();
    set_value(sess, var, {1.0, 2.0});
    sess.run(minimize_op);
    check_close(fetch_values(sess, var)[0], {1.0 - 3.0, 2.0 - 3.0}, 1e-5);
  };
  run(tf::constant<"indices">(ids2{0, 1}));
  run(tf::constant<"indices">(xt::xtensor_fixed<std::int64_t, xt::xshape<2>>{0, 1}));
}

TEST_CASE_TEMPLATE("AdamOptimizerTest.testSparseRepeatedIndices (adam_test.py)", T, float) {
  // Two AdamOptimizer objects, each with its beta powers: two names here.
  auto repeated_index_update_var = tf::variable<"repeated", T, tf::shape<2, 1>>(tf::init::zeros());
  auto aggregated_update_var = tf::variable<"aggregated", T, tf::shape<2, 1>>(tf::init::zeros());
  // IndexedSlices([0.1, 0.1] as [2, 1], [1, 1]) and IndexedSlices([0.2] as [1, 1], [1]).
  auto repeated_loss =
      tf::reduce_sum(tf::embedding_lookup(repeated_index_update_var, tf::constant<"repeated_ids">(ids2{1, 1})) *
                     tf::constant<"repeated_values">(col2<T>{{0.1}, {0.1}}));
  auto aggregated_loss =
      tf::reduce_sum(tf::embedding_lookup(aggregated_update_var, tf::constant<"aggregated_ids">(ids1{1})) *
                     tf::constant<"aggregated_values">(xt::xtensor_fixed<T, xt::xshape<1, 1>>{{0.2}}));
  auto repeated_update = tf::train::adam<"Adam_repeated">().minimize(repeated_loss);
  auto aggregated_update = tf::train::adam<"Adam_aggregated">().minimize(aggregated_loss);
  tf::session sess(repeated_update, aggregated_update);
  sess.initialize_all();
  set_value(sess, repeated_index_update_var, {1.0, 2.0});
  set_value(sess, aggregated_update_var, {1.0, 2.0});
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    if (step > 0) {
      sess.run(repeated_update);
      sess.run(aggregated_update);
    }
    const auto [repeated, aggregated] = fetch_values(sess, repeated_index_update_var, aggregated_update_var);
    check_close(repeated, aggregated, tf_tol);
    CHECK(aggregated[0] == 1.0);
    CHECK((step == 0 || aggregated[1] < 2.0));
  }
}

TEST_CASE_TEMPLATE("AdamOptimizerTest.testBasic (adam_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto opt = tf::train::adam(0.001);
  auto update = opt.apply_gradients(tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  // The optimizer's variables: its slots ("var0/Adam" is m) and the beta accumulators, of the
  // variables' type.
  auto beta1_power = tf::train::non_slot<0>(opt, v0);
  auto beta2_power = tf::train::non_slot<1>(opt, v0);
  static_assert(decltype(beta1_power)::name == tf::fixed_string("beta1_power"));
  static_assert(decltype(beta2_power)::name == tf::fixed_string("beta2_power"));
  static_assert(std::is_same_v<tf::value_type_of<decltype(beta1_power)>, T>);
  static_assert(decltype(tf::train::get_slot<"m">(opt, v0))::name == tf::fixed_string("var0/Adam"));
  static_assert(decltype(tf::train::get_slot<"v">(opt, v0))::name == tf::fixed_string("var0/Adam_1"));
  tf::session sess(update);
  using S = decltype(sess);
  static_assert(S::template holds<decltype(beta1_power)> && S::template holds<decltype(beta2_power)>);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  // Three steps; after step t, the beta accumulators are 0.9^(t + 1) and 0.999^(t + 1).
  check_three_adam_steps<T>(sess, opt, v0, v1, tight<T>, [&](int) { sess.run(update); });
}

TEST_CASE_TEMPLATE("AdamOptimizerTest.testTensorLearningRate (adam_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  // constant_op.constant(0.001): float32 (its value as a double is not 0.001: TF's tolerance).
  auto opt = tf::train::adam(tf::constant<0.001f>());
  auto update = opt.apply_gradients(tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  tf::session sess(update);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_three_adam_steps<T>(sess, opt, v0, v1, tf_tol, [&](int) { sess.run(update); });
}

TEST_CASE_TEMPLATE("AdamOptimizerTest.testSharing (adam_test.py)", T, float) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto opt = tf::train::adam();
  // Two update nodes over the same slots and beta accumulators (see MomentumOptimizerTest.testSharing).
  auto update1 = opt.apply_gradients(tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  auto update2 = opt.apply_gradients(tf::train::grad_and_var(grads1<T>(), v1), tf::train::grad_and_var(grads0<T>(), v0));
  static_assert(!std::is_same_v<decltype(update1), decltype(update2)>);
  tf::session sess(update1, update2);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  // Three steps of intertwined Adam1 and Adam2.
  check_three_adam_steps<T>(sess, opt, v0, v1, tight<T>, [&](int t) {
    if (t % 2 == 0) {
      sess.run(update1);
    } else {
      sess.run(update2);
    }
  });
}

TEST_CASE("AdamOptimizerTest.testTwoSessions (adam_test.py)") {
  // One optimizer object applied in two graphs with sessions of their own: it keeps no state
  // of its own, each session holds its variables and beta accumulators.
  auto optimizer = tf::train::adam();
  auto v0 = tf::variable<"v0", double, tf::shape<2>>(tf::init::zeros());
  auto g0 = tf::constant<"grads0">(vec2<double>{0.1, 0.1});
  auto update_g = optimizer.apply_gradients(tf::train::grad_and_var(g0, v0));
  auto beta1_power = tf::train::non_slot<0>(optimizer, v0);
  tf::session g(update_g);
  g.initialize_all();
  set_value(g, v0, {1.0, 2.0});
  g.run(update_g);
  g.run(update_g);

  auto v0_gg = tf::variable<"v0", double, tf::shape<2>>(tf::init::zeros());
  auto g0_gg = tf::constant<"grads0">(vec2<double>{0.1, 0.1});
  auto update_gg = optimizer.apply_gradients(tf::train::grad_and_var(g0_gg, v0_gg));
  tf::session gg(update_gg);
  gg.initialize_all();
  set_value(gg, v0_gg, {1.0, 2.0});
  gg.run(update_gg);

  std::vector<double> var_np{1.0, 2.0}, m(2), s(2);
  adam_update_numpy(var_np, std::vector<double>{0.1, 0.1}, 1, m, s);
  {
    const auto [got, b1p] = fetch_values(gg, v0_gg, beta1_power);
    check_close(got, var_np, 1e-12);
    check_close(b1p, {0.9 * 0.9}, 1e-12);
  }
  adam_update_numpy(var_np, std::vector<double>{0.1, 0.1}, 2, m, s);
  {
    const auto [got, b1p] = fetch_values(g, v0, beta1_power);
    check_close(got, var_np, 1e-12);
    check_close(b1p, {0.9 * 0.9 * 0.9}, 1e-12);
  }
}

// =============================================================================================
// adagrad_test.py
// =============================================================================================

namespace {
// testBasic, testTensorLearningRate, testSharing: three steps of lr 3.0 from an accumulator of
// 0.1 (run_step(1), ...) leave the variables at TF's float32 values, which TF checks float64
// against with its tolerance.
template <class S, class V0, class V1, class RunStep>
void check_three_adagrad_steps(S& sess, V0 v0, V1 v1, RunStep run_step) {
  check_vars(sess, v0, v1, {1.0, 2.0}, {3.0, 4.0}, tf_tol);
  for (int step = 1; step < 4; ++step) run_step(step);
  check_vars(sess, v0, v1, {-1.6026098728179932, -0.6026098728179932}, {2.715679168701172, 3.715679168701172},
             tf_tol);
}
}  // namespace

TEST_CASE_TEMPLATE("AdagradOptimizerTest.testBasic (adagrad_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto ada_opt = tf::train::adagrad(3.0, 0.1);
  auto ada_update =
      ada_opt.apply_gradients(tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  tf::session sess(ada_update);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_three_adagrad_steps(sess, v0, v1, [&](int) { sess.run(ada_update); });
}

TEST_CASE_TEMPLATE("AdagradOptimizerTest.testMinimizeSparseResourceVariable (adagrad_test.py)", T, float, double) {
  auto v0 = tf::variable<"var0", T, tf::shape<2, 2>>(tf::init::zeros());
  auto x = tf::constant<"x">(col2<T>{{4.0}, {5.0}});
  auto pred = tf::matmul(tf::embedding_lookup(v0, tf::constant<"ids">(ids1{0})), x);
  auto loss = pred * pred;
  auto sgd_op = tf::train::adagrad(1.0).minimize(loss);
  tf::session sess(sgd_op);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0, 3.0, 4.0});
  check_close(fetch_values(sess, v0)[0], {1.0, 2.0, 3.0, 4.0}, tf_tol);
  sess.run(sgd_op);
  // assertAllCloseAccordingToType(..., atol=0.01) (rtol 1e-6).
  const auto got = fetch_values(sess, v0)[0];
  const std::vector<double> expected{0, 1, 3, 4};
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(std::abs(got[i] - expected[i]) <= 0.01 + 1e-6 * std::abs(expected[i]));
  }
}

TEST_CASE_TEMPLATE("AdagradOptimizerTest.testTensorLearningRate (adagrad_test.py)", T, float, double) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto ada_opt = tf::train::adagrad(tf::constant<3.0f>(), 0.1);
  auto ada_update =
      ada_opt.apply_gradients(tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  tf::session sess(ada_update);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  check_three_adagrad_steps(sess, v0, v1, [&](int) { sess.run(ada_update); });
}

TEST_CASE_TEMPLATE("AdagradOptimizerTest.testSparseRepeatedIndices (adagrad_test.py)", T, float, double) {
  auto repeated_index_update_var = tf::variable<"repeated", T, tf::shape<2, 1>>(tf::init::zeros());
  auto aggregated_update_var = tf::variable<"aggregated", T, tf::shape<2, 1>>(tf::init::zeros());
  // IndexedSlices([0.1, 0.1] as [2, 1], [1, 1]) and IndexedSlices([0.2] as [1, 1], [1]).
  auto repeated_loss =
      tf::reduce_sum(tf::embedding_lookup(repeated_index_update_var, tf::constant<"repeated_ids">(ids2{1, 1})) *
                     tf::constant<"repeated_values">(col2<T>{{0.1}, {0.1}}));
  auto aggregated_loss =
      tf::reduce_sum(tf::embedding_lookup(aggregated_update_var, tf::constant<"aggregated_ids">(ids1{1})) *
                     tf::constant<"aggregated_values">(xt::xtensor_fixed<T, xt::xshape<1, 1>>{{0.2}}));
  // AdagradOptimizer(3.0) twice: over other variables, one name serves both.
  auto repeated_update = tf::train::adagrad(3.0).minimize(repeated_loss);
  auto aggregated_update = tf::train::adagrad(3.0).minimize(aggregated_loss);
  tf::session sess(repeated_update, aggregated_update);
  sess.initialize_all();
  set_value(sess, repeated_index_update_var, {1.0, 2.0});
  set_value(sess, aggregated_update_var, {1.0, 2.0});
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    if (step > 0) {
      sess.run(repeated_update);
      sess.run(aggregated_update);
    }
    const auto [repeated, aggregated] = fetch_values(sess, repeated_index_update_var, aggregated_update_var);
    check_close(repeated, aggregated, tf_tol);
    CHECK(aggregated[0] == 1.0);
    CHECK((step == 0 || aggregated[1] < 2.0));
  }
}

TEST_CASE_TEMPLATE(
    "AdagradOptimizerTest.testSparseRepeatedIndicesResourceVariable (adagrad_test.py; Keras's "
    "testSparseRepeatedIndicesByEmbeddingLookUp)",
    T, float) {
  auto var_repeated = tf::variable<"var_repeated", T, tf::shape<2>>(tf::init::zeros());
  auto loss_repeated = tf::reduce_sum(tf::embedding_lookup(var_repeated, tf::constant<"ids_repeated">(ids2{0, 0})));
  auto var_aggregated = tf::variable<"var_aggregated", T, tf::shape<2>>(tf::init::zeros());
  auto loss_aggregated = tf::constant<T(2)>() *
                         tf::reduce_sum(tf::embedding_lookup(var_aggregated, tf::constant<"ids_aggregated">(ids1{0})));
  auto update_op_repeated = tf::train::adagrad(2.0).minimize(loss_repeated);
  auto update_op_aggregated = tf::train::adagrad(2.0).minimize(loss_aggregated);
  tf::session sess(update_op_repeated, update_op_aggregated);
  sess.initialize_all();
  set_value(sess, var_repeated, {1.0, 2.0});
  set_value(sess, var_aggregated, {1.0, 2.0});
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    if (step > 0) {
      sess.run(update_op_repeated);
      sess.run(update_op_aggregated);
    }
    const auto [repeated, aggregated] = fetch_values(sess, var_repeated, var_aggregated);
    check_close(repeated, aggregated, tf_tol);
    CHECK((step == 0 || repeated[0] < 1.0));
    CHECK(repeated[1] == 2.0);
  }
}

TEST_CASE_TEMPLATE("AdagradOptimizerTest.testSparseStability (adagrad_test.py)", T, float, double) {
  auto v0 = tf::variable<"var0", T, tf::shape<1, 6>>(tf::init::zeros());
  auto grads = tf::constant<"grads0">(xt::xtensor_fixed<T, xt::xshape<1, 6>>{
      {-5.91278e-05, 5.31673e-05, -2.5779e-06, 4.29153e-05, -8.4877e-05, -9.48906e-05}});
  auto loss = tf::reduce_sum(tf::embedding_lookup(v0, tf::constant<"ids">(ids1{0})) * grads);
  auto ada_opt = tf::train::adagrad(1.0, 0.1);
  auto ada_update = ada_opt.minimize(loss);
  auto slot0 = tf::train::get_slot<"accumulator">(ada_opt, v0);
  CHECK(tf::train::get_slot_names(ada_opt) == std::vector<std::string>{"accumulator"});
  static_assert(decltype(slot0)::name == tf::fixed_string("var0/Adagrad"));
  tf::session sess(ada_update);
  for (int i = 0; i < 100; ++i) {
    CAPTURE(i);
    sess.initialize_all();
    set_value(sess, v0, {0.00872496, -0.106952, 0.110467, 0.226505, -0.0147257, -0.0105945});
    sess.run(ada_update);
    const auto [got_slot, got] = fetch_values(sess, slot0, v0);
    check_close(got_slot, {0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, tf_tol);
    check_close(got, {0.00891194, -0.10712013, 0.11047515, 0.22636929, -0.0144573, -0.01029443}, tf_tol);
  }
}

TEST_CASE_TEMPLATE("AdagradOptimizerTest.testSharing (adagrad_test.py)", T, float) {
  auto v0 = var0<T>();
  auto v1 = var1<T>();
  auto ada_opt = tf::train::adagrad(3.0);
  // Apply the optimizer twice: both applications use the same accumulators (see
  // MomentumOptimizerTest.testSharing for the second update's pair order).
  auto ada_update1 =
      ada_opt.apply_gradients(tf::train::zip(std::make_tuple(grads0<T>(), grads1<T>()), std::make_tuple(v0, v1)));
  auto ada_update2 =
      ada_opt.apply_gradients(tf::train::grad_and_var(grads1<T>(), v1), tf::train::grad_and_var(grads0<T>(), v0));
  auto slot0 = tf::train::get_slot<"accumulator">(ada_opt, v0);
  CHECK(tf::train::get_slot_names(ada_opt) == std::vector<std::string>{"accumulator"});
  auto slot1 = tf::train::get_slot<"accumulator">(ada_opt, v1);
  static_assert(std::is_same_v<tf::shape_of<decltype(slot0)>, tf::shape_of<decltype(v0)>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(slot1)>, tf::shape_of<decltype(v1)>>);
  tf::session sess(ada_update1, ada_update2);
  sess.initialize_all();
  set_value(sess, v0, {1.0, 2.0});
  set_value(sess, v1, {3.0, 4.0});
  // Mix the first and the second adagrad for 3 steps: the same as with only one.
  check_three_adagrad_steps(sess, v0, v1, [&](int step) {
    if (step == 2) {
      sess.run(ada_update2);
    } else {
      sess.run(ada_update1);
    }
  });
}
