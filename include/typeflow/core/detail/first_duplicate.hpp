// typeflow/core/detail/first_duplicate.hpp — the one scan for a name used twice: full names
// of a graph's nodes (graph/traverse.hpp), checkpoint keys of a saver
// (train/saver_entries.hpp), keys of a signature (saved_model/signature.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace typeflow {

namespace core::detail {

/// The index of the first of `names` that an earlier one equals, or N if all differ.
/// Compile-time checks call it on the names of a type list, spelled as an array:
/// `first_duplicate(std::array<std::string_view, sizeof...(E)>{E::key.view()...})`.
template <std::size_t N>
constexpr std::size_t first_duplicate(const std::array<std::string_view, N>& names) {
  for (std::size_t i = 1; i < N; ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j]) return i;
  return N;
}

}  // namespace core::detail

}  // namespace typeflow
