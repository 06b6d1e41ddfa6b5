// typeflow/data/detail/host_copy.hpp — a graph dataset's copy of a node's value (the
// initializer's run copies the fed tensors once: the dataset outlives the run).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <xtensor/xarray.hpp>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace typeflow::data::detail {

/// Asks the kernel for transparent huge pages on [p, p + bytes) before it is first written:
/// a fresh copy of a large tensor (188 MB for 60,000 images) then costs a few hundred page
/// faults instead of tens of thousands. A hint only: nothing changes where it is refused.
inline void prefer_huge_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  if (bytes < 4 * huge) return;
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = (at + huge - 1) & ~(huge - 1), end = (at + bytes) & ~(huge - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

/// An owning row-major copy of v: one allocation, one memory copy when v is a contiguous
/// row-major container (no element-wise assignment), xtensor's assignment otherwise.
template <class T, class E>
xt::xarray<T> host_copy(const E& v) {
  if constexpr (requires { v.data(); v.is_contiguous(); v.layout(); }) {
    bool at_start = true;  // a view's data() is its underlying container's first element
    if constexpr (requires { v.data_offset(); }) at_start = v.data_offset() == 0;
    if (at_start && v.is_contiguous() && v.layout() == xt::layout_type::row_major) {
      // The shape goes to from_shape as it is: a copy of an xt::svector made here first, once
      // inlined, drew g++ 12's -Wmaybe-uninitialized (a false positive) at -O1.
      auto a = xt::xarray<T>::from_shape(v.shape());  // not value-initialized: overwritten below
      prefer_huge_pages(a.data(), a.size() * sizeof(T));
      std::copy(v.data(), v.data() + a.size(), a.data());
      return a;
    }
  }
  return xt::xarray<T>(v);
}

}  // namespace typeflow::data::detail
