// A graph map over elements of static shape allocates nothing per element in a steady pass:
// the body's session keeps its plan's buffers, the element arrays keep their storage.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include <xtensor/xarray.hpp>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
using typeflow_test::allocation_count;

TEST_CASE("map(fn) per element and per batch: no allocation per element after the first ones") {
  constexpr std::size_t rows = 400;
  auto features = tf::placeholder<"ga_features", float, tf::shape<tf::dyn, 16>>();
  auto scale = [](auto x) { return tf::tanh(x * tf::constant<0.5f>()) + tf::constant<1.0f>(); };
  auto per_element = tf::data::from_tensor_slices(features).map(scale);
  auto per_batch = tf::data::from_tensor_slices(features).batch<8>(tf::data::drop_remainder).map(scale);
  auto it1 = tf::data::make_initializable_iterator<"ga_elements">(per_element);
  auto it2 = tf::data::make_initializable_iterator<"ga_batches">(per_batch);
  auto s1 = tf::reduce_sum(it1.get_next());
  auto s2 = tf::reduce_sum(it2.get_next());
  static_assert(std::is_same_v<tf::shape_of<decltype(it2.get_next())>, tf::shape<8, 16>>);

  xt::xarray<float> x = xt::xarray<float>::from_shape({rows, std::size_t{16}});
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < 16; ++j) x(i, j) = static_cast<float>(i % 5) - 2.0f;
  tf::session sess(it1.initializer(), it2.initializer(), s1, s2);
  sess.run(tf::group(it1.initializer(), it2.initializer()), tf::feed(features, x));

  auto steady = [&](auto fetch, std::size_t steps, std::size_t per_step) {
    long before = 0;
    double total = 0;
    for (std::size_t k = 0; k < steps; ++k) {
      if (k == 8) before = allocation_count();  // storage has settled
      const float v = sess.run(fetch);
      // row i is tanh((i % 5 - 2) / 2) + 1 in each of its 16 values
      float want = 0;
      for (std::size_t r = k * per_step; r < (k + 1) * per_step; ++r)
        want += 16.0f * (std::tanh((static_cast<float>(r % 5) - 2.0f) * 0.5f) + 1.0f);
      CHECK(v == doctest::Approx(want));
      total += v;
    }
    CHECK(total > 0);
    return allocation_count() - before;
  };
  const long at_start = allocation_count();
  CHECK(steady(s1, rows, 1) == 0);
  CHECK(steady(s2, rows / 8, 8) == 0);
  CHECK(allocation_count() > at_start);  // the counter sees the first runs' allocations
}
