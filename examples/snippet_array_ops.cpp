// docs/reference/array-ops.md: the array ops a sequence model uses, end to end, and the
// reductions to an extremum (docs/reference/ops.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;
using f23 = xt::xtensor_fixed<float, xt::xshape<2, 3>>;

int main() {
  // [snippet cut]
  // A batch of 2 sequences of 3 steps, one feature each: [batch, time].
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto first_step = tf::slice<tf::ints<0, 0>, tf::ints<-1, 1>>(x);           // [2, 1]
  auto last_step = tf::strided_slice<tf::ints<0, -1>, tf::ints<0, 0>, tf::ints<1, 1>,
                                     /*begin_mask=*/1, /*end_mask=*/3, /*shrink_axis_mask=*/2>(x);  // x[:, -1]
  auto [s0, s1, s2] = tf::unstack<1>(x);                                     // three [2]
  auto [head, tail] = tf::split<tf::ints<1, -1>, 1>(x);                      // [2, 1], [2, 2]
  static_assert(std::is_same_v<tf::shape_of<decltype(last_step)>, tf::shape<2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(tail)>, tf::shape<2, 2>>);
  // [/snippet cut]

  // [snippet join]
  auto steps = tf::stack<1>(s0, s1, s2);                  // [2, 3] again
  auto both_ends = tf::concat<1>(first_step, tf::expand_dims<1>(last_step));  // [2, 2]
  auto table = tf::constant<"table">(xt::xtensor_fixed<float, xt::xshape<3, 2>>{{0, 1}, {2, 3}, {4, 5}});
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<tf::dyn>>();
  auto rows = tf::gather(table, ids);                     // [dyn, 2]
  // [/snippet join]

  // [snippet sequences]
  auto lengths = tf::placeholder<"lengths", std::int64_t, tf::shape<2>>();
  auto mask = tf::sequence_mask<3>(lengths);              // [2, 3] of bool
  auto masked = tf::where(mask, x, tf::zeros_like(x));    // steps past each length are 0
  auto reversed = tf::reverse_sequence<1>(x, lengths);    // each sequence reversed within its length
  auto longest = tf::reduce_max<1>(x);                    // [2]
  auto clipped = tf::clip_by_value(x, tf::constant<0.0f>(), tf::constant<2.5f>());
  // [/snippet sequences]

  // [snippet matrices]
  auto m = tf::placeholder<"m", float, tf::shape<2, 3, 3>>();   // a batch of two 3 x 3 matrices
  auto mt = tf::matrix_transpose(m);                              // [2, 3, 3], each transposed
  auto traces = tf::trace(m);                                     // [2]
  auto diagonals = tf::matrix_diag_part(m);                       // [2, 3]
  auto lower = tf::matrix_band_part<-1, 0>(m);                    // the lower triangles
  auto eye = tf::matrix_diag(tf::ones_like(diagonals));           // [2, 3, 3] identities
  auto rows3 = tf::broadcast_to<tf::shape<3, 2, 3>>(x);            // x repeated 3 times
  auto order = tf::constant<"order">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{2, 0, 1});
  auto inverse = tf::invert_permutation(order);                   // [1, 2, 0]
  static_assert(std::is_same_v<tf::shape_of<decltype(traces)>, tf::shape<2>>);
  // [/snippet matrices]

  tf::session sess(steps, both_ends, rows, masked, reversed, longest, clipped, head);
  const f23 xv{{1, 2, 3}, {4, 5, 6}};
  const xt::xtensor_fixed<std::int64_t, xt::xshape<2>> lv{3, 1};
  auto feeds = [&](auto node) { return sess.run(node, tf::feed(x, xv), tf::feed(lengths, lv)); };
  EXPECT(feeds(steps) == xv);
  EXPECT(sess.run(last_step, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2>>{3, 6});
  EXPECT(sess.run(s1, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2>>{2, 5});
  EXPECT(sess.run(tail, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2, 2>>{{2, 3}, {5, 6}});
  EXPECT(sess.run(both_ends, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2, 2>>{{1, 3}, {4, 6}});
  EXPECT(sess.run(head, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2, 1>>{{1}, {4}});
  EXPECT(sess.run(rows, tf::feed(ids, xt::xtensor<std::int32_t, 1>{2, 0})) == xt::xtensor<float, 2>{{4, 5}, {0, 1}});
  EXPECT(feeds(masked) == f23{{1, 2, 3}, {4, 0, 0}});
  EXPECT(feeds(reversed) == f23{{3, 2, 1}, {4, 5, 6}});
  EXPECT(sess.run(longest, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<2>>{3, 6});
  EXPECT(sess.run(clipped, tf::feed(x, xv)) == f23{{1, 2, 2.5}, {2.5, 2.5, 2.5}});
  using f233 = xt::xtensor_fixed<float, xt::xshape<2, 3, 3>>;
  const f233 mv{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, {{1, 0, 0}, {2, 3, 0}, {4, 5, 6}}};
  tf::session msess(mt, traces, lower, eye, rows3, inverse);
  EXPECT(msess.run(mt, tf::feed(m, mv)) == f233{{{1, 4, 7}, {2, 5, 8}, {3, 6, 9}}, {{1, 2, 4}, {0, 3, 5}, {0, 0, 6}}});
  EXPECT(msess.run(traces, tf::feed(m, mv)) == xt::xtensor_fixed<float, xt::xshape<2>>{15, 10});
  EXPECT(msess.run(lower, tf::feed(m, mv)) == f233{{{1, 0, 0}, {4, 5, 0}, {7, 8, 9}}, {{1, 0, 0}, {2, 3, 0}, {4, 5, 6}}});
  EXPECT(msess.run(eye, tf::feed(m, mv)) == f233{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}});
  EXPECT(msess.run(rows3, tf::feed(x, xv)) ==
         xt::xtensor_fixed<float, xt::xshape<3, 2, 3>>{{{1, 2, 3}, {4, 5, 6}}, {{1, 2, 3}, {4, 5, 6}}, {{1, 2, 3}, {4, 5, 6}}});
  EXPECT(msess.run(inverse) == xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{1, 2, 0});
  return 0;
}
