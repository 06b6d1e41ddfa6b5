// typeflow/core/detail/first_duplicate.hpp — the one scan for a name used twice: full names
// of a graph's nodes (graph/traverse.hpp), checkpoint keys of a saver
// (train/saver_entries.hpp), keys and names of signatures (saved_model/signature.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace typeflow {

namespace core::detail {

/// The index of the first of `names` that an earlier one equals, or N if all differ.
template <std::size_t N>
constexpr std::size_t first_duplicate(const std::array<std::string_view, N>& names) {
  for (std::size_t i = 1; i < N; ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j]) return i;
  return N;
}

/// Names... (fixed_strings, as a type list spells them: `name_array<N::name...>`) as an array.
template <auto... Names>
inline constexpr std::array<std::string_view, sizeof...(Names)> name_array{std::string_view(Names)...};

/// The index of the first of Names... that an earlier one equals, or sizeof...(Names):
/// `first_duplicate_of<E::key...>`.
template <auto... Names>
inline constexpr std::size_t first_duplicate_of = first_duplicate(name_array<Names...>);

}  // namespace core::detail

}  // namespace typeflow
