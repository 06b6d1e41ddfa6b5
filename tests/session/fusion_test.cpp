// Elementwise chains whose intermediate values nobody else needs are fused into one
// lazy xtensor expression: only the chain's last node gets a buffer.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace mp = boost::mp11;

namespace {
template <class Fetches, class Fed = mp::mp_list<>>
using info = tf::path_info<Fetches, Fed>;
}

TEST_CASE("a chain relu(x * w + b) materializes only its result") {
  auto x = tf::placeholder<"fx", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"fw", float, tf::shape<3>>(tf::init::constant(2.));
  auto b = tf::variable<"fb", float, tf::shape<3>>(tf::init::constant(1.));
  auto prod = x * w;
  auto sum = prod + b;
  auto y = tf::relu(sum);
  using I = info<mp::mp_list<decltype(y)>>;
  static_assert(!I::materialized_c<decltype(prod)>::value);
  static_assert(!I::materialized_c<decltype(sum)>::value);
  static_assert(I::materialized_c<decltype(y)>::value);
  static_assert(!I::materialized_c<decltype(x)>::value);  // leaves are read in place
  using ctx = tf::run_context<tf::session<decltype(y)>, mp::mp_list<decltype(y)>, mp::mp_list<decltype(x)>,
                              std::tuple<>>;
  static_assert(ctx::plan::buffer_count == 1);  // one buffer

  tf::session sess(y);
  sess.initialize_all();
  const xt::xtensor<float, 2> xv = {{1, -2, 3}};
  CHECK(sess.run(y, tf::feed(x, xv)) == xt::xtensor<float, 2>{{3, 0, 7}});
}

TEST_CASE("a value used twice, fetched, or read by a non-elementwise op gets its buffer") {
  auto x = tf::placeholder<"gx2", float, tf::shape<2, 2>>();
  auto shared = x * x;
  auto twice = shared + shared;
  using I = info<mp::mp_list<decltype(twice)>>;
  static_assert(I::materialized_c<decltype(shared)>::value);

  auto fetched = x + x;
  auto after = tf::exp(fetched);
  using J = info<mp::mp_list<decltype(after), decltype(fetched)>>;
  static_assert(J::materialized_c<decltype(fetched)>::value);

  auto into_matmul = x - x;
  auto product = tf::matmul(into_matmul, x);
  using K = info<mp::mp_list<decltype(product)>>;
  static_assert(K::materialized_c<decltype(into_matmul)>::value);

  tf::session sess(twice);
  const xt::xtensor_fixed<float, xt::xshape<2, 2>> xv = {{1, 2}, {3, 4}};
  CHECK(sess.run(twice, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2, 2>>{{2, 8}, {18, 32}});
  auto [a, f] = sess.run(tf::fetch(after, fetched), tf::feed(x, xv));
  CHECK(f(1, 1) == 8.0f);
  CHECK(a(0, 0) == doctest::Approx(std::exp(2.0f)));
}

TEST_CASE("fed nodes are neither evaluated nor buffered") {
  auto x = tf::placeholder<"hx", float, tf::shape<2>>();
  auto a = x * x;
  auto b = a + x;
  using I = info<mp::mp_list<decltype(b)>, mp::mp_list<decltype(a)>>;
  static_assert(!I::materialized_c<decltype(a)>::value);
  static_assert(!tf::contains_v<typename I::order, decltype(x * x * x)>);
  tf::session sess(b);
  const xt::xtensor_fixed<float, xt::xshape<2>> av = {10, 20}, xv = {1, 2};
  CHECK(sess.run(b, tf::feed(a, av), tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2>>{11, 22});
}
