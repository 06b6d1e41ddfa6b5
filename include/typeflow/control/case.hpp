// typeflow/control/case.hpp — tf.case: the value of the first function whose predicate holds,
// computing only that function's graph.
//
// As TensorFlow builds it, a case is a chain of conds (cond.hpp): the first predicate chooses
// between the first function and a cond of the second predicate, and so on, the default
// last. Without a default, the last function is the default, and a run in which no predicate
// holds fails; with `exclusive`, a run in which more than one holds fails (TensorFlow's
// Asserts, "Input error: ..."). Both checks read every predicate, in a node that also gives
// the first predicate to the outermost cond, so that they run whenever the case does.
#pragma once

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/control/cond.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/ops/constant.hpp"

namespace typeflow {

/// `case_(pairs, tf::exclusive)`: at most one predicate may hold in a run (tf.case's
/// exclusive=True).
struct exclusive_t {
  explicit constexpr exclusive_t() = default;
};
inline constexpr exclusive_t exclusive{};

/// In a diagnostic: case Case was given something else than a std::tuple of
/// std::pair{pred, fn}, with at least one pair.
template <fixed_string Case>
struct case_takes_a_tuple_of_pairs_of_a_predicate_and_a_function {
  static constexpr bool value = false;
};
/// In a diagnostic: predicate J of case Case has element type T and shape Shape, not a scalar
/// bool.
template <fixed_string Case, std::size_t J, class T, class Shape>
struct case_predicate_must_be_a_scalar_bool {
  static constexpr bool value = false;
};

namespace control::detail {

/// No default function: the last pair's is the default, and its predicate must hold when no
/// other does.
struct no_case_default {};

/// The first predicate, P0, read after checking every predicate P... of case Scope: with
/// Exclusive, at most one holds; without a default (!HasDefault), at least one.
template <fixed_string Scope, bool Exclusive, bool HasDefault, class... P>
struct case_check_node : node_facade<bool, scalar, node_kind::compute, P...>, op_info<"Assert"> {
  template <class... N>
  using rebind = case_check_node<Scope, Exclusive, HasDefault, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class... V>
  static void compute(Out& out, const V&... preds) {
    const std::size_t held = (std::size_t(static_cast<bool>(preds)) + ...);
    if (Exclusive && held > 1)
      throw invalid_argument_error(std::string(Scope.view()) + ": Input error: exclusive=True and " +
                                   std::to_string(held) + " of " + std::to_string(sizeof...(V)) +
                                   " conditions evaluated as True");
    if (!HasDefault && held == 0)
      throw invalid_argument_error(std::string(Scope.view()) +
                                   ": Input error: None of conditions evaluated as True (no default)");
    out = static_cast<bool>(std::get<0>(std::forward_as_tuple(preds...)));
  }
};

template <fixed_string Scope>
constexpr bool case_structure_error() {
  static_assert(case_takes_a_tuple_of_pairs_of_a_predicate_and_a_function<Scope>::value,
                "typeflow::case_(pairs[, default][, exclusive]): pairs must be a std::tuple of std::pair{pred, fn}, "
                "at least one");
  return false;
}
template <fixed_string Scope, std::size_t J, class T, class S>
constexpr bool case_predicate_error() {
  static_assert(case_predicate_must_be_a_scalar_bool<Scope, J, T, S>::value,
                "typeflow::case_(pairs[, default][, exclusive]): each predicate must be a scalar bool node");
  return false;
}

template <class T>
struct is_pair_tuple : std::false_type {};
template <class... P, class... F>
struct is_pair_tuple<std::tuple<std::pair<P, F>...>> : std::bool_constant<(sizeof...(P) > 0) && (node<P> && ...)> {};

template <class P>
using is_scalar_bool = std::bool_constant<std::is_same_v<value_type_of<P>, bool> && shape_of<P>::rank == 0>;

/// The cond of pair I: its function if predicate I holds (the first, checked: First), else
/// the cond of pair I + 1, or, after the last of N, the default's value.
template <fixed_string Scope, std::size_t I, std::size_t N, class Pairs, class Default, class First>
auto case_chain(const Pairs& pairs, Default& fallback, const First& first) {
  if constexpr (I == N) {
    return fallback();
  } else {
    const auto& pred = [&]() -> decltype(auto) {
      if constexpr (I == 0) {
        return first;
      } else {
        return std::get<I>(pairs).first;
      }
    }();
    const auto& fn = std::get<I>(pairs).second;
    return cond<join_names<Scope, indexed_name<"If", I>()>()>(
        pred, fn, [&] { return case_chain<Scope, I + 1, N, Pairs, Default, First>(pairs, fallback, first); });
  }
}

template <fixed_string Scope, bool Exclusive, class... P, class... F, class Default>
auto build_case(const std::tuple<std::pair<P, F>...>& pairs, Default& fallback) {
  constexpr std::size_t n = sizeof...(P);
  using Preds = mp::mp_list<P...>;
  constexpr std::size_t bad = mp::mp_find_if_q<Preds, mp::mp_not_fn<is_scalar_bool>>::value;  // n: none
  static constexpr bool has_default = !std::is_same_v<Default, no_case_default>;
  if constexpr (bad < n) {
    using B = mp::mp_at_c<Preds, bad>;
    case_predicate_error<Scope, bad, value_type_of<B>, shape_of<B>>();
    return std::get<0>(pairs).second();
  } else {
    const auto first = [&] {
      if constexpr (Exclusive || !has_default) {
        return std::apply(
            [](const auto&... p) { return make_node<case_check_node<Scope, Exclusive, has_default, P...>>(p.first...); },
            pairs);
      } else {
        return std::get<0>(pairs).first;
      }
    }();
    if constexpr (has_default) {
      return case_chain<Scope, 0, n>(pairs, fallback, first);
    } else {
      // The last function is the default (its predicate checked with the others above); a
      // single pair is a cond of its checked predicate whose branches are both its function.
      auto last = std::get<n - 1>(pairs).second;
      return case_chain<Scope, 0, (n > 1 ? n - 1 : 1)>(pairs, last, first);
    }
  }
}

/// `std::tuple{std::pair{pred, fn}}` of one pair is a std::tuple<P, F> (std::tuple's deduction
/// guide from a pair): taken as that pair.
template <class Pairs>
struct single_pair {
  static const Pairs& of(const Pairs& p) { return p; }
};
template <node P, class F>
struct single_pair<std::tuple<P, F>> {
  static std::tuple<std::pair<P, F>> of(const std::tuple<P, F>& p) { return {{std::get<0>(p), std::get<1>(p)}}; }
};

template <fixed_string Scope, bool Exclusive, class Given, class Default>
auto case_impl(const Given& given, Default& fallback) {
  const auto& pairs = single_pair<Given>::of(given);
  using Pairs = std::remove_cvref_t<decltype(pairs)>;
  if constexpr (!is_pair_tuple<Pairs>::value) {
    case_structure_error<Scope>();
    // Inert, so that no other error follows: the default's value, or a literal.
    if constexpr (requires { requires node<decltype(fallback())>; }) {
      return fallback();
    } else {
      return constant<false>();
    }
  } else {
    return build_case<Scope, Exclusive>(pairs, fallback);
  }
}

}  // namespace control::detail

/// `case_<"case">(pairs[, default_fn][, exclusive])` is tf.case(pred_fn_pairs, default,
/// exclusive): `pairs` is a std::tuple of std::pair{pred, fn}, each pred a scalar bool node
/// and each fn a function of no argument returning a node or a std::tuple of nodes, all of
/// the same structure, element types and shapes as default_fn's. The result is the value of
/// the first fn whose pred holds in the run, or of default_fn when none does; only that
/// function's graph runs (each function is a branch of a cond, cond.hpp). Without default_fn
/// the last pair's fn is the default, and a run in which no pred holds fails
/// (InvalidArgument, "Input error: None of conditions evaluated as True"); with `exclusive`, a
/// run in which more than one holds fails ("Input error: exclusive=True"). The conds are
/// named "<name>/If_0", "<name>/If_1", ...
template <fixed_string Scope = "case", class Pairs, class Default>
  requires(!std::is_same_v<std::remove_cvref_t<Default>, exclusive_t>)
auto case_(const Pairs& pairs, Default&& default_fn) {
  return control::detail::case_impl<Scope, false>(pairs, default_fn);
}
template <fixed_string Scope = "case", class Pairs, class Default>
auto case_(const Pairs& pairs, Default&& default_fn, exclusive_t) {
  return control::detail::case_impl<Scope, true>(pairs, default_fn);
}
template <fixed_string Scope = "case", class Pairs>
auto case_(const Pairs& pairs) {
  control::detail::no_case_default none;
  return control::detail::case_impl<Scope, false>(pairs, none);
}
template <fixed_string Scope = "case", class Pairs>
auto case_(const Pairs& pairs, exclusive_t) {
  control::detail::no_case_default none;
  return control::detail::case_impl<Scope, true>(pairs, none);
}

}  // namespace typeflow
