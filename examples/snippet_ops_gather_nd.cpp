// docs/reference/ops.md: gather_nd and scatter_nd, values and gradients.
#include <cstdint>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  tf::session sess;

  // [snippet gather_nd]
  auto params = tf::placeholder<"params", float, tf::shape<tf::dyn, 3>>();
  auto cells = tf::placeholder<"cells", std::int32_t, tf::shape<tf::dyn, 2>>();  // index depth 2
  auto rows = tf::placeholder<"rows", std::int64_t, tf::shape<2, 1>>();           // index depth 1
  auto elements = tf::gather_nd(params, cells);  // [?, 3] at [?, 2] -> [?]: params[i, j]
  auto slices = tf::gather_nd(params, rows);     // [?, 3] at [2, 1] -> [2, 3]: params[i, :]
  static_assert(std::is_same_v<tf::shape_of<decltype(slices)>, tf::shape<2, 3>>);
  xt::xtensor<float, 2> params_value = {{1, 2, 3}, {4, 5, 6}};
  xt::xtensor<std::int32_t, 2> cells_value = {{0, 2}, {1, 0}};
  xt::xtensor_fixed<std::int64_t, xt::xshape<2, 1>> rows_value = {{1}, {1}};
  EXPECT(sess.run(elements, tf::feed(params, params_value), tf::feed(cells, cells_value)) ==
         (xt::xtensor<float, 1>{3, 4}));
  EXPECT(sess.run(slices, tf::feed(params, params_value), tf::feed(rows, rows_value)) ==
         (xt::xtensor<float, 2>{{4, 5, 6}, {4, 5, 6}}));

  // scatter_nd: zeros of a static shape with the updates added at the indices (duplicates sum).
  auto updates = tf::placeholder<"updates", float, tf::shape<2, 3>>();
  auto scattered = tf::scatter_nd<tf::shape<3, 3>>(rows, updates);  // updates: [2] + [3]
  xt::xtensor_fixed<float, xt::xshape<2, 3>> updates_value = {{1, 1, 1}, {2, 2, 2}};
  EXPECT(sess.run(scattered, tf::feed(rows, rows_value), tf::feed(updates, updates_value)) ==
         (xt::xtensor<float, 2>{{0, 0, 0}, {3, 3, 3}, {0, 0, 0}}));
  // ... or the shape from a dims node, read when the run computes it: [?, 3] here.
  auto like_params = tf::scatter_nd(cells, tf::gather_nd(params, cells), tf::shape_op(params));
  EXPECT(sess.run(like_params, tf::feed(params, params_value), tf::feed(cells, cells_value)) ==
         (xt::xtensor<float, 2>{{0, 0, 3}, {4, 0, 0}}));

  // Gradients: gather_nd's is scatter_nd of g into params' shape, scatter_nd's gather_nd of g.
  auto d_params = tf::gradient(tf::reduce_sum(slices), params);
  EXPECT(sess.run(d_params, tf::feed(params, params_value), tf::feed(rows, rows_value)) ==
         (xt::xtensor<float, 2>{{0, 0, 0}, {2, 2, 2}}));  // row 1 gathered twice
  // [/snippet gather_nd]
  return 0;
}
