// TensorFlow's moving_averages_test.py (ExponentialMovingAverageTest), ported: averages of
// variables and of tensors, num_updates, control dependencies, names and
// variables_to_restore with a non-trainable variable. Each TEST_CASE names its source.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/moving_average.hpp>
#include <typeflow/train/saver.hpp>

namespace tf = typeflow;
namespace train = typeflow::train;

namespace {
// _CheckDecay: var0 = 10s, var1 = 30s, tensor2 = var0 + var1; averages of all three.
template <std::size_t Dim, class Ema>
void check_decay(const Ema& ema, double dk) {
  using S = tf::shape<std::ptrdiff_t(Dim)>;
  auto var0 = tf::variable<"v0", double, S>(tf::init::constant(10.0));
  auto var1 = tf::variable<"v1", double, S>(tf::init::constant(30.0));
  auto tensor2 = var0 + var1;  // not a variable: a plain tensor
  auto update = ema.apply(var0, var1, tensor2);
  auto avg0 = ema.average(var0);
  auto avg1 = ema.average(var1);
  auto avg2 = ema.average(tensor2);
  static_assert(decltype(avg0)::name == tf::fixed_string("v0/ExponentialMovingAverage"));
  static_assert(decltype(avg1)::name == tf::fixed_string("v1/ExponentialMovingAverage"));
  static_assert(decltype(avg2)::name == tf::fixed_string("add/ExponentialMovingAverage"));
  tf::session sess(update);
  sess.initialize_all();
  auto all = [&](auto node, double expected) {
    const auto v = sess.run(node);
    for (std::size_t i = 0; i < Dim; ++i) CHECK(v(i) == doctest::Approx(expected).epsilon(1e-6));
  };
  all(var0, 10.0);
  all(var1, 30.0);
  all(tensor2, 40.0);
  all(avg0, 10.0);  // a variable's average starts at its initial value
  all(avg1, 30.0);
  all(avg2, 0.0);   // a tensor's at zeros: its op has not run yet

  sess.run(update);
  all(avg0, 10.0 * dk + 10.0 * (1 - dk));
  all(avg1, 30.0 * dk + 30.0 * (1 - dk));
  all(avg2, 0.0 * dk + 40.0 * (1 - dk));

  sess.run(update);
  all(avg0, (10.0 * dk + 10.0 * (1 - dk)) * dk + 10.0 * (1 - dk));
  all(avg1, (30.0 * dk + 30.0 * (1 - dk)) * dk + 30.0 * (1 - dk));
  all(avg2, (0.0 * dk + 40.0 * (1 - dk)) * dk + 40.0 * (1 - dk));
}
}  // namespace

TEST_CASE("testAverageVariablesNoNumUpdates_Scalar and _Vector") {
  check_decay<1>(train::exponential_moving_average(0.25), 0.25);
  check_decay<5>(train::exponential_moving_average(0.25), 0.25);
}

TEST_CASE("testAverageVariablesNumUpdates_Scalar and _Vector: with num_updates 1 the decay is 2/11") {
  auto one = tf::constant<1>();
  check_decay<1>(train::exponential_moving_average(0.25, one), 2.0 / 11.0);
  check_decay<5>(train::exponential_moving_average(0.25, one), 2.0 / 11.0);
}

TEST_CASE("testAverageVariablesWithControlDeps: the dependency runs with the update") {
  auto v0 = tf::variable<"cd/v0", std::int32_t, tf::shape<>, tf::init::zeros()>();
  auto add_to_v0 = tf::assign_add(v0, tf::constant<1>());
  auto v1 = tf::variable<"cd/v1", float, tf::shape<1>>(tf::init::constant(10.0));
  auto assign_to_v1 = tf::assign(v1, tf::constant<"cd/twenty">(xt::xtensor_fixed<float, xt::xshape<1>>{20}));
  auto ema = train::exponential_moving_average(0.25);
  auto ema_op = tf::control_dependencies(add_to_v0)(ema.apply(v1));
  auto v1_avg = ema.average(v1);
  tf::session sess(ema_op, assign_to_v1);
  // The average can be initialized before v0: its initializer depends on v1's only.
  sess.initialize<decltype(v1_avg)>();
  sess.initialize<decltype(v0)>();
  CHECK(sess.run(v1_avg)(0) == 10.0f);
  sess.initialize<decltype(v1)>();
  sess.run(assign_to_v1);
  sess.run(ema_op);
  CHECK(sess.run(v0) == 1);  // running ema_op added to v0
  CHECK(sess.run(v1_avg)(0) == 17.5f);
}

namespace {
template <class... E>
std::vector<std::string> keys_of(train::saver_var_map<E...>) {
  std::vector<std::string> keys{std::string(E::key.view())...};
  std::sort(keys.begin(), keys.end());
  return keys;
}
}  // namespace

TEST_CASE("testAverageVariablesNames: names, and variables_to_restore with a non-trainable variable") {
  auto v0 = tf::variable<"names/v0", double>(tf::init::constant(10.0));
  auto v1 = tf::variable<"names/v1", double>(tf::init::constant(30.0));
  auto v2 = tf::variable<"names/v2", std::int64_t>(tf::init::constant(20.0));  // not averaged
  auto tensor2 = v0 + v1;
  auto ema = train::exponential_moving_average<"foo_avg">(0.25);
  CHECK(ema.average_name(v0) == "names/v0/foo_avg");
  CHECK(ema.average_name(v1) == "names/v1/foo_avg");
  CHECK(ema.average_name(tensor2) == "add/foo_avg");
  auto update = ema.apply(v0, v1, tensor2);
  CHECK(std::string(decltype(ema.average(v0))::name.view()) == ema.average_name(v0));
  CHECK(std::string(decltype(ema.average(tensor2))::name.view()) == ema.average_name(tensor2));
  tf::session sess(tf::group(update, v2));
  // {v0/foo_avg: v0, v1/foo_avg: v1, add/foo_avg: add/foo_avg, v2: v2}
  CHECK(keys_of(ema.variables_to_restore(sess)) ==
        std::vector<std::string>{"add/foo_avg", "names/v0/foo_avg", "names/v1/foo_avg", "names/v2"});
}
