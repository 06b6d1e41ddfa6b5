// typeflow/ops/rewrite.hpp — the graph a run evaluates: the user's graph rewritten, type to
// type, before it is planned (TensorFlow's Grappler, done by the compiler).
//
// `rewrite_t<N>` is N with every rule of docs/reference/graph-rewrites.md applied: literal
// subgraphs folded, `x * 1`, `x + 0`, `x - 0`, `x / 1`, identities, double negations and
// negations under + and - removed, literal factors that are powers of two moved outward and
// combined. Each rule's exactness is stated there; none changes a value except for the sign
// of a zero where the page says so, or a product that overflows or is subnormal before a
// factor of two is applied.
//
// The stage is a function of the node's type: each node type is rewritten once (a class
// instantiation, memoized by the compiler), its inputs first, so the cost is linear in the
// graph's size. A node is rebuilt over its rewritten inputs when it says how
// (`template <class... In> using rebind`, as elementwise and most compute ops do, or
// `template <template <class> class F> using rebuild`, as an optimizer's update node does);
// other nodes, and every leaf, stay as they are, with their inputs.
//
// The session rewrites a run's fetches (`run_fetches_t`) and plans the result; the graph's
// names, export and saved models are the user's graph (rewrites are an execution detail, as
// in TensorFlow). Identical subexpressions are one node before and after: a node's type is
// its identity (DESIGN rule 1), which is TensorFlow's common-subexpression elimination.
#pragma once

#include <cstddef>
#include <limits>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/state.hpp"

namespace typeflow {

namespace ops::detail {
template <class N>
struct rewrite_node;
}  // namespace ops::detail

/// N rewritten (docs/reference/graph-rewrites.md): the node a run evaluates in its place.
template <class N>
using rewrite_t = typename ops::detail::rewrite_node<N>::type;

/// The rewritten node as an object, carrying the definitions `n` carries: describe_graph of
/// it shows what a run evaluates (`describe_graph(rewritten(train_op))`).
template <node N>
constexpr auto rewritten(const N& n) {
  return make_node<rewrite_t<N>>(n);
}

namespace ops::detail {

// --- what the rules ask of a node ----------------------------------------------------------

template <class N>
struct ew_parts {
  static constexpr bool is_ew = false;
  using function = void;
};
template <class Fn, class... In>
struct ew_parts<elementwise_node<Fn, In...>> {
  static constexpr bool is_ew = true;
  using function = Fn;
};

/// N is the elementwise op Fn (not a scoped one: a scope names its op, which stays).
template <class N, class Fn>
inline constexpr bool is_op = std::is_same_v<typename ew_parts<N>::function, Fn>;

template <class N, std::size_t I>
using input = mp::mp_at_c<inputs_of<N>, I>;

template <class T>
inline constexpr bool number = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

/// A literal whose value is V (compared in its own element type).
template <class N, int V>
constexpr bool literal_is() {
  if constexpr (literal_node_type<N>) {
    return number<value_type_of<N>> && N::value == static_cast<value_type_of<N>>(V);
  } else {
    return false;
  }
}

/// |v| is a power of two and a normal number: multiplying by v only changes the exponent,
/// so it is exact unless the result overflows or is subnormal.
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
template <class N>
constexpr bool power_of_two_literal() {
  if constexpr (literal_node_type<N>) {
    return power_of_two(N::value);
  } else {
    return false;
  }
}
/// N is `X * c`, c a literal.
template <class N>
constexpr bool times_literal() {
  if constexpr (is_op<N, fn::mul>) {
    return literal_node_type<input<N, 1>>;
  } else {
    return false;
  }
}
/// N is `X * c`, c a power-of-two literal (the form the rules keep literal factors in).
template <class N>
constexpr bool scaled() {
  if constexpr (is_op<N, fn::mul>) {
    return power_of_two_literal<input<N, 1>>();
  } else {
    return false;
  }
}

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
  } else if constexpr (std::is_integral_v<T> && sizeof(T) <= 4 && number<T>) {
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
template <class In>
struct literal_inputs;
template <class... L>
struct literal_inputs<mp::mp_list<L...>> : std::bool_constant<sizeof...(L) != 0 && (literal_node_type<L> && ...)> {};

/// The value of M, an op over literals only (a short type), if it can be folded.
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

/// v's magnitude is a normal number (neither zero, subnormal, infinite nor NaN).
template <class T>
constexpr bool normal(T v) {
  const T a = v < T(0) ? -v : v;
  return a >= std::numeric_limits<T>::min() && a <= std::numeric_limits<T>::max();
}

// --- the rules -------------------------------------------------------------------------------

template <class N>
struct simplify;
template <class N>
using simplify_t = typename simplify<N>::type;

template <class Fn, class... In>
using op = elementwise_node<Fn, In...>;

/// M, whose inputs are rewritten already, with the first rule that applies applied at its
/// top (and again at the top of what a rule builds).
template <class M>
consteval auto simplified() {
  using T = value_type_of<M>;
  if constexpr (!ew_parts<M>::is_ew) {
    return std::type_identity<M>{};
  } else if constexpr (literal_inputs<inputs_of<M>>::value) {
    // Constant folding (Grappler: ConstantFolding).
    if constexpr (fold<M>::result.ok) {
      return std::type_identity<literal_node<fold<M>::result.value, T>>{};
    } else {
      return std::type_identity<M>{};
    }
  } else if constexpr (is_op<M, fn::identity> || is_op<M, fn::stop_gradient>) {
    // Identity and StopGradient forward their input (Grappler: ModelPruner).
    return std::type_identity<input<M, 0>>{};
  } else if constexpr (!number<T>) {
    return std::type_identity<M>{};
  } else if constexpr (is_op<M, fn::mul>) {
    using A = input<M, 0>;
    using B = input<M, 1>;
    if constexpr (literal_is<B, 1>()) {  // x * 1 -> x
      return std::type_identity<A>{};
    } else if constexpr (literal_is<A, 1>()) {  // 1 * x -> x
      return std::type_identity<B>{};
    } else if constexpr (literal_node_type<A>) {  // c * x -> x * c: literal factors on the right
      return std::type_identity<simplify_t<op<fn::mul, B, A>>>{};
    } else if constexpr (std::is_floating_point_v<T> && literal_node_type<B> && times_literal<A>()) {
      // (x * c1) * c2 -> x * (c1 c2), if c1 or c2 is a power of two: the product is exact.
      using C1 = input<A, 1>;
      if constexpr ((power_of_two_literal<C1>() || power_of_two_literal<B>()) &&
                    fold<op<fn::mul, C1, B>>::result.ok && normal(fold<op<fn::mul, C1, B>>::result.value)) {
        return std::type_identity<simplify_t<op<fn::mul, input<A, 0>, literal_node<fold<op<fn::mul, C1, B>>::result.value, T>>>>{};
      } else {
        return std::type_identity<M>{};
      }
    } else if constexpr (scaled<A>() && !literal_node_type<B>) {
      // (x * c) * y -> (x * y) * c, c a power of two: the factor moves outward, where the
      // next factor or an optimizer's learning rate combines with it.
      return std::type_identity<simplify_t<op<fn::mul, simplify_t<op<fn::mul, input<A, 0>, B>>, input<A, 1>>>>{};
    } else if constexpr (scaled<B>()) {  // y * (x * c) -> (y * x) * c
      return std::type_identity<simplify_t<op<fn::mul, simplify_t<op<fn::mul, A, input<B, 0>>>, input<B, 1>>>>{};
    } else {
      return std::type_identity<M>{};
    }
  } else if constexpr (is_op<M, fn::div>) {
    if constexpr (literal_is<input<M, 1>, 1>()) {  // x / 1 -> x
      return std::type_identity<input<M, 0>>{};
    } else {
      return std::type_identity<M>{};
    }
  } else if constexpr (is_op<M, fn::add>) {
    using A = input<M, 0>;
    using B = input<M, 1>;
    if constexpr (literal_is<B, 0>()) {  // x + 0 -> x
      return std::type_identity<A>{};
    } else if constexpr (literal_is<A, 0>()) {  // 0 + x -> x
      return std::type_identity<B>{};
    } else if constexpr (is_op<B, fn::neg>) {  // a + (-b) -> a - b
      return std::type_identity<simplify_t<op<fn::sub, A, input<B, 0>>>>{};
    } else if constexpr (is_op<A, fn::neg>) {  // (-a) + b -> b - a
      return std::type_identity<simplify_t<op<fn::sub, B, input<A, 0>>>>{};
    } else {
      return std::type_identity<M>{};
    }
  } else if constexpr (is_op<M, fn::sub>) {
    using A = input<M, 0>;
    using B = input<M, 1>;
    if constexpr (literal_is<B, 0>()) {  // x - 0 -> x
      return std::type_identity<A>{};
    } else if constexpr (is_op<B, fn::neg>) {  // a - (-b) -> a + b
      return std::type_identity<simplify_t<op<fn::add, A, input<B, 0>>>>{};
    } else {
      return std::type_identity<M>{};
    }
  } else if constexpr (is_op<M, fn::neg>) {
    using A = input<M, 0>;
    if constexpr (is_op<A, fn::neg>) {  // -(-x) -> x
      return std::type_identity<input<A, 0>>{};
    } else if constexpr (std::is_floating_point_v<T> && is_op<A, fn::sub>) {  // -(a - b) -> b - a
      return std::type_identity<simplify_t<op<fn::sub, input<A, 1>, input<A, 0>>>>{};
    } else {
      return std::type_identity<M>{};
    }
  } else {
    return std::type_identity<M>{};
  }
}

template <class N>
struct simplify {
  using type = typename decltype(simplified<N>())::type;
};

// --- rebuilding a node over its rewritten inputs -----------------------------------------------

struct rewrite_fn {
  template <class In>
  using fn = typename rewrite_node<In>::type;
};

template <class N, class In = inputs_of<N>>
struct rebuilt {
  using type = N;  // a leaf, or a node that does not say how to rebuild it: as it is
};
template <class N, class... In>
  requires(sizeof...(In) > 0 && requires { typename N::template rebind<In...>; } &&
           !requires { typename N::template rebuild<rewrite_fn::template fn>; })
struct rebuilt<N, mp::mp_list<In...>> {
  using type = typename N::template rebind<typename rewrite_node<In>::type...>;
};
template <class N, class... In>
  requires(sizeof...(In) > 0 && requires { typename N::template rebuild<rewrite_fn::template fn>; })
struct rebuilt<N, mp::mp_list<In...>> {
  using type = typename N::template rebuild<rewrite_fn::template fn>;
};

template <class N>
struct rewrite_node {
  // An error here means that N, an input of some node, is not a typeflow node.
  using type = simplify_t<typename rebuilt<N>::type>;
};

// --- what a run evaluates ------------------------------------------------------------------

template <class L>
struct effect_count;
template <class... N>
struct effect_count<mp::mp_list<N...>>
    : std::integral_constant<std::size_t, (std::size_t{N::kind == node_kind::effect} + ... + 0)> {};

template <class L>
struct all_leaves;
template <class... N>
struct all_leaves<mp::mp_list<N...>> : std::bool_constant<((N::kind == node_kind::leaf) && ...)> {};

template <class Fetches>
struct rewrite_list;
template <class... F>
struct rewrite_list<mp::mp_list<F...>> {
  using type = mp::mp_list<rewrite_t<F>...>;
};

template <class Fetches, class Fed, bool = all_leaves<Fed>::value>
struct run_fetches {
  using type = Fetches;  // a fed op: its consumers read the fed value, so nothing is rewritten
};
template <class Fetches, class Fed>
struct run_fetches<Fetches, Fed, true> {
  using rewritten = typename rewrite_list<Fetches>::type;
  // A node the rewrite cannot rebuild keeps its inputs as they were: if an effect node is
  // below it and also below a rebuilt node, the rewritten path would hold it twice (once
  // rebuilt), and it would act twice. Then the run evaluates the user's graph.
  static constexpr bool consistent =
      effect_count<graph::path_order<rewritten, Fed>>::value == effect_count<graph::path_order<Fetches, Fed>>::value;
  using type = mp::mp_if_c<consistent, rewritten, Fetches>;
};

}  // namespace ops::detail

/// The fetches (an mp_list of nodes) a run with the nodes Fed fed evaluates in place of
/// Fetches: each rewritten, unless a fed node is an op (its consumers must read the fed
/// value) or the rewrite could not rebuild every path to an effect node.
template <class Fetches, class Fed>
using run_fetches_t = typename ops::detail::run_fetches<Fetches, Fed>::type;

}  // namespace typeflow
