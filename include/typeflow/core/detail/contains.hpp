// typeflow/core/detail/contains.hpp — membership and counts over a type list, by builtin
// type identity (contains_v, count_v in core/node.hpp).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <type_traits>

namespace typeflow {

namespace core::detail {

// Both answer with a std::bool_constant / std::integral_constant base, computed by a
// function that is not a template: no static data member, lambda or function per query.
// Each of those would be a symbol whose mangled name spells L and V (in a large graph, a
// node's whole graph), and g++ names every symbol it creates, in time growing with the
// square of the name's length.
//
// An array, not a fold expression: a fold over a long pack builds an expression tree per
// instantiation (counting the consumers of every node of a large graph made g++ hold
// gigabytes of them), and clang bounds folds to 256 operands.
constexpr bool any_of(std::initializer_list<bool> hits) {
  for (bool h : hits)
    if (h) return true;
  return false;
}
constexpr std::size_t count_of(std::initializer_list<bool> hits) {
  std::size_t n = 0;
  for (bool h : hits) n += h;
  return n;
}

/// Membership without instantiating a class per query: builtin type identity over a pack.
template <class L, class V>
struct contains_impl;
template <template <class...> class L, class... T, class V>
struct contains_impl<L<T...>, V> : std::bool_constant<any_of({__is_same(T, V)..., false})> {};
template <class L, class V>
struct count_impl;
template <template <class...> class L, class... T, class V>
struct count_impl<L<T...>, V> : std::integral_constant<std::size_t, count_of({__is_same(T, V)..., false})> {};
}  // namespace core::detail

}  // namespace typeflow
