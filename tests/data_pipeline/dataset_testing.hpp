// tests/data_pipeline/dataset_testing.hpp — reading whole datasets in the tests.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include <xtensor/xarray.hpp>

#include <typeflow/data/dataset.hpp>

namespace typeflow_test {

/// Every element of the iterator's remaining pass (at most `limit`).
template <class It, class E>
std::vector<E> drain_iterator(It& it, E scratch, std::size_t limit = 1000000) {
  std::vector<E> out;
  while (out.size() < limit && it.next(scratch)) out.push_back(scratch);
  return out;
}

template <class D>
std::vector<typename D::element_type> drain(const D& ds, std::size_t limit = 1000000) {
  auto it = ds.make_iterator();
  return drain_iterator(it, typename D::element_type{}, limit);
}

/// The first component of each element of a one-component int64 scalar dataset.
template <class D>
std::vector<std::int64_t> scalars(const D& ds, std::size_t limit = 1000000) {
  std::vector<std::int64_t> out;
  for (const auto& e : drain(ds, limit)) out.push_back(std::get<0>(e)());
  return out;
}

inline std::vector<std::int64_t> iota(std::int64_t start, std::int64_t stop, std::int64_t step = 1) {
  std::vector<std::int64_t> v;
  for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) v.push_back(i);
  return v;
}

}  // namespace typeflow_test
