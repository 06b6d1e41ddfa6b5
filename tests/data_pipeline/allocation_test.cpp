// A steady epoch of from_tensor_slices(60000x784 float, 60000 int32) -> shuffle(60000) ->
// batch(32) [-> prefetch(2)], and a worker's shard() of such a pipeline, allocates nothing
// per batch: each stage hands storage back and forth by swap, and every resize is to an
// equal size.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include <xtensor/xarray.hpp>

#include <typeflow/data/dataset.hpp>

#include "../support/allocation_counter.hpp"

namespace td = typeflow::data;
using typeflow_test::allocation_count;

namespace {

constexpr std::size_t rows = 60000, width = 784, batch = 32;

template <class D>
void check_epoch(const D& ds) {
  auto it = ds.make_iterator();
  typename D::element_type out;
  std::vector<char> seen(rows, 0);
  std::size_t batches = 0, mismatched = 0;
  const long at_start = allocation_count();
  long before = 0;
  while (it.next(out)) {
    const auto& [x, y] = out;
    REQUIRE(x.shape()[0] == batch);
    REQUIRE(x.shape()[1] == width);
    for (std::size_t b = 0; b < batch; ++b) {
      const auto label = static_cast<std::size_t>(y(b));
      if (label >= rows) {
        ++mismatched;
        continue;
      }
      // features and label travel together
      mismatched += x(b, 0) != static_cast<float>(label) || x(b, width - 1) != static_cast<float>(label % 7);
      ++seen[label];
    }
    if (++batches == 8) before = allocation_count();  // storage has settled
  }
  const long during = allocation_count() - before;
  CHECK(before > at_start);  // the counter sees the pipeline's first allocations (the buffer)
  CHECK(mismatched == 0);
  CHECK(batches == rows / batch);
  CHECK(during == 0);
  std::size_t once = 0;
  for (char s : seen) once += s == 1;
  CHECK(once == rows);  // a permutation of the examples
}

}  // namespace

TEST_CASE("from_tensor_slices -> shuffle -> batch -> prefetch: no allocation per batch in a steady epoch") {
  xt::xarray<float> x = xt::xarray<float>::from_shape({rows, width});
  xt::xarray<std::int32_t> y = xt::xarray<std::int32_t>::from_shape({rows});
  for (std::size_t i = 0; i < rows; ++i) {
    y(i) = static_cast<std::int32_t>(i);
    for (std::size_t j = 0; j < width; ++j) x(i, j) = static_cast<float>(j == 0 ? i : i % 7);
  }
  const auto shuffled = td::from_tensor_slices(std::move(x), std::move(y)).shuffle(60000, 42).batch(batch);
  check_epoch(shuffled);
  check_epoch(shuffled.prefetch(2));
}

TEST_CASE("from_tensor_slices -> shuffle -> shard -> batch -> prefetch: no allocation per batch in a worker's steady epoch") {
  constexpr std::size_t n = 6400, workers = 2, worker = 1;
  xt::xarray<float> x = xt::xarray<float>::from_shape({n, width});
  xt::xarray<std::int32_t> y = xt::xarray<std::int32_t>::from_shape({n});
  for (std::size_t i = 0; i < n; ++i) {
    y(i) = static_cast<std::int32_t>(i);
    for (std::size_t j = 0; j < width; ++j) x(i, j) = static_cast<float>(j == 0 ? i : i % 7);
  }
  const auto sharded = td::from_tensor_slices(std::move(x), std::move(y)).shuffle(n, 42).shard(workers, worker).batch(batch);
  auto epoch = [&](const auto& ds) {
    auto it = ds.make_iterator();
    typename std::decay_t<decltype(ds)>::element_type out;
    std::size_t batches = 0, mismatched = 0;
    long before = 0;
    while (it.next(out)) {
      const auto& [bx, by] = out;
      REQUIRE(bx.shape()[0] == batch);
      for (std::size_t b = 0; b < batch; ++b) {
        const auto label = static_cast<std::size_t>(by(b));
        mismatched += label >= n || bx(b, 0) != static_cast<float>(label) || bx(b, width - 1) != static_cast<float>(label % 7);
      }
      if (++batches == 8) before = allocation_count();  // storage has settled
    }
    CHECK(mismatched == 0);
    CHECK(batches == n / workers / batch);
    return allocation_count() - before;
  };
  const long at_start = allocation_count();
  CHECK(epoch(sharded) == 0);
  CHECK(allocation_count() > at_start);  // the counter sees the first batches' allocations
  CHECK(epoch(sharded.prefetch(2)) == 0);
}
