// RMSProp, plain and centered, ported from TensorFlow 1.x's rmsprop_test.py
// (tensorflow/python/training/): the same variables, gradients, hyperparameters, steps and
// expected values, float32 as TensorFlow's and float64 besides (TensorFlow's half is not a
// typeflow dtype). Each TEST_CASE names the test it ports.
//
// Not ported: use_resource (typeflow has one kind of variable; the parameter sets that
// differ only by it run once), testCallableParams (eager mode; the learning rate as a node is
// tests/train/optimizers_test.cpp's). TensorFlow's sparse tests update variables of shape [2]
// through IndexedSlices of rows of one element; here the variables are [2, 1] and the
// IndexedSlices come from embedding_lookup, as tests/train/sparse_update_test.cpp's ports.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace train = typeflow::train;

namespace {

// learning_rate, decay, momentum, epsilon, centered: rmsprop_test.py's _TEST_PARAM_VALUES,
// without the sets that differ only by use_resource.
struct params {
  double learning_rate, decay, momentum, epsilon;
  bool centered;
};
constexpr std::array<params, 6> param_values{{
    {0.5, 0.9, 0.0, 1e-3, true},
    {0.5, 0.9, 0.0, 1e-3, false},
    {0.1, 0.9, 0.0, 1e-3, true},
    {0.5, 0.95, 0.0, 1e-3, false},
    {0.5, 0.95, 0.0, 1e-5, true},
    {0.5, 0.95, 0.9, 1e-5, true},
}};

// assertAllCloseAccordingToType: rtol = atol = 1e-6 for float32; 1e-12 here for float64.
template <class T>
constexpr double tolerance = std::is_same_v<T, float> ? 1e-6 : 1e-12;

template <class T, class Got>
void check_close(const Got& got, const std::array<T, 2>& expected) {
  for (std::size_t i = 0; i < 2; ++i) {
    const double g = static_cast<double>(got.data()[i]);
    const double e = static_cast<double>(expected[i]);
    CHECK(std::abs(g - e) <= tolerance<T> + tolerance<T> * std::abs(e));
  }
}

// _rmsprop_update_numpy of one element, in T as numpy computes it in the variable's dtype.
template <class T>
struct reference {
  std::array<T, 2> var, g, mg{0, 0}, rms{1, 1}, mom{0, 0};
  void step(const params& p, const std::array<bool, 2>& touched = {true, true}) {
    const T lr = static_cast<T>(p.learning_rate), decay = static_cast<T>(p.decay),
            momentum = static_cast<T>(p.momentum), epsilon = static_cast<T>(p.epsilon);
    for (std::size_t i = 0; i < 2; ++i) {
      if (!touched[i]) continue;
      rms[i] = rms[i] * decay + (1 - decay) * g[i] * g[i];
      T denom = rms[i] + epsilon;
      if (p.centered) {
        mg[i] = mg[i] * decay + (1 - decay) * g[i];
        denom -= mg[i] * mg[i];
      }
      mom[i] = momentum * mom[i] + lr * g[i] / std::sqrt(denom);
      var[i] = var[i] - mom[i];
    }
  }
};

template <class F>
void with_optimizer(const params& p, F f) {
  if (p.centered) {
    f(train::rmsprop(p.learning_rate, p.decay, p.momentum, p.epsilon, train::centered));
  } else {
    f(train::rmsprop(p.learning_rate, p.decay, p.momentum, p.epsilon));
  }
}

template <class T>
void dense_case(const params& p) {
  using vec = xt::xtensor_fixed<T, xt::xshape<2>>;
  auto var0 = tf::variable<"var0", T, tf::shape<2>>(tf::init::zeros());
  auto var1 = tf::variable<"var1", T, tf::shape<2>>(tf::init::zeros());
  auto grads0 = tf::constant<"grads0">(vec{T(0.1), T(0.2)});
  auto grads1 = tf::constant<"grads1">(vec{T(0.01), T(0.2)});
  using V0 = decltype(var0);
  using V1 = decltype(var1);
  with_optimizer(p, [&](auto opt) {
    auto update = opt.apply_gradients(train::grad_and_var(grads0, var0), train::grad_and_var(grads1, var1));
    tf::session sess(update);
    sess.initialize_all();
    sess.template slot<V0>().value = vec{1, 2};
    sess.template slot<V1>().value = vec{3, 4};
    CHECK(train::has_slot<"mg">(opt) == p.centered);
    reference<T> r0{{1, 2}, {T(0.1), T(0.2)}}, r1{{3, 4}, {T(0.01), T(0.2)}};
    for (int step = 1; step < 5; ++step) {
      sess.run(update);
      r0.step(p);
      r1.step(p);
      if constexpr (train::has_slot<"mg">(opt)) {
        check_close(sess.run(train::get_slot<"mg">(opt, var0)), r0.mg);
        check_close(sess.run(train::get_slot<"mg">(opt, var1)), r1.mg);
      }
      check_close(sess.run(train::get_slot<"rms">(opt, var0)), r0.rms);
      check_close(sess.run(train::get_slot<"rms">(opt, var1)), r1.rms);
      check_close(sess.run(train::get_slot<"momentum">(opt, var0)), r0.mom);
      check_close(sess.run(train::get_slot<"momentum">(opt, var1)), r1.mom);
      check_close(sess.run(var0), r0.var);
      check_close(sess.run(var1), r1.var);
    }
  });
}

template <class T>
void sparse_case(const params& p) {
  using column = xt::xtensor_fixed<T, xt::xshape<2, 1>>;
  auto var0 = tf::variable<"var0", T, tf::shape<2, 1>>(tf::init::zeros());
  auto var1 = tf::variable<"var1", T, tf::shape<2, 1>>(tf::init::zeros());
  auto i0 = tf::constant<"i0">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{0});
  auto i1 = tf::constant<"i1">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{1});
  // IndexedSlices([0.1], [0]) for var0 and ([0.01], [1]) for var1.
  auto loss = tf::reduce_sum(tf::embedding_lookup(var0, i0)) * tf::constant<"g0">(T(0.1)) +
              tf::reduce_sum(tf::embedding_lookup(var1, i1)) * tf::constant<"g1">(T(0.01));
  using V0 = decltype(var0);
  using V1 = decltype(var1);
  with_optimizer(p, [&](auto opt) {
    auto pairs = opt.compute_gradients(loss);
    static_assert(tf::indexed_slices<decltype(std::get<0>(pairs).gradient_node)>);
    auto update = opt.apply_gradients(pairs);
    tf::session sess(update);
    sess.initialize_all();
    sess.template slot<V0>().value = column{{1}, {2}};
    sess.template slot<V1>().value = column{{3}, {4}};
    reference<T> r0{{1, 2}, {T(0.1), 0}}, r1{{3, 4}, {0, T(0.01)}};
    for (int step = 1; step < 5; ++step) {
      sess.run(update);
      r0.step(p, {true, false});
      r1.step(p, {false, true});
      if constexpr (train::has_slot<"mg">(opt)) {
        check_close(sess.run(train::get_slot<"mg">(opt, var0)), r0.mg);
        check_close(sess.run(train::get_slot<"mg">(opt, var1)), r1.mg);
      }
      check_close(sess.run(train::get_slot<"rms">(opt, var0)), r0.rms);
      check_close(sess.run(train::get_slot<"rms">(opt, var1)), r1.rms);
      check_close(sess.run(train::get_slot<"momentum">(opt, var0)), r0.mom);
      check_close(sess.run(train::get_slot<"momentum">(opt, var1)), r1.mom);
      check_close(sess.run(var0), r0.var);
      check_close(sess.run(var1), r1.var);
    }
  });
}

// pred = matmul(embedding_lookup([var0], [0]), [[4], [5]]), loss = pred * pred: the
// gradient of var0 = [[1, 2]] is 2 * 14 * [4, 5] = [112, 140].
template <class T, class Opt>
xt::xtensor_fixed<T, xt::xshape<1, 2>> minimize_sparse(Opt opt) {
  auto var0 = tf::variable<"var0", T, tf::shape<1, 2>>(tf::init::zeros());
  auto x = tf::constant<"x">(xt::xtensor_fixed<T, xt::xshape<2, 1>>{{4}, {5}});
  auto ids = tf::constant<"ids">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{0});
  auto pred = tf::matmul(tf::embedding_lookup(var0, ids), x);
  auto sgd_op = opt.minimize(pred * pred);
  tf::session sess(sgd_op);
  sess.initialize_all();
  sess.template slot<decltype(var0)>().value = xt::xtensor_fixed<T, xt::xshape<1, 2>>{{1, 2}};
  CHECK(sess.run(var0) == xt::xtensor_fixed<T, xt::xshape<1, 2>>{{1, 2}});
  sess.run(sgd_op);
  return sess.run(var0);
}

}  // namespace

TEST_CASE("RMSPropOptimizerTest.testDense (rmsprop_test.py): every parameter set, float32 and float64") {
  for (const params& p : param_values) {
    CAPTURE(p.learning_rate);
    CAPTURE(p.decay);
    CAPTURE(p.momentum);
    CAPTURE(p.epsilon);
    CAPTURE(p.centered);
    dense_case<float>(p);
    dense_case<double>(p);
  }
}

TEST_CASE("RMSPropOptimizerTest.testSparse (rmsprop_test.py): every parameter set, float32 and float64") {
  for (const params& p : param_values) {
    CAPTURE(p.learning_rate);
    CAPTURE(p.centered);
    sparse_case<float>(p);
    sparse_case<double>(p);
  }
}

TEST_CASE("RMSPropOptimizerTest.testMinimizeSparseResourceVariable (rmsprop_test.py)") {
  const auto f = minimize_sparse<float>(train::rmsprop(1.0, 0.0, 0.0, 0.0));
  CHECK(std::abs(f(0, 0) - 0.0f) <= 0.01f);
  CHECK(std::abs(f(0, 1) - 1.0f) <= 0.01f);
  const auto d = minimize_sparse<double>(train::rmsprop(1.0, 0.0, 0.0, 0.0));
  CHECK(std::abs(d(0, 0) - 0.0) <= 0.01);
  CHECK(std::abs(d(0, 1) - 1.0) <= 0.01);
}

TEST_CASE("RMSPropOptimizerTest.testMinimizeSparseResourceVariableCentered (rmsprop_test.py)") {
  // decay 0: ms = g^2 and mg = g, so the denominator is sqrt(epsilon) = 1 and the step is
  // the whole gradient.
  const auto f = minimize_sparse<float>(train::rmsprop(1.0, 0.0, 0.0, 1.0, train::centered));
  CHECK(std::abs(f(0, 0) - -111.0f) <= 0.01f);
  CHECK(std::abs(f(0, 1) - -138.0f) <= 0.01f);
  const auto d = minimize_sparse<double>(train::rmsprop(1.0, 0.0, 0.0, 1.0, train::centered));
  CHECK(std::abs(d(0, 0) - -111.0) <= 0.01);
  CHECK(std::abs(d(0, 1) - -138.0) <= 0.01);
}

namespace {
// testWithoutMomentum and testWithMomentum: grads [0.1, 0.1] and [0.01, 0.01], lr 2, decay
// 0.9, two steps checked against TensorFlow's literal expressions.
template <class Opt>
void two_steps(Opt opt, double momentum, double epsilon) {
  using vec = xt::xtensor_fixed<float, xt::xshape<2>>;
  auto var0 = tf::variable<"var0", float, tf::shape<2>>(tf::init::zeros());
  auto var1 = tf::variable<"var1", float, tf::shape<2>>(tf::init::zeros());
  auto grads0 = tf::constant<"grads0">(vec{0.1f, 0.1f});
  auto grads1 = tf::constant<"grads1">(vec{0.01f, 0.01f});
  auto update = opt.apply_gradients(train::grad_and_var(grads0, var0), train::grad_and_var(grads1, var1));
  tf::session sess(update);
  sess.initialize_all();
  sess.template slot<decltype(var0)>().value = vec{1, 2};
  sess.template slot<decltype(var1)>().value = vec{3, 4};
  const auto close = [](const vec& got, double e0, double e1) {
    CHECK(std::abs(got(0) - e0) <= 1e-6 + 1e-6 * std::abs(e0));
    CHECK(std::abs(got(1) - e1) <= 1e-6 + 1e-6 * std::abs(e1));
  };
  close(sess.run(var0), 1.0, 2.0);
  close(sess.run(var1), 3.0, 4.0);

  sess.run(update);
  close(sess.run(train::slot<0>(opt, var0)), 0.901, 0.901);
  close(sess.run(train::slot<0>(opt, var1)), 0.90001, 0.90001);
  const double m0 = 0.1 * 2.0 / std::sqrt(0.901 + epsilon), m1 = 0.01 * 2.0 / std::sqrt(0.90001 + epsilon);
  if (momentum != 0) {
    close(sess.run(train::slot<1>(opt, var0)), m0, m0);
    close(sess.run(train::slot<1>(opt, var1)), m1, m1);
  }
  close(sess.run(var0), 1.0 - m0, 2.0 - m0);
  close(sess.run(var1), 3.0 - m1, 4.0 - m1);

  sess.run(update);
  close(sess.run(train::slot<0>(opt, var0)), 0.901 * 0.9 + 0.001, 0.901 * 0.9 + 0.001);
  close(sess.run(train::slot<0>(opt, var1)), 0.90001 * 0.9 + 1e-5, 0.90001 * 0.9 + 1e-5);
  const double n0 = momentum * m0 + 0.1 * 2.0 / std::sqrt(0.901 * 0.9 + 0.001 + epsilon);
  const double n1 = momentum * m1 + 0.01 * 2.0 / std::sqrt(0.90001 * 0.9 + 1e-5 + epsilon);
  if (momentum != 0) {
    close(sess.run(train::slot<1>(opt, var0)), n0, n0);
    close(sess.run(train::slot<1>(opt, var1)), n1, n1);
  }
  close(sess.run(var0), 1.0 - m0 - n0, 2.0 - m0 - n0);
  close(sess.run(var1), 3.0 - m1 - n1, 4.0 - m1 - n1);
}
}  // namespace

TEST_CASE("RMSPropOptimizerTest.testWithoutMomentum (rmsprop_test.py)") {
  two_steps(train::rmsprop(2.0, 0.9, 0.0, 1.0), 0.0, 1.0);
}

TEST_CASE("RMSPropOptimizerTest.testWithMomentum (rmsprop_test.py)") {
  two_steps(train::rmsprop(2.0, 0.9, 0.5, 1e-5), 0.5, 1e-5);
}

TEST_CASE("centered RMSProp's slots are named as TensorFlow names them: rms, mg, momentum") {
  auto w = tf::variable<"w", float, tf::shape<2>>(tf::init::zeros());
  auto plain = train::rmsprop(0.1);
  auto centered = train::rmsprop(0.1, 0.9, 0.0, 1e-10, train::centered);
  static_assert(decltype(train::slot<0>(plain, w))::name == tf::fixed_string("w/RMSProp"));
  static_assert(decltype(train::slot<1>(plain, w))::name == tf::fixed_string("w/RMSProp_1"));
  static_assert(decltype(train::slot<0>(centered, w))::name == tf::fixed_string("w/RMSProp"));
  static_assert(decltype(train::slot<1>(centered, w))::name == tf::fixed_string("w/RMSProp_1"));
  static_assert(decltype(train::slot<2>(centered, w))::name == tf::fixed_string("w/RMSProp_2"));
  // rms starts at ones, mg and the momentum at zeros.
  auto update = centered.apply_gradients(
      train::grad_and_var(tf::constant<"g">(xt::xtensor_fixed<float, xt::xshape<2>>{1, 1}), w));
  tf::session sess(update);
  sess.initialize_all();
  CHECK(sess.run(train::slot<0>(centered, w)) == xt::xtensor_fixed<float, xt::xshape<2>>{1, 1});
  CHECK(sess.run(train::slot<1>(centered, w)) == xt::xtensor_fixed<float, xt::xshape<2>>{0, 0});
  CHECK(sess.run(train::slot<2>(centered, w)) == xt::xtensor_fixed<float, xt::xshape<2>>{0, 0});
}
