// typeflow/core/fixed_string.hpp — compile-time strings usable as template arguments.
//
// Names of placeholders, variables and constants are part of their types, so they
// are `fixed_string` non-type template arguments: `placeholder<"x", float, shape<>>`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

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
