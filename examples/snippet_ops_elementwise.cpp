// docs/reference/ops.md: elementwise ops, broadcasting, element types.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

template <class N>
constexpr bool is_float = std::is_same_v<tf::value_type_of<N>, float>;
template <class N>
constexpr bool is_bool = std::is_same_v<tf::value_type_of<N>, bool>;

int main() {
  tf::session sess;

  // [snippet broadcast]
  auto m = tf::placeholder<"m", float, tf::shape<2, 3>>();
  auto row = tf::placeholder<"row", float, tf::shape<3>>();
  auto column = tf::placeholder<"column", float, tf::shape<2, 1>>();
  auto sum = m + row + column;  // [2, 3] + [3] + [2, 1] -> [2, 3]
  static_assert(std::is_same_v<tf::shape_of<decltype(sum)>, tf::shape<2, 3>>);

  xt::xtensor_fixed<float, xt::xshape<2, 3>> m_value = {{1, 2, 3}, {4, 5, 6}};
  xt::xtensor_fixed<float, xt::xshape<3>> row_value = {10, 20, 30};
  xt::xtensor_fixed<float, xt::xshape<2, 1>> column_value = {{100}, {200}};
  auto result = sess.run(sum, tf::feed(m, m_value), tf::feed(row, row_value),
                         tf::feed(column, column_value));
  EXPECT(result == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{111, 122, 133}, {214, 225, 236}});
  // [/snippet broadcast]

  // [snippet broadcast_dynamic]
  auto batch = tf::placeholder<"batch", float, tf::shape<tf::dyn, 3>>();
  auto centered = batch - row;  // [?, 3] - [3] -> [?, 3]
  static_assert(std::is_same_v<tf::shape_of<decltype(centered)>, tf::shape<tf::dyn, 3>>);
  // [/snippet broadcast_dynamic]
  xt::xtensor<float, 2> batch_value = {{10, 20, 30}, {11, 21, 31}};
  EXPECT(sess.run(centered, tf::feed(batch, batch_value), tf::feed(row, row_value)) ==
         xt::xtensor<float, 2>{{0, 0, 0}, {1, 1, 1}});

  // [snippet math]
  auto x = tf::placeholder<"x", float, tf::shape<4>>();
  xt::xtensor_fixed<float, xt::xshape<4>> v = {-2, -0.5, 0.5, 4};
  auto run = [&](auto node) { return sess.run(node, tf::feed(x, v)); };
  using vec = xt::xtensor_fixed<float, xt::xshape<4>>;
  EXPECT(run(-x) == vec{2, 0.5, -0.5, -4});
  EXPECT(run(x * x - x / tf::constant<2>()) == vec{5, 0.5, 0, 14});
  EXPECT(run(tf::square(x)) == vec{4, 0.25, 0.25, 16});
  EXPECT(run(tf::abs(x)) == vec{2, 0.5, 0.5, 4});
  EXPECT(xt::allclose(run(tf::sqrt(tf::abs(x))), xt::sqrt(vec{2, 0.5, 0.5, 4})));
  EXPECT(xt::allclose(run(tf::exp(x)), xt::exp(v)));
  EXPECT(xt::allclose(run(tf::log(tf::abs(x))), xt::log(vec{2, 0.5, 0.5, 4})));
  EXPECT(run(tf::maximum(x, tf::constant<0>())) == vec{0, 0, 0.5, 4});
  EXPECT(run(tf::minimum(x, tf::constant<0>())) == vec{-2, -0.5, 0, 0});
  EXPECT(run(tf::relu(x)) == vec{0, 0, 0.5, 4});
  EXPECT(xt::allclose(run(tf::tanh(x)), xt::tanh(v)));
  EXPECT(xt::allclose(run(tf::sigmoid(x)), 1.0f / (1.0f + xt::exp(-v))));
  // [/snippet math]

  // [snippet compare]
  auto positive = x > tf::constant<0>();  // also tf::greater(x, 0); <, <=, >= likewise
  static_assert(is_bool<decltype(positive)>);
  using mask = xt::xtensor_fixed<bool, xt::xshape<4>>;
  EXPECT(run(positive) == mask{false, false, true, true});
  EXPECT(run(tf::equal(x, tf::constant<4>())) == mask{false, false, false, true});
  EXPECT(run(tf::not_equal(x, tf::constant<4>())) == mask{true, true, true, false});
  EXPECT(run(tf::less_equal(x, tf::constant<0.5>())) == mask{true, true, true, false});
  // [/snippet compare]

  // [snippet cast]
  auto n = tf::placeholder<"n", std::int32_t>();
  auto ratio = tf::cast<float>(n) / tf::constant<2>();  // float: 3.5 for n = 7
  static_assert(is_float<decltype(ratio)>);
  EXPECT(sess.run(ratio, tf::feed(n, 7)) == 3.5f);
  EXPECT(sess.run(n / tf::constant<2>(), tf::feed(n, 7)) == 3);    // int32: truncates
  EXPECT(sess.run(n / tf::constant<2>(), tf::feed(n, -7)) == -3);  // toward zero, as C++
  EXPECT(run(tf::cast<float>(positive)) == vec{0, 0, 1, 1});        // true -> 1
  // [/snippet cast]

  // [snippet named_functions]
  static_assert(std::is_same_v<decltype(tf::add(x, x)), decltype(x + x)>);
  static_assert(std::is_same_v<decltype(tf::subtract(x, x)), decltype(x - x)>);
  static_assert(std::is_same_v<decltype(tf::multiply(x, x)), decltype(x * x)>);
  static_assert(std::is_same_v<decltype(tf::divide(x, x)), decltype(x / x)>);
  static_assert(std::is_same_v<decltype(tf::negative(x)), decltype(-x)>);
  EXPECT(run(tf::identity(x)) == v);
  // [/snippet named_functions]
  return 0;
}
