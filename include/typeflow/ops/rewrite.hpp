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
#include <initializer_list>
#include <limits>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/detail/rewrite_forms.hpp"
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

// --- the rules -------------------------------------------------------------------------------

enum class rule : unsigned char {
  none,         // as it is
  fold,         // all inputs literals: folded, if the op and the values allow
  first,        // its first input (identity, x * 1, x + 0, x - 0, x / 1)
  second,       // its second input (1 * x, 0 + x)
  swap,         // c * x -> x * c
  combine,      // (x * c1) * c2 -> x * (c1 c2), if exact
  hoist_left,   // (x * c) * y -> (x * y) * c
  hoist_right,  // y * (x * c) -> (y * x) * c
  to_sub,       // a + (-b) -> a - b
  to_sub_rev,   // (-a) + b -> b - a
  to_add,       // a - (-b) -> a + b
  unneg,        // -(-x) -> x
  neg_sub,      // -(a - b) -> b - a
};

template <class Fn, class... In>
using op = elementwise_node<Fn, In...>;

/// What the rules know of an input: its form and its element type's kind.
struct operand {
  form f;
  bool number;  // arithmetic, not bool
  bool fp;      // floating point
};
template <class N>
constexpr operand operand_of(form f) {  // (templated on an element type: see form_of)
  return {f, number<N>::value, std::is_floating_point_v<N>};
}
constexpr bool literals(std::initializer_list<operand> in) {
  bool all = in.size() > 0;
  for (const operand& o : in) all = all && is_literal_form(o.f);
  return all;
}

/// The rule of the op Fn over its operands: classes named by the op's function alone.
template <class Fn>
struct op_rules {
  template <class... O>
  static constexpr rule pick(O... in) {
    return foldable<Fn> && literals({in...}) ? rule::fold : rule::none;
  }
};
template <class Fn>
  requires(std::is_same_v<Fn, fn::identity> || std::is_same_v<Fn, fn::stop_gradient>)
struct op_rules<Fn> {
  static constexpr rule pick(operand a) { return is_literal_form(a.f) ? rule::fold : rule::first; }
};
template <>
struct op_rules<fn::mul> {
  static constexpr rule pick(operand a, operand b) {
    const bool la = is_literal_form(a.f), lb = is_literal_form(b.f);
    return la && lb                                                  ? rule::fold
           : !a.number                                               ? rule::none
           : b.f == form::one                                        ? rule::first
           : a.f == form::one                                        ? rule::second
           : la                                                      ? rule::swap
           : a.fp && lb && (a.f == form::scaled || a.f == form::times_literal) ? rule::combine
           : a.f == form::scaled && !lb                              ? rule::hoist_left
           : b.f == form::scaled                                     ? rule::hoist_right
                                                                     : rule::none;
  }
};
template <>
struct op_rules<fn::div> {
  static constexpr rule pick(operand a, operand b) {
    return literals({a, b})                ? rule::fold
           : a.number && b.f == form::one  ? rule::first
                                           : rule::none;
  }
};
template <>
struct op_rules<fn::add> {
  static constexpr rule pick(operand a, operand b) {
    return literals({a, b})     ? rule::fold
           : !a.number          ? rule::none
           : b.f == form::zero  ? rule::first
           : a.f == form::zero  ? rule::second
           : b.f == form::neg   ? rule::to_sub
           : a.f == form::neg   ? rule::to_sub_rev
                                : rule::none;
  }
};
template <>
struct op_rules<fn::sub> {
  static constexpr rule pick(operand a, operand b) {
    return literals({a, b})     ? rule::fold
           : !a.number          ? rule::none
           : b.f == form::zero  ? rule::first
           : b.f == form::neg   ? rule::to_add
                                : rule::none;
  }
};
template <>
struct op_rules<fn::neg> {
  static constexpr rule pick(operand a) {
    return is_literal_form(a.f)          ? rule::fold
           : !a.number                   ? rule::none
           : a.f == form::neg            ? rule::unneg
           : a.fp && a.f == form::sub    ? rule::neg_sub
                                         : rule::none;
  }
};

/// The op Fn over In... (rewritten already) with the rule that applies at its top applied
/// (and again at the top of what a rule builds).
template <class Fn, rule R, class... In>
struct simplify_op {
  using type = elementwise_node<Fn, In...>;
};
template <class Fn, class... In>
using make_op = typename simplify_op<Fn, op_rules<Fn>::pick(operand_of<value_type_of<In>>(form_of<In>::value)...),
                                     In...>::type;

/// (x * c1) * c2 combines into x * (c1 c2) when c1 or c2 is a power of two and the product
/// is a normal number: then x * (c1 c2) is (x * c1) * c2 to the bit.
template <class M>
struct combine_ok : std::false_type {};
template <class X, class C1, class C2>
  requires(literal_node_type<C1> && literal_node_type<C2>)
struct combine_ok<op<fn::mul, op<fn::mul, X, C1>, C2>>
    : std::bool_constant<(power_of_two(C1::value) || power_of_two(C2::value)) &&
                         fold<op<fn::mul, C1, C2>>::result.ok && normal(fold<op<fn::mul, C1, C2>>::result.value)> {};

// Constant folding (Grappler: ConstantFolding), where the op and its values allow.
template <class M, bool = fold<M>::result.ok>
struct folded_node {
  using type = M;
};
template <class M>
struct folded_node<M, true> {
  using type = literal_node<fold<M>::result.value, value_type_of<M>>;
};
template <class Fn, class... In>
struct simplify_op<Fn, rule::fold, In...> : folded_node<op<Fn, In...>> {};
template <class Fn, class A, class... B>
struct simplify_op<Fn, rule::first, A, B...> {
  using type = A;
};
template <class Fn, class A, class B>
struct simplify_op<Fn, rule::second, A, B> {
  using type = B;
};
template <class A, class B>
struct simplify_op<fn::mul, rule::swap, A, B> {
  using type = make_op<fn::mul, B, A>;
};
template <class M, bool = combine_ok<M>::value>
struct combined {
  using type = M;
};
template <class X, class C1, class C2>
struct combined<op<fn::mul, op<fn::mul, X, C1>, C2>, true> {
  using type = make_op<fn::mul, X, literal_node<fold<op<fn::mul, C1, C2>>::result.value, value_type_of<X>>>;
};
template <class A, class B>
struct simplify_op<fn::mul, rule::combine, A, B> : combined<op<fn::mul, A, B>> {};
template <class X, class C, class Y>
struct simplify_op<fn::mul, rule::hoist_left, op<fn::mul, X, C>, Y> {
  using type = make_op<fn::mul, make_op<fn::mul, X, Y>, C>;
};
template <class Y, class X, class C>
struct simplify_op<fn::mul, rule::hoist_right, Y, op<fn::mul, X, C>> {
  using type = make_op<fn::mul, make_op<fn::mul, Y, X>, C>;
};
template <class A, class B>
struct simplify_op<fn::add, rule::to_sub, A, op<fn::neg, B>> {
  using type = make_op<fn::sub, A, B>;
};
template <class A, class B>
struct simplify_op<fn::add, rule::to_sub_rev, op<fn::neg, A>, B> {
  using type = make_op<fn::sub, B, A>;
};
template <class A, class B>
struct simplify_op<fn::sub, rule::to_add, A, op<fn::neg, B>> {
  using type = make_op<fn::add, A, B>;
};
template <class X>
struct simplify_op<fn::neg, rule::unneg, op<fn::neg, X>> {
  using type = X;
};
template <class A, class B>
struct simplify_op<fn::neg, rule::neg_sub, op<fn::sub, A, B>> {
  using type = make_op<fn::sub, B, A>;
};

// --- rebuilding a node over its rewritten inputs -----------------------------------------------

struct rewrite_fn {
  template <class In>
  using fn = typename rewrite_node<In>::type;
};

// Whether N says how to rebuild it over other inputs (`rebind<In...>`) or over a function of
// its inputs (`rebuild<F>`): detected by partial specialization, not by a requires-expression,
// whose failures clang prints, naming N (core/concepts.hpp).
template <class N, class In, class = void>
struct declares_rebind : std::false_type {};
template <class N, class... In>
struct declares_rebind<N, mp::mp_list<In...>, std::void_t<typename N::template rebind<In...>>> : std::true_type {};
template <class N>
using rebuild_member = typename N::template rebuild<rewrite_fn::template fn>;

template <class N, class In = inputs_of<N>>
struct rebuilt {
  using type = N;  // a leaf, or a node that does not say how to rebuild it: as it is
};
template <class N, class... In>
  requires(sizeof...(In) > 0 && declares_rebind<N, mp::mp_list<In...>>::value &&
           !core::detail::declares<rebuild_member, N>::value)
struct rebuilt<N, mp::mp_list<In...>> {
  using type = typename N::template rebind<typename rewrite_node<In>::type...>;
};
template <class N, class... In>
  requires(sizeof...(In) > 0 && core::detail::declares<rebuild_member, N>::value)
struct rebuilt<N, mp::mp_list<In...>> {
  using type = typename N::template rebuild<rewrite_fn::template fn>;
};

// An error here means that N, an input of some node, is not a typeflow node.
template <class N>
struct rewrite_node : rebuilt<N> {};
// An anonymous elementwise op: rebuilt over its rewritten inputs, then the rules.
template <class Fn, class... In>
struct rewrite_node<elementwise_node<Fn, In...>> {
  using type = make_op<Fn, typename rewrite_node<In>::type...>;
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
  // (A type, not a static member: this class is named by the fetches, a whole graph.)
  using consistent = std::bool_constant<effect_count<graph::path_order<rewritten, Fed>>::value ==
                                        effect_count<graph::path_order<Fetches, Fed>>::value>;
  using type = mp::mp_if<consistent, rewritten, Fetches>;
};

}  // namespace ops::detail

/// The fetches (an mp_list of nodes) a run with the nodes Fed fed evaluates in place of
/// Fetches: each rewritten, unless a fed node is an op (its consumers must read the fed
/// value) or the rewrite could not rebuild every path to an effect node.
///
/// Config switch: defining TYPEFLOW_NO_GRAPH_REWRITES (for the whole program: it changes
/// what session::run instantiates) makes every run evaluate its fetches as written, to
/// compare results both ways (CMake: TYPEFLOW_WITHOUT_GRAPH_REWRITES builds the tests so).
#ifdef TYPEFLOW_NO_GRAPH_REWRITES
template <class Fetches, class Fed>
using run_fetches_t = Fetches;
#else
template <class Fetches, class Fed>
using run_fetches_t = typename ops::detail::run_fetches<Fetches, Fed>::type;
#endif

}  // namespace typeflow
