// Variable initializers (ops/init.hpp): zeros, ones and constant exactly; random ones
// reproducible for a seed and different across seeds, with the right statistics on a
// [100, 100] variable; truncated normal within two standard deviations; glorot_uniform's
// limit sqrt(6 / (fan_in + fan_out)); session::set_random_seed for initializers without a seed.
//
// A variable's name, dtype and shape identify it program-wide, with one initializer: each
// test uses its own variable names.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;

namespace {
struct moments {
  double mean = 0, stddev = 0, min = 0, max = 0;
};
template <class Tensor>
moments moments_of(const Tensor& t) {
  moments m;
  double sum = 0, sum_sq = 0;
  m.min = m.max = static_cast<double>(t.flat(0));
  for (auto v : t) {
    const double x = static_cast<double>(v);
    sum += x;
    sum_sq += x * x;
    m.min = std::min(m.min, x);
    m.max = std::max(m.max, x);
  }
  const double n = static_cast<double>(t.size());
  m.mean = sum / n;
  m.stddev = std::sqrt(sum_sq / n - m.mean * m.mean);
  return m;
}
using big = tf::shape<100, 100>;
}  // namespace

TEST_CASE("zeros, ones and constant initialize exactly") {
  auto z = tf::variable<"init_zeros", float, tf::shape<2, 3>>(tf::init::zeros());
  auto o = tf::variable<"init_ones", std::int32_t, tf::shape<4>>(tf::init::ones());
  auto c = tf::variable<"init_const", double, tf::shape<2, 2>>(tf::init::constant(-2.5));
  auto s = tf::variable<"init_scalar", float>(tf::init::constant(0.125));
  auto ci = tf::variable<"init_const_int", std::int64_t, tf::shape<2>>(tf::init::constant(7));
  tf::session sess(z, o, c, s, ci);
  sess.initialize_all();
  check_values(sess.run(z), {2, 3}, {0, 0, 0, 0, 0, 0});
  check_values(sess.run(o), {4}, {1, 1, 1, 1});
  check_values(sess.run(c), {2, 2}, {-2.5, -2.5, -2.5, -2.5}, 0);
  CHECK(sess.run(s) == 0.125f);
  check_values(sess.run(ci), {2}, {7, 7});
}

TEST_CASE("running global_variables_initializer() initializes like initialize_all()") {
  auto w = tf::variable<"init_gvi", float, tf::shape<3, 2>>(tf::init::ones());
  auto b = tf::variable<"init_gvi_b", float, tf::shape<2>>(tf::init::constant(0.5));
  auto y = tf::reduce_sum<0>(w) + b;
  tf::session sess(y);
  CHECK_THROWS_AS(sess.run(y), tf::failed_precondition_error);
  sess.run(tf::global_variables_initializer());
  check_values(sess.run(y), {2}, {3.5, 3.5});
}

TEST_CASE("the default initializer: glorot_uniform for floating types, zeros otherwise") {
  auto f = tf::variable<"init_default_f", float, tf::shape<10, 20>>();
  auto i = tf::variable<"init_default_i", std::int32_t, tf::shape<3>>();
  tf::session sess(f, i);
  sess.initialize_all();
  const double limit = std::sqrt(6.0 / 30.0);
  const auto m = moments_of(sess.run(f));
  CHECK(m.min >= -limit);
  CHECK(m.max <= limit);
  CHECK(m.stddev > 0.0);
  check_values(sess.run(i), {3}, {0, 0, 0});
}

TEST_CASE("random_uniform: reproducible for one seed, different for another, in [lo, hi)") {
  auto a = tf::variable<"init_ru_a", float, big>(tf::init::random_uniform(-1, 3, 1234));
  auto a_same_seed = tf::variable<"init_ru_a2", float, big>(tf::init::random_uniform(-1, 3, 1234));
  auto other_seed = tf::variable<"init_ru_b", float, big>(tf::init::random_uniform(-1, 3, 1235));
  tf::session sess(a, a_same_seed, other_seed);
  sess.initialize_all();
  const auto va = sess.run(a);
  CHECK(va == sess.run(a_same_seed));
  CHECK(va != sess.run(other_seed));
  // Another session initializes the same variable to the same values.
  tf::session again(a);
  again.initialize_all();
  CHECK(again.run(a) == va);
  // Re-initializing in the same session draws the same values again.
  sess.initialize_all();
  CHECK(sess.run(a) == va);

  const auto m = moments_of(va);
  CHECK(m.min >= -1.0);
  CHECK(m.max < 3.0);
  CHECK(m.min < -0.99);
  CHECK(m.max > 2.99);
  CHECK(m.mean == doctest::Approx(1.0).epsilon(0.05));                          // (lo + hi) / 2
  CHECK(m.stddev == doctest::Approx(4.0 / std::sqrt(12.0)).epsilon(0.03));      // (hi - lo) / sqrt(12)
}

TEST_CASE("random_normal: mean and stddev within tolerance, reproducible per seed") {
  auto n = tf::variable<"init_rn", double, big>(tf::init::random_normal(5.0, 2.0, 99));
  auto n_same = tf::variable<"init_rn_same", double, big>(tf::init::random_normal(5.0, 2.0, 99));
  auto n_other = tf::variable<"init_rn_other", double, big>(tf::init::random_normal(5.0, 2.0, 100));
  tf::session sess(n, n_same, n_other);
  sess.run(tf::global_variables_initializer());
  const auto v = sess.run(n);
  CHECK(v == sess.run(n_same));
  CHECK(v != sess.run(n_other));
  const auto m = moments_of(v);
  // 10000 draws: the standard error of the mean is 0.02, of the stddev about 0.014.
  CHECK(std::abs(m.mean - 5.0) < 0.1);
  CHECK(std::abs(m.stddev - 2.0) < 0.07);
  CHECK(m.max - m.min > 2 * 2.0 * 3);  // normal tails reach beyond 3 stddevs on 10000 draws
}

TEST_CASE("truncated_normal: every value within 2 stddevs of the mean") {
  auto t = tf::variable<"init_tn", float, big>(tf::init::truncated_normal(1.0, 0.5, 7));
  auto t_same = tf::variable<"init_tn_same", float, big>(tf::init::truncated_normal(1.0, 0.5, 7));
  auto t_other = tf::variable<"init_tn_other", float, big>(tf::init::truncated_normal(1.0, 0.5, 8));
  tf::session sess(t, t_same, t_other);
  sess.initialize_all();
  const auto v = sess.run(t);
  CHECK(v == sess.run(t_same));
  CHECK(v != sess.run(t_other));
  const auto m = moments_of(v);
  CHECK(m.min >= 1.0 - 2 * 0.5 - 1e-6);
  CHECK(m.max <= 1.0 + 2 * 0.5 + 1e-6);
  CHECK(m.min < 1.0 - 2 * 0.5 + 0.02);  // and it does reach the cut
  CHECK(m.max > 1.0 + 2 * 0.5 - 0.02);
  CHECK(std::abs(m.mean - 1.0) < 0.02);
  // A normal truncated at 2 stddevs has stddev 0.8796 sigma.
  CHECK(m.stddev == doctest::Approx(0.8796 * 0.5).epsilon(0.04));
}

TEST_CASE("glorot_uniform: uniform on +-sqrt(6 / (fan_in + fan_out))") {
  auto square = tf::variable<"init_glorot_sq", float, big>(tf::init::glorot_uniform(3));
  auto wide = tf::variable<"init_glorot_wide", float, tf::shape<30, 70>>(tf::init::glorot_uniform(3));
  // rank 3: fan_in = 3 * 20, fan_out = 3 * 40 (receptive field times the last two dims)
  auto conv = tf::variable<"init_glorot_r3", double, tf::shape<3, 20, 40>>(tf::init::glorot_uniform(3));
  // rank 1: fan_in = fan_out = 50
  auto vec = tf::variable<"init_glorot_r1", double, tf::shape<50>>(tf::init::glorot_uniform(3));
  auto other_seed = tf::variable<"init_glorot_sq2", float, big>(tf::init::glorot_uniform(4));
  tf::session sess(square, wide, conv, vec, other_seed);
  sess.initialize_all();

  const auto check_limit = [](const moments& m, double limit, double reach) {
    CHECK(m.min >= -limit - 1e-7);
    CHECK(m.max <= limit + 1e-7);
    CHECK(m.min < -reach * limit);  // the draws spread over the whole interval
    CHECK(m.max > reach * limit);
  };
  const auto sq = moments_of(sess.run(square));
  check_limit(sq, std::sqrt(6.0 / 200.0), 0.99);
  CHECK(sq.stddev == doctest::Approx(std::sqrt(6.0 / 200.0) / std::sqrt(3.0)).epsilon(0.03));
  check_limit(moments_of(sess.run(wide)), std::sqrt(6.0 / 100.0), 0.98);
  check_limit(moments_of(sess.run(conv)), std::sqrt(6.0 / 180.0), 0.98);
  check_limit(moments_of(sess.run(vec)), std::sqrt(6.0 / 100.0), 0.5);
  CHECK(sess.run(square) != sess.run(other_seed));
}

TEST_CASE("session::set_random_seed decides the draws of initializers without a seed") {
  auto u = tf::variable<"init_unseeded", float, tf::shape<8>>(tf::init::random_uniform(0, 1));
  auto u2 = tf::variable<"init_unseeded_2", float, tf::shape<8>>(tf::init::random_uniform(0, 1));
  auto seeded = tf::variable<"init_seeded", float, tf::shape<8>>(tf::init::random_uniform(0, 1, 5));
  tf::session sess(u, u2, seeded);

  sess.set_random_seed(1);
  sess.initialize_all();
  const auto u_1 = sess.run(u);
  const auto seeded_1 = sess.run(seeded);
  // Two unseeded variables draw differently (their names enter the seed).
  CHECK(u_1 != sess.run(u2));

  sess.set_random_seed(2);
  sess.initialize_all();
  CHECK(sess.run(u) != u_1);             // the graph seed changed the draws
  CHECK(sess.run(seeded) == seeded_1);   // an initializer's own seed wins

  tf::session other(u);
  other.set_random_seed(1);
  other.initialize_all();
  CHECK(other.run(u) == u_1);            // the same graph seed reproduces them

  // The seed is the session's: a third session keeps the default and draws otherwise.
  tf::session third(u);
  third.initialize_all();
  CHECK(third.run(u) != u_1);
}
