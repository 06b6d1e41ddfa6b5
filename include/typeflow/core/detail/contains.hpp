// typeflow/core/detail/contains.hpp — membership and counts over a type list, by builtin
// type identity (contains_v, count_v in core/node.hpp). Includes only <cstddef>.
#pragma once

#include <cstddef>

namespace typeflow {

namespace core::detail {

/// Membership without instantiating a class per query: builtin type identity over a pack.
template <class L, class V>
struct contains_impl;
template <template <class...> class L, class... T, class V>
struct contains_impl<L<T...>, V> {
  static constexpr bool value = [] {
    constexpr bool hits[] = {__is_same(T, V)..., false};
    for (bool h : hits)
      if (h) return true;
    return false;
  }();
};
template <class L, class V>
struct count_impl;
template <template <class...> class L, class... T, class V>
struct count_impl<L<T...>, V> {
  // An array, not a fold expression: a fold over a long pack builds an expression tree
  // per instantiation, and counting the consumers of every node of a large graph made
  // g++ hold gigabytes of them.
  static constexpr std::size_t value = [] {
    constexpr bool hits[] = {__is_same(T, V)..., false};
    std::size_t n = 0;
    for (bool h : hits) n += h;
    return n;
  }();
};
}  // namespace core::detail

}  // namespace typeflow
