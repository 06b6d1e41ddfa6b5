// typeflow/ops/detail/rewrite_forms.hpp — what the rewrite rules of ops/rewrite.hpp know of
// a node: its form (a literal 0, 1, a power of two, a negation, x * c, ...) and whether its
// literal inputs fold into one literal.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/state.hpp"

namespace typeflow {

namespace ops::detail {

// --- what the rules ask of a node ----------------------------------------------------------
//
// What the rules need to know of a node is its form (form_of<N>: a literal 0, 1, a power of
// two, a negation, a subtraction, x * c, ...), one class per node, computed once and read by
// each consumer; a node's rule is then chosen by a constexpr function of its op
// and its inputs' forms. Every question about a node is a class (a std::integral_constant),
// never a function or variable template over node types: each of those is an entity g++
// names after the node's type, which spells its whole graph (docs/ARCHITECTURE.md,
// "Compile time in large graphs"; a first version of this file, with constexpr functions
// per node, doubled the compile time of the N = 800 chain).

template <class T>
using number = std::bool_constant<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>>;

/// |v| is a power of two and a normal number: multiplying by v only changes the exponent,
/// so it is exact unless the result overflows or is subnormal. (Templated on the element
/// type only, as every function here.)
template <class T>
constexpr bool power_of_two(T v) {
  if constexpr (!std::is_floating_point_v<T>) {
    return false;
  } else {
    T a = v < T(0) ? -v : v;
    if (!(a >= std::numeric_limits<T>::min() && a <= std::numeric_limits<T>::max())) return false;
    while (a >= T(2)) a /= T(2);
    while (a < T(1)) a *= T(2);
    return a == T(1);
  }
}

/// v's magnitude is a normal number (neither zero, subnormal, infinite nor NaN).
template <class T>
constexpr bool normal(T v) {
  const T a = v < T(0) ? -v : v;
  return a >= std::numeric_limits<T>::min() && a <= std::numeric_limits<T>::max();
}

enum class form : unsigned char {
  other,
  zero,           // a literal 0 (or -0.0)
  one,            // a literal 1
  pow2,           // a literal power of two other than 1 (floating point)
  literal,        // another literal
  neg,            // -x
  sub,            // a - b
  scaled,         // x * c, c a pow2 literal: the form literal factors are kept in
  times_literal,  // x * c, c another literal
};
constexpr bool is_literal_form(form f) {
  return f == form::zero || f == form::one || f == form::pow2 || f == form::literal;
}
template <class T>
constexpr form literal_form(T v) {
  if constexpr (!number<T>::value) {
    return form::literal;
  } else {
    return v == T(0) ? form::zero : v == T(1) ? form::one : power_of_two(v) ? form::pow2 : form::literal;
  }
}

template <class N>
struct form_of : std::integral_constant<form, form::other> {};
template <auto V, element_type T>
struct form_of<literal_node<V, T>> : std::integral_constant<form, literal_form(literal_node<V, T>::value)> {};
template <class X>
struct form_of<elementwise_node<fn::neg, X>> : std::integral_constant<form, form::neg> {};
template <class A, class B>
struct form_of<elementwise_node<fn::sub, A, B>> : std::integral_constant<form, form::sub> {};
template <class X, class C>
struct form_of<elementwise_node<fn::mul, X, C>>
    : std::integral_constant<form, form_of<C>::value == form::pow2 ? form::scaled
                                   : is_literal_form(form_of<C>::value) ? form::times_literal
                                                                        : form::other> {};

/// N is `x * c`, c a power-of-two literal: the form the rules keep literal factors in, which
/// train::gradient_descent combines with its learning rate.
template <class N>
using scaled_c = std::bool_constant<form_of<N>::value == form::scaled>;

// --- constant folding ----------------------------------------------------------------------

// The ops folded, and how: in the element type for floating point (the same IEEE operation
// the run would do), in long long for integers of 32 bits or fewer, kept only if the result
// is representable (TensorFlow's int32 wraps; a literal subgraph that overflows stays).
template <class Fn>
inline constexpr bool foldable = false;
template <> inline constexpr bool foldable<fn::add> = true;
template <> inline constexpr bool foldable<fn::sub> = true;
template <> inline constexpr bool foldable<fn::mul> = true;
template <> inline constexpr bool foldable<fn::div> = true;
template <> inline constexpr bool foldable<fn::neg> = true;
template <> inline constexpr bool foldable<fn::square> = true;
template <> inline constexpr bool foldable<fn::abs> = true;
template <> inline constexpr bool foldable<fn::maximum> = true;
template <> inline constexpr bool foldable<fn::minimum> = true;
template <> inline constexpr bool foldable<fn::identity> = true;
template <> inline constexpr bool foldable<fn::stop_gradient> = true;

template <class T>
struct folded {
  bool ok;
  T value;
};

template <class Fn, class T, class... L>
constexpr folded<T> fold_literals() {
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (std::is_same_v<Fn, fn::div>) {
      if (mp::mp_back<mp::mp_list<L...>>::value == T(0)) return {false, T(0)};  // the divisor: x / 0 stays
    }
    const T r = Fn{}(L::value...);
    const bool finite = r == r && r <= std::numeric_limits<T>::max() && r >= std::numeric_limits<T>::lowest();
    return {finite, finite ? r : T(0)};
  } else if constexpr (std::is_integral_v<T> && sizeof(T) <= 4 && number<T>::value) {
    if constexpr (std::is_same_v<Fn, fn::div>) {
      if (mp::mp_back<mp::mp_list<L...>>::value == T(0)) return {false, T(0)};
    }
    const long long r = Fn{}(static_cast<long long>(L::value)...);
    const bool fits = r >= static_cast<long long>(std::numeric_limits<T>::min()) &&
                      r <= static_cast<long long>(std::numeric_limits<T>::max());
    return {fits, fits ? static_cast<T>(r) : T(0)};
  } else {
    return {false, T{}};
  }
}

// Whether every input of M is a literal: a type, not a static member of a class named by M
// (docs/ARCHITECTURE.md, "Compile time in large graphs").
template <class M, class In = inputs_of<M>>
struct fold;
template <class M, class... L>
struct fold<M, mp::mp_list<L...>> {
  static constexpr folded<value_type_of<M>> result = [] {
    if constexpr (foldable<typename M::function>) {
      return fold_literals<typename M::function, value_type_of<M>, L...>();
    } else {
      return folded<value_type_of<M>>{false, {}};
    }
  }();
};

}  // namespace ops::detail

}  // namespace typeflow
