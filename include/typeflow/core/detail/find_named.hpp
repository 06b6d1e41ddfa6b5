// typeflow/core/detail/find_named.hpp — lookup by name in the short lists of the
// descriptions read at run time: a checkpoint's tensors (io/checkpoint/format.hpp), a
// graph's nodes (graph/naming.hpp), a meta graph's signatures (saved_model/description.hpp).
#pragma once

#include <string_view>

namespace typeflow {

namespace core::detail {

/// The first element of `range` whose member `name` equals `name`, or nullptr.
template <class Range>
auto find_named(Range& range, std::string_view name) noexcept -> decltype(&*range.begin()) {
  for (auto& element : range)
    if (element.name == name) return &element;
  return nullptr;
}

}  // namespace core::detail

}  // namespace typeflow
