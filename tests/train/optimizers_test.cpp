// Each optimizer's update checked against a reference computed by hand for a few steps,
// with TensorFlow 1.x's formulas, defaults and slot names.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

namespace {
// loss = sum(w * c) + 0.5 * sum(w^2): the gradient is c + w, known in closed form.
constexpr double c0 = 0.5, c1 = -1.5;

template <class W>
auto quadratic_loss(W w) {
  auto c = tf::constant<"opt_c">(xt::xtensor_fixed<double, xt::xshape<2>>{c0, c1});
  return tf::reduce_sum(w * c) + tf::constant<0.5>() * tf::reduce_sum(tf::square(w));
}
std::array<double, 2> gradient_at(const std::array<double, 2>& w) { return {c0 + w[0], c1 + w[1]}; }
}  // namespace

TEST_CASE("gradient_descent: w -= lr * g") {
  auto w = tf::variable<"gd_w", double, tf::shape<2>>(tf::init::constant(1.0));
  auto train_op = tf::train::gradient_descent<"GD_test">(0.1).minimize(quadratic_loss(w));
  tf::session sess(train_op);
  sess.initialize_all();
  std::array<double, 2> ref{1.0, 1.0};
  for (int step = 0; step < 3; ++step) {
    sess.run(train_op);
    const auto g = gradient_at(ref);
    for (int i = 0; i < 2; ++i) ref[i] -= 0.1 * g[i];
  }
  const auto got = sess.run(w);
  CHECK(got(0) == doctest::Approx(ref[0]).epsilon(1e-12));
  CHECK(got(1) == doctest::Approx(ref[1]).epsilon(1e-12));
}

TEST_CASE("momentum: accumulation slot 'w/Momentum', plain and Nesterov") {
  for (bool nesterov : {false, true}) {
    auto w = tf::variable<"mom_w", double, tf::shape<2>>(tf::init::constant(1.0));
    auto run_with = [&](auto opt) {
      auto train_op = opt.minimize(quadratic_loss(w));
      tf::session sess(train_op);
      sess.initialize_all();
      std::array<double, 2> ref{1.0, 1.0}, acc{0.0, 0.0};
      for (int step = 0; step < 4; ++step) {
        sess.run(train_op);
        const auto g = gradient_at(ref);
        for (int i = 0; i < 2; ++i) {
          acc[i] = 0.9 * acc[i] + g[i];
          ref[i] -= nesterov ? 0.05 * (g[i] + 0.9 * acc[i]) : 0.05 * acc[i];
        }
      }
      const auto got = sess.run(w);
      const auto slot = sess.run(tf::train::slot<0>(opt, w));
      for (int i = 0; i < 2; ++i) {
        CHECK(got(i) == doctest::Approx(ref[i]).epsilon(1e-12));
        CHECK(slot(i) == doctest::Approx(acc[i]).epsilon(1e-12));
      }
      CHECK(decltype(tf::train::slot<0>(opt, w))::name.view() == (nesterov ? "mom_w/Nesterov" : "mom_w/Momentum"));
    };
    if (nesterov) {
      run_with(tf::train::momentum<"Nesterov">(0.05, 0.9, true));
    } else {
      run_with(tf::train::momentum(0.05, 0.9));
    }
  }
}

TEST_CASE("adam: bias-corrected steps, slots 'w/Adam' and 'w/Adam_1', beta1_power and beta2_power") {
  auto w = tf::variable<"adam_w", double, tf::shape<2>>(tf::init::constant(1.0));
  auto opt = tf::train::adam(0.01);
  auto train_op = opt.minimize(quadratic_loss(w));
  tf::session sess(train_op);
  sess.initialize_all();
  std::array<double, 2> ref{1.0, 1.0}, m{0, 0}, v{0, 0};
  double b1p = 0.9, b2p = 0.999;
  for (int step = 0; step < 5; ++step) {
    sess.run(train_op);
    const auto g = gradient_at(ref);
    const double lr_t = 0.01 * std::sqrt(1 - b2p) / (1 - b1p);
    for (int i = 0; i < 2; ++i) {
      m[i] = 0.9 * m[i] + 0.1 * g[i];
      v[i] = 0.999 * v[i] + 0.001 * g[i] * g[i];
      ref[i] -= lr_t * m[i] / (std::sqrt(v[i]) + 1e-8);
    }
    b1p *= 0.9;
    b2p *= 0.999;
  }
  const auto got = sess.run(w);
  auto m_slot = tf::train::slot<0>(opt, w);
  auto v_slot = tf::train::slot<1>(opt, w);
  static_assert(decltype(m_slot)::name == tf::fixed_string("adam_w/Adam"));
  static_assert(decltype(v_slot)::name == tf::fixed_string("adam_w/Adam_1"));
  const auto ms = sess.run(m_slot);
  const auto vs = sess.run(v_slot);
  for (int i = 0; i < 2; ++i) {
    CHECK(got(i) == doctest::Approx(ref[i]).epsilon(1e-12));
    CHECK(ms(i) == doctest::Approx(m[i]).epsilon(1e-12));
    CHECK(vs(i) == doctest::Approx(v[i]).epsilon(1e-12));
  }
  auto beta1_power = tf::train::non_slot<0>(opt, w);
  auto beta2_power = tf::train::non_slot<1>(opt, w);
  static_assert(decltype(beta1_power)::name == tf::fixed_string("beta1_power"));
  static_assert(decltype(beta2_power)::name == tf::fixed_string("beta2_power"));
  CHECK(sess.run(beta1_power) == doctest::Approx(b1p).epsilon(1e-12));
  CHECK(sess.run(beta2_power) == doctest::Approx(b2p).epsilon(1e-12));
}

TEST_CASE("rmsprop: mean square slot starts at ones ('w/RMSProp'), momentum slot 'w/RMSProp_1'") {
  auto w = tf::variable<"rms_w", double, tf::shape<2>>(tf::init::constant(1.0));
  auto opt = tf::train::rmsprop(0.01, 0.9, 0.5);
  auto train_op = opt.minimize(quadratic_loss(w));
  tf::session sess(train_op);
  sess.initialize_all();
  CHECK(sess.run(tf::train::slot<0>(opt, w)) == xt::xtensor_fixed<double, xt::xshape<2>>{1, 1});
  std::array<double, 2> ref{1.0, 1.0}, ms{1, 1}, mom{0, 0};
  for (int step = 0; step < 4; ++step) {
    sess.run(train_op);
    const auto g = gradient_at(ref);
    for (int i = 0; i < 2; ++i) {
      ms[i] = 0.9 * ms[i] + 0.1 * g[i] * g[i];
      mom[i] = 0.5 * mom[i] + 0.01 * g[i] / std::sqrt(ms[i] + 1e-10);
      ref[i] -= mom[i];
    }
  }
  const auto got = sess.run(w);
  static_assert(decltype(tf::train::slot<1>(opt, w))::name == tf::fixed_string("rms_w/RMSProp_1"));
  for (int i = 0; i < 2; ++i) CHECK(got(i) == doctest::Approx(ref[i]).epsilon(1e-12));
}

TEST_CASE("adagrad: accumulator 'w/Adagrad' starts at 0.1") {
  auto w = tf::variable<"ada_w", double, tf::shape<2>>(tf::init::constant(1.0));
  auto opt = tf::train::adagrad(0.1);
  auto train_op = opt.minimize(quadratic_loss(w));
  tf::session sess(train_op);
  sess.initialize_all();
  std::array<double, 2> ref{1.0, 1.0}, acc{0.1, 0.1};
  for (int step = 0; step < 4; ++step) {
    sess.run(train_op);
    const auto g = gradient_at(ref);
    for (int i = 0; i < 2; ++i) {
      acc[i] += g[i] * g[i];
      ref[i] -= 0.1 * g[i] / std::sqrt(acc[i]);
    }
  }
  const auto got = sess.run(w);
  static_assert(decltype(tf::train::slot<0>(opt, w))::name == tf::fixed_string("ada_w/Adagrad"));
  for (int i = 0; i < 2; ++i) CHECK(got(i) == doctest::Approx(ref[i]).epsilon(1e-12));
  CHECK(sess.run(tf::train::slot<0>(opt, w))(0) == doctest::Approx(acc[0]).epsilon(1e-12));
}

TEST_CASE("minimize with var_list updates only those; global_step counts applies") {
  auto a = tf::variable<"vl_a", double>(tf::init::constant(1.0));
  auto b = tf::variable<"vl_b", double>(tf::init::constant(1.0));
  auto loss = tf::square(a) + tf::square(b);
  auto step = tf::train::global_step();
  auto train_op = tf::train::gradient_descent<"GD_varlist">(0.25).minimize(loss, tf::train::var_list(a), step);
  tf::session sess(train_op, loss);  // the update alone does not reach b
  sess.initialize_all();
  sess.run(train_op);
  sess.run(train_op);
  CHECK(sess.run(a) == doctest::Approx(0.25));  // 1 - 0.25*2 = 0.5, then 0.5 - 0.25 = 0.25
  CHECK(sess.run(b) == 1.0);
  CHECK(sess.run(step) == 2);
}

TEST_CASE("compute_gradients / apply_gradients with clipping in between") {
  auto w = tf::variable<"clip_w", double, tf::shape<2>>(tf::init::constant(0.0));
  auto target = tf::constant<"clip_target">(xt::xtensor_fixed<double, xt::xshape<2>>{30, 40});
  auto loss = tf::constant<0.5>() * tf::reduce_sum(tf::square(w - target));
  auto opt = tf::train::gradient_descent<"GD_clip">(1.0);
  auto [pair] = opt.compute_gradients(loss);
  auto [clipped, norm] = tf::clip_by_global_norm(std::make_tuple(pair.gradient_node), tf::constant<5.0>());
  auto [g] = clipped;
  auto train_op = opt.apply_gradients(tf::train::grad_and_var(g, w));
  tf::session sess(train_op);
  sess.initialize_all();
  CHECK(sess.run(norm) == doctest::Approx(50.0));  // |w - target| = |(-30, -40)|
  sess.run(train_op);
  const auto got = sess.run(w);
  CHECK(got(0) == doctest::Approx(3.0));  // the gradient (-30, -40) clipped to norm 5, negated
  CHECK(got(1) == doctest::Approx(4.0));
}

TEST_CASE("an optimizer's hyperparameters travel with its update node: two learning rates, two sessions") {
  // Nothing is program-wide: one model, two optimizers of one name with other learning
  // rates, each session holding the value of the update node it was given.
  auto w = tf::variable<"hyper_w", double, tf::shape<2>>(tf::init::constant(1.0));
  auto slow = tf::train::gradient_descent<"GD_defined">(0.5).minimize(quadratic_loss(w));
  auto fast = tf::train::gradient_descent<"GD_defined">(0.25).minimize(quadratic_loss(w));
  static_assert(std::is_same_v<decltype(slow), decltype(fast)>);  // one graph, two definitions
  tf::session a(slow), b(fast);
  a.initialize_all();
  b.initialize_all();
  a.run(slow);
  b.run(fast);
  const auto g = gradient_at({1.0, 1.0});
  CHECK(a.run(w)(0) == doctest::Approx(1.0 - 0.5 * g[0]));
  CHECK(b.run(w)(0) == doctest::Approx(1.0 - 0.25 * g[0]));
  // Both definitions in one graph are a conflict, named.
  CHECK_THROWS_WITH_AS(tf::group(slow, fast),
                       "AlreadyExists: Constant GD_defined/learning_rate is defined twice in one graph, with "
                       "different values; a node's name identifies it: build it once and use that node",
                       tf::already_exists_error);
}

TEST_CASE("get_slot and get_slot_names: TensorFlow's slot names for each optimizer") {
  auto w = tf::variable<"slots_w", double, tf::shape<2>>(tf::init::zeros());
  auto adam = tf::train::adam(0.01);
  static_assert(std::is_same_v<decltype(tf::train::get_slot<"m">(adam, w)), decltype(tf::train::slot<0>(adam, w))>);
  static_assert(std::is_same_v<decltype(tf::train::get_slot<"v">(adam, w)), decltype(tf::train::slot<1>(adam, w))>);
  CHECK(tf::train::get_slot_names(adam) == std::vector<std::string>{"m", "v"});
  auto momentum = tf::train::momentum(0.1, 0.9);
  static_assert(decltype(tf::train::get_slot<"momentum">(momentum, w))::name == tf::fixed_string("slots_w/Momentum"));
  CHECK(tf::train::get_slot_names(momentum) == std::vector<std::string>{"momentum"});
  auto adagrad = tf::train::adagrad(0.1);
  static_assert(decltype(tf::train::get_slot<"accumulator">(adagrad, w))::name == tf::fixed_string("slots_w/Adagrad"));
  CHECK(tf::train::get_slot_names(adagrad) == std::vector<std::string>{"accumulator"});
  auto rmsprop = tf::train::rmsprop(0.1);
  static_assert(decltype(tf::train::get_slot<"rms">(rmsprop, w))::name == tf::fixed_string("slots_w/RMSProp"));
  static_assert(decltype(tf::train::get_slot<"momentum">(rmsprop, w))::name == tf::fixed_string("slots_w/RMSProp_1"));
  CHECK(tf::train::get_slot_names(rmsprop) == std::vector<std::string>{"momentum", "rms"});
  CHECK_FALSE(tf::train::has_slot<"mg">(rmsprop));
  auto centered = tf::train::rmsprop(0.1, 0.9, 0.0, 1e-10, tf::train::centered);
  static_assert(tf::train::has_slot<"mg">(centered));
  static_assert(decltype(tf::train::get_slot<"mg">(centered, w))::name == tf::fixed_string("slots_w/RMSProp_1"));
  static_assert(decltype(tf::train::get_slot<"momentum">(centered, w))::name == tf::fixed_string("slots_w/RMSProp_2"));
  CHECK(tf::train::get_slot_names(centered) == std::vector<std::string>{"mg", "momentum", "rms"});
  CHECK(tf::train::get_slot_names(tf::train::gradient_descent(0.1)).empty());
}
