// docs/reference/ops.md: matmul, transpose, reshape, reductions, softmax, math functions.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

template <class N, class S>
constexpr bool has_shape = std::is_same_v<tf::shape_of<N>, S>;

int main() {
  tf::session sess;
  auto m = tf::placeholder<"m", float, tf::shape<2, 3>>();
  xt::xtensor_fixed<float, xt::xshape<2, 3>> m_value = {{1, 2, 3}, {4, 5, 6}};
  auto run = [&](auto node) { return sess.run(node, tf::feed(m, m_value)); };

  // [snippet matmul]
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"w", float, tf::shape<3, 2>>(tf::init::ones());
  auto y = tf::matmul(x, w);  // [?, 3] x [3, 2] -> [?, 2]
  static_assert(has_shape<decltype(y), tf::shape<tf::dyn, 2>>);

  auto gram = tf::matmul<false, true>(m, m);  // m m^T (transpose_b=True): [2, 2]
  auto cov = tf::matmul<true, false>(m, m);   // m^T m (transpose_a=True): [3, 3]
  static_assert(has_shape<decltype(gram), tf::shape<2, 2>>);
  static_assert(has_shape<decltype(cov), tf::shape<3, 3>>);
  EXPECT(run(gram) == xt::xtensor_fixed<float, xt::xshape<2, 2>>{{14, 32}, {32, 77}});
  // [/snippet matmul]
  EXPECT(run(cov)(2, 2) == 45.0f);
  {
    tf::session with_w(y);
    with_w.initialize_all();
    xt::xtensor<float, 2> x_value = {{1, 2, 3}};
    EXPECT(with_w.run(y, tf::feed(x, x_value)) == xt::xtensor<float, 2>{{6, 6}});
  }

  // [snippet batched]
  auto a = tf::placeholder<"a", float, tf::shape<4, 2, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<4, 3, 5>>();
  static_assert(has_shape<decltype(tf::matmul(a, b)), tf::shape<4, 2, 5>>);
  // [/snippet batched]

  // [snippet matmul_runtime]
  auto p = tf::placeholder<"p", float, tf::shape<tf::dyn, tf::dyn>>();
  auto q = tf::placeholder<"q", float, tf::shape<tf::dyn, tf::dyn>>();
  xt::xtensor<float, 2> p_value = {{1, 2}};
  xt::xtensor<float, 2> q_value = {{1, 2}, {3, 4}, {5, 6}};
  try {
    sess.run(tf::matmul(p, q), tf::feed(p, p_value), tf::feed(q, q_value));
    EXPECT(!"run throws");
  } catch (const tf::invalid_argument_error& e) {
    EXPECT(e.message() == "Matrix size-incompatible in MatMul: In[0]: [1, 2], In[1]: [3, 2]");
  }
  // [/snippet matmul_runtime]

  // [snippet transpose]
  static_assert(has_shape<decltype(tf::transpose(m)), tf::shape<3, 2>>);
  static_assert(has_shape<decltype(tf::transpose(a)), tf::shape<3, 2, 4>>);            // reversed
  static_assert(has_shape<decltype(tf::transpose<1, 0, 2>(a)), tf::shape<2, 4, 3>>);  // perm
  EXPECT(run(tf::transpose(m)) == xt::xtensor_fixed<float, xt::xshape<3, 2>>{{1, 4}, {2, 5}, {3, 6}});
  // [/snippet transpose]

  // [snippet reshape]
  auto flat = tf::reshape<tf::shape<6>>(m);
  auto rows = tf::reshape<tf::shape<tf::dyn, 2>>(m);  // -1 inferred: 3, known at compile time
  auto batch_rows = tf::reshape<tf::shape<tf::dyn, 2>>(x);  // [?, 3] -> [?, 2]: inferred per run
  static_assert(has_shape<decltype(flat), tf::shape<6>>);
  static_assert(has_shape<decltype(rows), tf::shape<3, 2>>);
  static_assert(has_shape<decltype(batch_rows), tf::shape<tf::dyn, 2>>);
  EXPECT(run(rows) == xt::xtensor_fixed<float, xt::xshape<3, 2>>{{1, 2}, {3, 4}, {5, 6}});

  xt::xtensor<float, 2> one_row = {{1, 2, 3}};  // 3 values do not make rows of 2
  try {
    sess.run(batch_rows, tf::feed(x, one_row));
    EXPECT(!"run throws");
  } catch (const tf::invalid_argument_error& e) {
    EXPECT(e.message() ==
           "Input to reshape is a tensor with 3 values, but the requested shape [?, 2] does not fit it");
  }
  // [/snippet reshape]

  // [snippet reduce]
  EXPECT(run(tf::reduce_sum(m)) == 21.0f);  // every axis: a scalar
  EXPECT(run(tf::reduce_sum<0>(m)) == xt::xtensor_fixed<float, xt::xshape<3>>{5, 7, 9});
  EXPECT(run(tf::reduce_sum<-1>(m)) == xt::xtensor_fixed<float, xt::xshape<2>>{6, 15});
  EXPECT(run(tf::reduce_mean<1>(m, tf::keep_dims)) ==
         xt::xtensor_fixed<float, xt::xshape<2, 1>>{{2}, {5}});
  EXPECT(run(tf::reduce_mean<0, 1>(m)) == 3.5f);
  static_assert(has_shape<decltype(tf::reduce_sum<1>(x)), tf::shape<tf::dyn>>);
  // [/snippet reduce]

  // [snippet reduce_int]
  auto counts = tf::placeholder<"counts", std::int32_t, tf::shape<3>>();
  xt::xtensor_fixed<std::int32_t, xt::xshape<3>> counts_value = {1, 2, 4};
  EXPECT(sess.run(tf::reduce_mean(counts), tf::feed(counts, counts_value)) == 2);  // 7 / 3
  // [/snippet reduce_int]

  // [snippet softmax]
  auto probabilities = tf::softmax(m);       // over the last axis, per row
  auto log_probabilities = tf::log_softmax(m);
  auto probabilities_value = run(probabilities);
  EXPECT(xt::allclose(xt::sum(probabilities_value, {1}), xt::xtensor<float, 1>{1, 1}));
  EXPECT(xt::allclose(run(log_probabilities), xt::log(probabilities_value)));

  auto large = tf::placeholder<"large", float, tf::shape<2>>();  // stable for large logits
  xt::xtensor_fixed<float, xt::xshape<2>> large_value = {1000, 1000};
  EXPECT(sess.run(tf::softmax(large), tf::feed(large, large_value)) ==
         xt::xtensor_fixed<float, xt::xshape<2>>{0.5, 0.5});
  // [/snippet softmax]

  // [snippet math_functions]
  auto v = tf::placeholder<"v", double, tf::shape<3>>();
  const xt::xtensor_fixed<double, xt::xshape<3>> v_value = {1, 2, 3};
  auto run_v = [&](auto node) { return sess.run(node, tf::feed(v, v_value)); };
  using vec3 = xt::xtensor_fixed<double, xt::xshape<3>>;
  EXPECT(run_v(tf::add_n(v, v, v)) == vec3{3, 6, 9});
  EXPECT(run_v(tf::pow(v, tf::constant<2.0>())) == vec3{1, 4, 9});
  EXPECT(run_v(tf::relu6(v * tf::constant<3.0>())) == vec3{3, 6, 6});
  EXPECT(run_v(tf::cumsum(v)) == vec3{1, 3, 6});
  EXPECT(run_v(tf::cumsum<0, /*exclusive=*/true, /*reverse=*/true>(v)) == vec3{5, 3, 0});
  const double lse = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  EXPECT(std::abs(run_v(tf::reduce_logsumexp(v)) - lse) < 1e-12);
  // [/snippet math_functions]

  // [snippet more_ops]
  auto g = tf::placeholder<"g", double, tf::shape<2, 2>>();
  const xt::xtensor_fixed<double, xt::xshape<2, 2>> g_value = {{3, 0}, {4, 2}};
  auto run_g = [&](auto node) { return sess.run(node, tf::feed(g, g_value)); };
  using vec2 = xt::xtensor_fixed<double, xt::xshape<2>>;
  using mat2 = xt::xtensor_fixed<double, xt::xshape<2, 2>>;
  EXPECT(run_g(tf::reduce_prod<0>(g)) == vec2{12, 0});
  EXPECT(run_g(tf::count_nonzero(g)) == 3);                     // int64
  EXPECT(run_g(tf::cumprod<1>(g)) == mat2{{3, 0}, {4, 8}});
  EXPECT(xt::allclose(run_g(tf::l2_normalize<0>(g)), mat2{{0.6, 0}, {0.8, 1}}));  // each column to norm 1
  EXPECT(run_g(tf::clip_by_norm<0>(g, tf::constant<2.5>())) == mat2{{1.5, 0}, {2, 2}});
  EXPECT(xt::allclose(run_g(tf::clip_by_average_norm(g, tf::constant<0.5>())),
                     run_g(tf::clip_by_norm(g, tf::constant<2.0>()))));  // 0.5 times the 4 elements
  EXPECT(run_g(tf::rsqrt(g * g + tf::constant<1.0>()))(0, 1) == 1.0);
  EXPECT(run_g(tf::logical_and(g > tf::constant<1.0>(), g < tf::constant<4.0>()))(0, 0));
  EXPECT(run_g(tf::reduce_all(g >= tf::constant<0.0>())));
  auto columns = run_g(tf::softmax<0>(g));                      // along the first axis
  EXPECT(std::abs(columns(0, 0) + columns(1, 0) - 1) < 1e-12);
  auto targets = tf::constant<"targets">(mat2{{1, 0}, {0, 1}});
  auto weighted = tf::weighted_cross_entropy_with_logits(targets, g, tf::constant<2.0>());
  EXPECT(std::abs(run_g(weighted)(0, 0) - 2 * std::log1p(std::exp(-3.0))) < 1e-12);  // positives count twice
  // [/snippet more_ops]

  // [snippet creation_random]
  auto mu = tf::placeholder<"mu", float, tf::shape<tf::dyn, 2>>();
  auto eps = tf::random_normal(tf::shape_op(mu));  // a VAE's tf.random_normal(tf.shape(mu))
  static_assert(has_shape<decltype(eps), tf::shape<tf::dyn, 2>>);
  auto noise = tf::random_uniform<tf::shape<4, 100>, float, /*seed=*/7>(tf::constant<-1>(), tf::constant<1>());
  auto dice = tf::random_uniform<tf::shape<10>, std::int32_t>(tf::constant<1>(), tf::constant<7>());  // 1..6
  auto w0 = tf::truncated_normal<tf::shape<3, 2>, double>(tf::constant<0.0>(), tf::constant<0.1>());
  auto grid = tf::fill<tf::shape<2, 3>>(tf::constant<9>());  // int32 [2, 3] of 9
  auto like_mu = tf::zeros(tf::shape_op(mu)) + tf::ones_like(mu);
  auto ones = tf::ones<tf::shape<2>, double>();  // tf.ones([2], tf.float64)
  tf::session gen(eps, noise, dice, w0, grid, like_mu, ones, tf::size(mu), tf::rank(mu));
  gen.set_random_seed(42);  // tf.set_random_seed: every run below is reproducible
  xt::xtensor<float, 2> mu_value = xt::zeros<float>({5, 2});
  EXPECT(gen.run(eps, tf::feed(mu, mu_value)).shape()[0] == 5);
  EXPECT(gen.run(noise) != gen.run(noise));  // a new draw on each run
  auto d = gen.run(dice);
  EXPECT(xt::amin(d)() >= 1 && xt::amax(d)() <= 6);
  EXPECT(xt::amax(xt::abs(gen.run(w0)))() <= 0.2);  // within 2 stddev
  EXPECT(gen.run(grid) == (xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{9, 9, 9}, {9, 9, 9}}));
  EXPECT(gen.run(like_mu, tf::feed(mu, mu_value)) == xt::ones<float>({5, 2}));
  EXPECT(gen.run(ones) == (xt::xtensor_fixed<double, xt::xshape<2>>{1, 1}));
  EXPECT(gen.run(tf::shape_op(mu), tf::feed(mu, mu_value)) == (xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{5, 2}));
  EXPECT(gen.run(tf::size(mu), tf::feed(mu, mu_value)) == 10 && gen.run(tf::rank(mu)) == 2);
  // [/snippet creation_random]
  return 0;
}
