// typeflow/debug/print.hpp — tf.Print: an identity that writes values when it runs.
#pragma once

#include <ostream>
#include <string_view>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"

namespace typeflow {

namespace debug::detail {

// TensorFlow's tf.Print format: each tensor in brackets, the first `summarize` elements,
// "..." when there are more; rank > 1 nests brackets per dimension.
template <class V>
void print_value(std::ostream& os, const V& v, std::size_t summarize) {
  if constexpr (std::is_arithmetic_v<V>) {
    os << '[' << +v << ']';
  } else {
    const auto& s = v.shape();
    const std::size_t rank = s.size();
    if (rank == 0) {
      os << '[' << +*v.begin() << ']';
      return;
    }
    std::size_t printed = 0;
    auto it = v.begin();
    const std::size_t total = v.size();
    // Walk the elements in row-major order, opening and closing brackets by dimension.
    std::array<std::size_t, 16> idx{};
    for (std::size_t d = 0; d < rank; ++d) os << '[';
    for (std::size_t i = 0; i < total && printed < summarize; ++i, ++it, ++printed) {
      if (i != 0) {
        std::size_t closed = 0;
        for (std::size_t d = rank; d-- > 1 && idx[d] == 0;) ++closed;
        for (std::size_t c = 0; c < closed; ++c) os << ']';
        if (closed == 0) os << ' ';
        for (std::size_t c = 0; c < closed; ++c) os << '[';
      }
      os << +*it;
      for (std::size_t d = rank; d-- > 0;) {
        if (++idx[d] < s[d]) break;
        idx[d] = 0;
      }
    }
    if (printed < total) os << "...";
    for (std::size_t d = 0; d < rank; ++d) os << ']';
  }
}

}  // namespace debug::detail

template <fixed_string Message, std::size_t Summarize, class X, class... Watched>
struct print_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::effect, X, Watched...>,
                    op_info<"Print"> {
  static constexpr auto message = Message;
  using forwards = X;
  // An identity for gradients.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, G, no_gradient>;
  template <class... N>
  using rebind = print_node<Message, Summarize, N...>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    std::ostream& os = ctx.session.print_stream();
    os << Message.view();
    (debug::detail::print_value(os, ctx.template value<Watched>(), Summarize), ...);
    os << '\n';
  }
};

/// `print<"message">(x, a, b)` is tf.Print(x, [a, b], "message"): x's value, and when a
/// run's path flows through it, writes the message and a, b to the session's print stream
/// (std::cerr unless session::set_print_stream chose another). Off the path, or when x is
/// fed, it prints nothing. `print<"m", 10>(...)` prints up to 10 elements per tensor.
template <fixed_string Message, std::size_t Summarize = 3, node X, node... Watched>
constexpr print_node<Message, Summarize, X, Watched...> print(const X& x, const Watched&... watched) {
  return make_node<print_node<Message, Summarize, X, Watched...>>(x, watched...);
}

}  // namespace typeflow
