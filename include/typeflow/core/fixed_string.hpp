// typeflow/core/fixed_string.hpp — compile-time strings usable as template arguments.
//
// Names of placeholders, variables and constants are part of their types, so they
// are `fixed_string` non-type template arguments: `placeholder<"x", float, shape<>>`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace typeflow {

/// A string literal held by value, so that it can be a template argument.
/// `N` counts the terminating NUL, as for the literal it is made from.
template <std::size_t N>
struct fixed_string {
  char data[N]{};

  constexpr fixed_string() = default;
  constexpr fixed_string(const char (&s)[N]) { std::copy_n(s, N, data); }  // NOLINT: implicit on purpose

  static constexpr std::size_t size() noexcept { return N - 1; }
  constexpr std::string_view view() const noexcept { return {data, N - 1}; }
  constexpr operator std::string_view() const noexcept { return view(); }  // NOLINT

  template <std::size_t M>
  constexpr bool operator==(const fixed_string<M>& other) const noexcept {
    return view() == other.view();
  }
};

template <std::size_t N>
fixed_string(const char (&)[N]) -> fixed_string<N>;

/// `a + "/" + b`, the way scoped names compose: `join<"layer1", "w">` is "layer1/w".
template <fixed_string A, fixed_string B>
constexpr auto join_names() {
  if constexpr (A.size() == 0) {
    return B;
  } else {
    fixed_string<A.size() + B.size() + 2> out{};
    std::copy_n(A.data, A.size(), out.data);
    out.data[A.size()] = '/';
    std::copy_n(B.data, B.size() + 1, out.data + A.size() + 1);
    return out;
  }
}

/// A name as a type, one component a level: "a/b/c" is
/// name_path<name_path<name_path<void, "a">, "b">, "c"> (name_path_t<"a/b/c">), and `value`
/// is the name again. Named nodes and scoped ops hold their names so
/// (placeholder_node<"x", T, S> is named_placeholder<name_path_t<"x">, T, S>): a string
/// template argument is spelled out, a character at a time, at each use in a mangled name,
/// where a type used twice in one name is spelled once and then referred to; names that
/// share a scope then share its components (docs/ARCHITECTURE.md, "Compile time in large
/// graphs").
template <class Parent, fixed_string Leaf>
struct name_path {
  static constexpr auto value = join_names<Parent::value, Leaf>();
};
template <fixed_string Leaf>
struct name_path<void, Leaf> {
  static constexpr auto value = Leaf;
};

namespace core::detail {
template <fixed_string S, std::size_t Begin, std::size_t End>
constexpr auto substring() {
  fixed_string<End - Begin + 1> out{};
  for (std::size_t i = Begin; i < End; ++i) out.data[i - Begin] = S.data[i];
  return out;
}
template <fixed_string S>
constexpr std::size_t last_slash() {  // S.size() when S has none
  for (std::size_t i = S.size(); i-- > 0;)
    if (S.data[i] == '/') return i;
  return S.size();
}
template <fixed_string S, bool Nested = (last_slash<S>() < S.size())>
struct name_path_of {
  using type = name_path<void, S>;
};
template <fixed_string S>
struct name_path_of<S, true> {
  static constexpr std::size_t slash = last_slash<S>();
  using split = name_path<typename name_path_of<substring<S, 0, slash>()>::type, substring<S, slash + 1, S.size()>()>;
  // A name the components do not spell again ("/a": join_names drops an empty prefix)
  // stays one component.
  using type = std::conditional_t<split::value == S, split, name_path<void, S>>;
};
}  // namespace core::detail

template <fixed_string S>
using name_path_t = typename core::detail::name_path_of<S>::type;

/// The number of decimal digits of v.
constexpr std::size_t decimal_digits(unsigned long long v) { return v < 10 ? 1 : 1 + decimal_digits(v / 10); }

/// Prefix followed by N in decimal: `numbered_name<"dropout/random_state_", 7>()` is
/// "dropout/random_state_7" (the hidden counters of the seeded random ops).
template <fixed_string Prefix, unsigned long long N>
constexpr auto numbered_name() {
  constexpr std::size_t digits = decimal_digits(N);
  fixed_string<Prefix.size() + digits + 1> s{};
  for (std::size_t i = 0; i < Prefix.size(); ++i) s.data[i] = Prefix.data[i];
  unsigned long long v = N;
  for (std::size_t i = digits; i-- > 0; v /= 10) s.data[Prefix.size() + i] = static_cast<char>('0' + v % 10);
  return s;
}

}  // namespace typeflow
