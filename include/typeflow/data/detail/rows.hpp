// typeflow/data/detail/rows.hpp — rows of a from_tensor_slices's tensors, handled by index:
// the fast path of shuffle() and batch() over from_tensor_slices (see data::row_indexed).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/dataset/state.hpp"

namespace typeflow::data::detail {

/// out = row r of every component of `tensors` (its first dimension dropped).
template <class... T>
void copy_row(const std::tuple<xt::xarray<T>...>& tensors, std::size_t r, std::tuple<xt::xarray<T>...>& out) {
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          const auto& src = std::get<C>(tensors);
          auto& dst = std::get<C>(out);
          typename std::decay_t<decltype(dst)>::shape_type shape(src.shape().begin() + 1, src.shape().end());
          dst.resize(shape);  // no allocation when the size is the last row's
          const std::size_t row = dst.size();
          std::copy(src.data() + r * row, src.data() + (r + 1) * row, dst.data());
        }(),
        ...);
  }(std::index_sequence_for<T...>{});
}

/// Shapes every component of `out` as a batch of n rows of `tensors`.
template <class... T>
void shape_batch(const std::tuple<xt::xarray<T>...>& tensors, std::size_t n, std::tuple<xt::xarray<T>...>& out) {
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          const auto& src = std::get<C>(tensors);
          auto& dst = std::get<C>(out);
          typename std::decay_t<decltype(dst)>::shape_type shape(src.shape().begin(), src.shape().end());
          shape[0] = n;
          dst.resize(shape);  // no allocation when the size is the last batch's
        }(),
        ...);
  }(std::index_sequence_for<T...>{});
}

/// Row k of every component of the batch `out` = row r of `tensors`.
template <class... T>
void gather_row(const std::tuple<xt::xarray<T>...>& tensors, std::size_t r, std::tuple<xt::xarray<T>...>& out,
                std::size_t k) {
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          const auto& src = std::get<C>(tensors);
          const std::size_t row = src.shape()[0] ? src.size() / src.shape()[0] : 0;
          std::copy(src.data() + r * row, src.data() + (r + 1) * row, std::get<C>(out).data() + k * row);
        }(),
        ...);
  }(std::index_sequence_for<T...>{});
}

/// A list of row indices, saved as "<key>" (int64 [count]).
inline void put_rows(iterator_state& s, const std::string& key, const std::vector<std::size_t>& rows) {
  xt::xarray<std::int64_t> a = xt::xarray<std::int64_t>::from_shape({rows.size()});
  std::copy(rows.begin(), rows.end(), a.data());
  s[key] = tensor(std::move(a));
}

/// The row indices put_rows saved: at most max_count of them, each below `size`.
inline std::vector<std::size_t> get_rows(const iterator_state& s, const std::string& key, std::int64_t max_count,
                                         std::size_t size) {
  const tensor& t = state_entry(s, key);
  if (!t.holds<std::int64_t>() || t.rank() != 1)
    throw invalid_argument_error("The iterator state's entry '" + key + "' is " + t.description() +
                                 ", not int64 [n] (row indices)");
  const auto& a = t.as<std::int64_t>();
  if (a.size() > static_cast<std::size_t>(max_count))
    throw invalid_argument_error("The iterator state's entry '" + key + "' holds " + std::to_string(a.size()) +
                                 " rows, more than the buffer's " + std::to_string(max_count));
  std::vector<std::size_t> rows(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a(i) < 0 || static_cast<std::size_t>(a(i)) >= size)
      throw invalid_argument_error("The iterator state's entry '" + key + "' holds the row " + std::to_string(a(i)) +
                                   ", outside [0, " + std::to_string(size) + ")");
    rows[i] = static_cast<std::size_t>(a(i));
  }
  return rows;
}

}  // namespace typeflow::data::detail
