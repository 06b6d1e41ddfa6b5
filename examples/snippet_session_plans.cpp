// docs/reference/session.md: planned buffers (no allocation in steady state) and fusion.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <tuple>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

// Counts every heap allocation of the program.
static std::size_t allocations = 0;
void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace tf = typeflow;
namespace mp = boost::mp11;

int main() {
  // [snippet no_allocation]
  auto x = tf::placeholder<"x", float, tf::shape<4, 3>>();
  auto w = tf::variable<"w", float, tf::shape<3, 2>>(tf::init::glorot_uniform(7));
  auto b = tf::variable<"b", float, tf::shape<2>>(tf::init::zeros());
  auto y = tf::sigmoid(tf::matmul(x, w) + b);
  auto loss = tf::reduce_mean(tf::square(y - tf::constant<1>()));
  auto train = tf::assign_sub(b, tf::constant<0.1>() * tf::reduce_mean<0>(y));

  tf::session sess(loss, train);
  sess.initialize_all();
  xt::xtensor_fixed<float, xt::xshape<4, 3>> batch = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {1, 0, 1}};
  sess.run(tf::fetch(loss, train), tf::feed(x, batch));  // the first run plans the buffers

  const std::size_t before = allocations;
  for (int step = 0; step < 100; ++step) sess.run(tf::fetch(loss, train), tf::feed(x, batch));
  EXPECT(allocations == before);  // 100 runs, no heap allocation
  // [/snippet no_allocation]

  // [snippet dynamic_reuse]
  auto rows = tf::placeholder<"rows", float, tf::shape<tf::dyn, 3>>();
  auto mean_square = tf::reduce_mean(tf::square(tf::matmul(rows, w)));
  xt::xtensor<float, 2> ten_rows = xt::ones<float>({10, 3});
  sess.run(mean_square, tf::feed(rows, ten_rows));  // buffers sized for 10 rows

  const std::size_t planned = allocations;
  for (int step = 0; step < 100; ++step) sess.run(mean_square, tf::feed(rows, ten_rows));
  EXPECT(allocations == planned);  // same fed shape: the buffers are reused
  // [/snippet dynamic_reuse]

  // [snippet fusion]
  using path = tf::path_info<mp::mp_list<decltype(loss)>, mp::mp_list<>>;
  using product = decltype(tf::matmul(x, w));
  using logits = decltype(tf::matmul(x, w) + b);
  using activation = decltype(y);
  using error = decltype(y - tf::constant<1>());
  using squared = decltype(tf::square(y - tf::constant<1>()));
  static_assert(tf::materialized<path, product>);     // a compute op (BLAS) writes a buffer
  static_assert(!tf::materialized<path, logits>);     // + b, sigmoid and - 1 are fused
  static_assert(!tf::materialized<path, activation>); // into the expression that square
  static_assert(!tf::materialized<path, error>);      // evaluates into its buffer,
  static_assert(tf::materialized<path, squared>);     // which reduce_mean reads

  using both = tf::path_info<mp::mp_list<decltype(loss), decltype(train)>, mp::mp_list<>>;
  static_assert(tf::materialized<both, activation>); // y has two consumers now: one buffer
  // [/snippet fusion]

  // [snippet fusion_column]
  auto m = tf::placeholder<"m", float, tf::shape<2, 3>>();
  auto column = tf::placeholder<"column", float, tf::shape<2, 1>>();
  auto shifted = m + column;  // a [2, 1] operand is neither a row of [2, 3] nor one element
  auto scaled = shifted * tf::constant<2>();
  using column_path = tf::path_info<mp::mp_list<decltype(scaled)>, mp::mp_list<>>;
  static_assert(tf::materialized<column_path, decltype(shifted)>);  // computed into its own buffer

  xt::xtensor_fixed<float, xt::xshape<2, 3>> m_value = {{1, 2, 3}, {4, 5, 6}};
  xt::xtensor_fixed<float, xt::xshape<2, 1>> column_value = {{10}, {20}};
  EXPECT(sess.run(scaled, tf::feed(m, m_value), tf::feed(column, column_value)) ==
         xt::xtensor_fixed<float, xt::xshape<2, 3>>{{22, 24, 26}, {48, 50, 52}});
  // [/snippet fusion_column]
  return 0;
}
