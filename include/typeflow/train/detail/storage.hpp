// typeflow/train/detail/storage.hpp — element access to a variable's storage and a
// gradient's value (a tensor or a scalar), for the optimizers' update loops.
#pragma once

#include <cstddef>
#include <type_traits>

namespace typeflow::train::detail {

// Element loops over a variable's storage and its gradient value.
template <class Storage>
auto* data_of(Storage& s) {
  if constexpr (std::is_arithmetic_v<std::remove_cvref_t<Storage>>) {
    return &s;
  } else {
    return s.data();
  }
}
template <class Storage>
std::size_t size_of(const Storage& s) {
  if constexpr (std::is_arithmetic_v<Storage>) {
    return 1;
  } else {
    return s.size();
  }
}

}  // namespace typeflow::train::detail
