// typeflow/session/detail/steps.hpp — what a run executes, described by types with short
// names (where a value is, what a step does), and the functions that evaluate them.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <xtensor/xnoalias.hpp>

#include "typeflow/core/detail/independent_loop.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/session/detail/buffers.hpp"
#include "typeflow/session/detail/storage.hpp"
#include "typeflow/session/diagnostics.hpp"

namespace typeflow::session_detail {

// --- what a run executes, described by types with short names -----------------------------
//
// Every function the compiler generates is named by its template arguments, and a node's
// type spells its whole graph: functions per node named by node types (or by the session
// or the run's context, which name the roots and fetches) cost the compiler time and
// memory that grow faster than the square of the graph (name mangling, most of the time
// of a 400-node chain). So a run's steps are described by small types: where a value is
// (the K-th feed, buffer J of group G, a variable, a literal), the op's scalar function,
// a compute op's kernel (its node rebuilt on operands that keep only element types and
// shapes: plan.hpp's compute_kernel_t), and the node type only for effect nodes.
//
// The same holds for what the steps reach, the run's environment (run_env), whose type
// names every function of a run: it knows the buffers' types, but the feeds, the
// session's variables and its definitions only by address, each source saying where
// its value is and of what type. Typed, the session's state spelled every variable's
// name and the feeds every placeholder's: 50 to 66 KB of each such function's name in
// the bucketed seq2seq training program, most of its symbol text.

template <std::size_t K, class V>
struct feed_src {};  // the K-th feed's value, a V
template <std::size_t I, class T>
struct var_src {};  // the value, a T, of the I-th of the session's variables
template <std::size_t I, class D>
struct def_src {};  // the I-th of the session's definitions, a D (a named constant's)
template <class N>
struct leaf_src {};  // a literal (N::value), or a named constant the fetch carries
template <class N>
struct unfed_src {};  // a placeholder without a feed: rejected before anything runs
template <std::size_t G, std::size_t J>
struct buf_src {  // buffer J of group G
  static constexpr std::size_t group = G;
  static constexpr std::size_t index = J;
};
template <class Fn, class... S>
struct fn_src {};  // elementwise Fn over the values S..., fused (lazy, or a scalar)
template <class N, class... S>
struct node_src {};  // an elementwise node without a `function`: N::apply(S...)

struct no_step {};
template <class Out, class Src>
struct assign_step {};  // Out = Src
template <class Out, std::size_t Total, std::size_t Row, class Expr>
struct flat_step {};  // Out's elements, one loop over Expr
template <class N, class Out, class... S>
struct compute_step {};  // N::compute(Out, S...), N a compute op's kernel
template <class N, class Ctx>
struct effect_step {};  // N::run(ctx)

// How a flat loop reads an operand: by the output's flat index (the operand has the
// output's shape), as its one element, or by the index within a row (the operand is a
// trailing part of the output's shape, a bias row).
enum class flat_read { by_element, single, by_row };
/// How a leaf of n elements is read in the flat loop of a root of `root` elements.
constexpr flat_read flat_read_of(std::size_t n, std::size_t root) {
  return n == root ? flat_read::by_element : n == 1 ? flat_read::single : flat_read::by_row;
}

// A flat loop's expression: Fn over its arguments, or an operand read as Read says.
template <class Fn, class... X>
struct flat_fn {};
template <class Src, flat_read Read>
struct flat_leaf {};

/// What a step reaches: the run's buffers and feeds, the session's variables and
/// definitions, and the run_context (for effect nodes). Only the buffers and the
/// fetch's own definitions (usually none) are typed here; see above.
template <class Buffers, class Extra>
struct run_env {
  Buffers& buffers;
  const void* const* feeds;        // the K-th feed's value (feed_src)
  void* const* variables;          // the session's variables' values, by position (var_src)
  const void* const* definitions;  // the session's definitions, by position (def_src)
  void* ctx;
  const Extra* extra;  // definitions the fetches carry that the session does not hold
};

template <std::size_t G, std::size_t J, class E>
auto& buffer_ref(buf_src<G, J>, E& e) noexcept {
  return group_items<G>(e.buffers)[J];
}

template <std::size_t K, class V, class E>
const V& eval(feed_src<K, V>, E& e) noexcept {
  return *static_cast<const V*>(e.feeds[K]);
}
template <std::size_t I, class T, class E>
const T& eval(var_src<I, T>, E& e) noexcept {
  return *static_cast<const T*>(e.variables[I]);
}
template <std::size_t I, class D, class E>
const auto& eval(def_src<I, D>, E& e) noexcept {
  return std::as_const(**static_cast<const D*>(e.definitions[I]));
}

template <class N, class E>
decltype(auto) eval(leaf_src<N>, E& e) {
  if constexpr (literal_node_type<N>) {
    return (N::value);
  } else if constexpr (std::remove_cvref_t<decltype(*e.extra)>::template holds<N>) {
    return std::as_const(*e.extra->template slot<N>().value);  // carried by the fetch
  } else {
    static_assert(constant_is_not_in_the_sessions_graph<N::name>::value,
                  "the run's path uses a named constant that neither the session nor the fetch carries: "
                  "build the fetch from the constant's node, not from its type");
    return result_t<N>{};  // inert: the error above is the one to read
  }
}
template <class N, class E>
auto eval(unfed_src<N>, E&) {
  // Reached only after the unfed-placeholder diagnostic: an inert value, no second error.
  return result_t<N>{};
}
template <std::size_t G, std::size_t J, class E>
const auto& eval(buf_src<G, J> b, E& e) {
  return std::as_const(buffer_ref(b, e));
}
template <class Fn, class... S, class E>
auto eval(fn_src<Fn, S...>, E& e) {
  return ops::detail::apply_elementwise<Fn>(eval(S{}, e)...);
}
template <class N, class... S, class E>
auto eval(node_src<N, S...>, E& e) {
  return N::apply(eval(S{}, e)...);
}

// --- the flat loop of a fused elementwise tree with a static output shape ---------------
template <class P, flat_read Read>
struct flat_arg {
  P p;  // a pointer to the operand's elements, or the scalar itself
  auto at(std::size_t k, std::size_t j) const {
    if constexpr (!std::is_pointer_v<P>) {
      return p;
    } else if constexpr (Read == flat_read::by_element) {
      return p[k];
    } else if constexpr (Read == flat_read::single) {
      return p[0];
    } else {
      return p[j];
    }
  }
};
template <class Fn, class... A>
struct flat_call {
  std::tuple<A...> args;
  auto at(std::size_t k, std::size_t j) const { return at(k, j, std::index_sequence_for<A...>{}); }
  template <std::size_t... I>
  auto at(std::size_t k, std::size_t j, std::index_sequence<I...>) const {
    return Fn{}(std::get<I>(args).at(k, j)...);
  }
};
template <class Src, flat_read Read, class E>
auto bind_flat(flat_leaf<Src, Read>, E& e) {
  const auto& v = eval(Src{}, e);
  if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(v)>>) {
    return flat_arg<std::remove_cvref_t<decltype(v)>, Read>{v};
  } else {
    return flat_arg<decltype(v.data()), Read>{v.data()};
  }
}
template <class Fn, class... X, class E>
auto bind_flat(flat_fn<Fn, X...>, E& e) {
  return flat_call<Fn, decltype(bind_flat(X{}, e))...>{{bind_flat(X{}, e)...}};
}

template <std::size_t Total, std::size_t Row, class T, class B>
void flat_loop(T* __restrict o, const B& b) {
  // The output buffer is the node's own and no operand aliases it: no dependence
  // between iterations (GCC 12 at -O2 vectorizes only loops that need no alias checks).
  if constexpr (Row == Total) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
    for (std::size_t k = 0; k < Total; ++k) o[k] = static_cast<T>(b.at(k, k));
  } else {
    // A row whose length is no multiple of the vector length (a GRU(10)'s 10, 30) in
    // loops of constant trip counts that are (independent_loop).
    for (std::size_t r = 0; r < Total / Row; ++r) {
      T* __restrict orow = o + r * Row;
      core::detail::independent_loop<Row>([&](std::size_t j) { orow[j] = static_cast<T>(b.at(r * Row + j, j)); });
    }
  }
}

// --- the steps ----------------------------------------------------------------------------
template <class E>
void run_step(no_step, E&) {}
template <class Out, class Src, class E>
void run_step(assign_step<Out, Src>, E& e) {
  auto& out = buffer_ref(Out{}, e);
  if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(out)>>) {
    out = eval(Src{}, e);
  } else {
    xt::noalias(out) = eval(Src{}, e);
  }
}
template <class Out, std::size_t Total, std::size_t Row, class Expr, class E>
void run_step(flat_step<Out, Total, Row, Expr>, E& e) {
  auto& out = buffer_ref(Out{}, e);
  const auto b = bind_flat(Expr{}, e);
  flat_loop<Total, Row>(out.data(), b);
}
template <class N, class Out, class... S, class E>
void run_step(compute_step<N, Out, S...>, E& e) {
  N::compute(buffer_ref(Out{}, e), eval(S{}, e)...);
}
template <class N, class Ctx, class E>
void run_step(effect_step<N, Ctx>, E& e) {
  N::run(*static_cast<Ctx*>(e.ctx));
}


}  // namespace typeflow::session_detail
