// docs/reference/ops.md: segment reductions and boolean_mask, values and gradients.
#include <cstdint>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  tf::session sess;

  // [snippet segment]
  auto data = tf::placeholder<"data", float, tf::shape<4, 2>>();
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<4>>();
  auto sums = tf::unsorted_segment_sum<3>(data, ids);  // num_segments 3: a static [3, 2]
  auto maxima = tf::segment_max(data, ids);            // sorted ids: [last id + 1 (dyn), 2]
  static_assert(std::is_same_v<tf::shape_of<decltype(sums)>, tf::shape<3, 2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(maxima)>, tf::shape<tf::dyn, 2>>);
  xt::xtensor_fixed<float, xt::xshape<4, 2>> data_value = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  xt::xtensor_fixed<std::int32_t, xt::xshape<4>> ids_value = {0, 0, 2, 2};
  EXPECT(sess.run(sums, tf::feed(data, data_value), tf::feed(ids, ids_value)) ==
         (xt::xtensor<float, 2>{{4, 6}, {0, 0}, {12, 14}}));  // segment 1 is empty: 0
  EXPECT(sess.run(tf::segment_mean(data, ids), tf::feed(data, data_value), tf::feed(ids, ids_value)) ==
         (xt::xtensor<float, 2>{{2, 3}, {0, 0}, {6, 7}}));
  // Gradients: the sum's gathers g by id; the max's goes to the selected elements.
  auto d_data = tf::gradient(tf::reduce_sum(maxima), data);
  EXPECT(sess.run(d_data, tf::feed(data, data_value), tf::feed(ids, ids_value)) ==
         (xt::xtensor<float, 2>{{0, 0}, {1, 1}, {0, 0}, {1, 1}}));

  // boolean_mask: the rows whose mask element is true; [dyn] + tensor.shape[1:].
  auto mask = tf::placeholder<"mask", bool, tf::shape<4>>();
  auto picked = tf::boolean_mask(data, mask);
  static_assert(std::is_same_v<tf::shape_of<decltype(picked)>, tf::shape<tf::dyn, 2>>);
  xt::xtensor_fixed<bool, xt::xshape<4>> mask_value = {true, false, false, true};
  EXPECT(sess.run(picked, tf::feed(data, data_value), tf::feed(mask, mask_value)) ==
         (xt::xtensor<float, 2>{{1, 2}, {7, 8}}));
  // Its gradient puts g back at the true rows, zeros elsewhere.
  EXPECT(sess.run(tf::gradient(tf::reduce_sum(picked), data), tf::feed(data, data_value), tf::feed(mask, mask_value)) ==
         (xt::xtensor<float, 2>{{1, 1}, {0, 0}, {0, 0}, {1, 1}}));
  // [/snippet segment]
  return 0;
}
