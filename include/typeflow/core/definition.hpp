// typeflow/core/definition.hpp — run-time definitions, carried by node objects.
//
// Most of what defines a graph is in its types. A few nodes are defined by a run-time
// value: a named constant by its tensor, a variable with a run-time initializer by that
// initializer. Such a node is a *defined node*: it says `using definition_type = D;` and
// its object holds `D definition`. Every other node object holds `defs`, the definitions
// of the defined nodes its graph reaches (`carried_of<N>`), copied from its inputs when it
// is built (`make_node`). It is an empty member, free, when the node reaches none.
//
// So `session sess(roots...)` takes every definition its graph needs from its roots, and
// nothing is kept program-wide (DESIGN rule 1): the same model function built twice with
// other values is two graphs with the same types, each session holding its own values.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "typeflow/core/concepts.hpp"
#include "typeflow/core/errors.hpp"

namespace typeflow {

namespace mp = boost::mp11;

namespace core::detail {
template <class N>
struct carried_impl {
  using type = mp::mp_list<>;
};
template <class N>
  requires(declares<carried_member, N>::value && !defined_node<N>)
struct carried_impl<N> {
  using type = typename N::carried;
};
template <defined_node N>
struct carried_impl<N> {
  using type = mp::mp_list<N>;
};
}  // namespace core::detail

/// The defined nodes whose definitions an object of node type N carries.
template <class N>
using carried_of = typename core::detail::carried_impl<N>::type;

namespace core::detail {
// The union of the inputs' lists; empty at the cost of one check when no input carries
// anything, as in a large graph of placeholders and literals.
template <bool AllEmpty, class... In>
struct carried_union {
  using type = mp::mp_list<>;
};
template <class... In>
struct carried_union<false, In...> {
  using type = mp::mp_unique<mp::mp_append<carried_of<In>...>>;
};
}  // namespace core::detail

/// What a node built from In... carries: every definition they carry.
template <class... In>
using carried_union_t =
    typename core::detail::carried_union<mp::mp_all<mp::mp_empty<carried_of<In>>...>::value, In...>::type;

/// The definition of defined node K held in a `definitions` set.
template <class K>
struct definition_slot {
  typename K::definition_type value{};
  bool present = false;
};

/// The definitions of the defined nodes K..., found by node type.
template <class... K>
struct definitions : definition_slot<K>... {
  using keys = mp::mp_list<K...>;
  template <class M>
  static constexpr bool holds = (std::is_same_v<M, K> || ...);
  template <class M>
  const definition_slot<M>& slot() const noexcept {
    return *this;
  }
  template <class M>
  definition_slot<M>& slot() noexcept {
    return *this;
  }
};

namespace core::detail {
template <class L>
struct definitions_of_impl;
template <class... K>
struct definitions_of_impl<mp::mp_list<K...>> {
  using type = definitions<K...>;
};
}  // namespace core::detail

/// The `defs` member of a node that carries the list L.
template <class L>
using definitions_t = typename core::detail::definitions_of_impl<L>::type;

/// Equality of two definitions: the same object, or equal values.
template <class D>
bool same_definition(const D& a, const D& b) {
  if constexpr (requires { a.get(); *a == *b; }) {  // shared data: pointers, then values
    if (a.get() == b.get()) return true;
    if (!a || !b) return false;
    return bool(*a == *b);
  } else {
    return bool(a == b);
  }
}

namespace core::detail {
// K's definition as carried by the object a (absent when a's graph does not reach K).
template <class K, class A>
const typename K::definition_type* definition_in(const A& a) {
  if constexpr (std::is_same_v<A, K>) {
    // A defined node's object built from its type (`K{}`) carries nothing.
    return a.definition ? &a.definition : nullptr;
  } else if constexpr (mp::mp_contains<carried_of<A>, K>::value) {
    const auto& s = a.defs.template slot<K>();
    return s.present ? &s.value : nullptr;
  } else {
    return nullptr;
  }
}

template <class K>
[[noreturn, gnu::cold]] void throw_conflicting_definition() {
  constexpr bool is_variable = variable_node_type<K>;
  throw already_exists_error(std::string(is_variable ? "Variable " : "Constant ") + std::string(K::name.view()) +
                             " is defined twice in one graph, with " +
                             (is_variable ? "different initializers" : "different values") +
                             "; a node's name identifies it: build it once and use that node");
}

template <class K, class Set, class... A>
void take_definition(Set& defs, const A&... args) {
  auto& slot = defs.template slot<K>();
  (
      [&] {
        if (const auto* d = definition_in<K>(args)) {
          if (!slot.present) {
            slot.value = *d;
            slot.present = true;
          } else if (!same_definition(slot.value, *d)) {
            throw_conflicting_definition<K>();
          }
        }
      }(),
      ...);
}
template <class Set, class... K, class... A>
void take_definitions(Set& defs, mp::mp_list<K...>, const A&... args) {
  (take_definition<K>(defs, args...), ...);
}

// What make_node does for each input: functions named by the defined node and the sets of
// definitions, never by the input's type, which spells its whole graph. (Functions named by
// node types cost g++ time in the square of their names' length: take_definition and
// definition_in, instantiated per input and per carried definition, were 89 of the 315 MB
// of symbol names of tests/rnn/embedding_seq2seq_test.cpp at -O0.)
template <class K, class... S>
void take_own_definition(definitions<S...>& into, const typename K::definition_type& d) {
  auto& slot = into.template slot<K>();
  if (!slot.present) {
    slot.value = d;
    slot.present = true;
  } else if (!same_definition(slot.value, d)) {
    throw_conflicting_definition<K>();
  }
}
template <class... S, class... M>
void take_carried_definitions(definitions<S...>& into, const definitions<M...>& from) {
  (
      [&] {
        if constexpr (definitions<S...>::template holds<M>) {
          const auto& s = from.template slot<M>();
          if (s.present) take_own_definition<M>(into, s.value);
        }
      }(),
      ...);
}

// What make_node takes from one of its arguments, a. A function of a's type and the
// definitions', not of the node built: a lambda in make_node's fold was one closure per
// argument, each named by make_node's whole signature (the node built and every argument),
// 5.4% of the mangler's time in the two-bucket seq2seq port (benchmarks/RESULTS.md, "what
// g++ names in the port at -O2").
template <class... S, class A>
constexpr void carry_from(definitions<S...>& into, const A& a) {
  if constexpr (defined_node<A>) {
    // A defined node's object built from its type (`K{}`) carries nothing.
    if constexpr (definitions<S...>::template holds<A>) {
      if (a.definition) take_own_definition<A>(into, a.definition);
    }
  } else if constexpr (!mp::mp_empty<carried_of<A>>::value) {
    take_carried_definitions(into, a.defs);
  }
}
}  // namespace core::detail

/// Builds a node of type N from the objects it depends on (its inputs, the variables it
/// writes, the nodes its rule was derived from), carrying what they carry. Two different
/// definitions of one node throw AlreadyExists, naming it: its name identifies it.
template <class N, class... A>
constexpr N make_node(const A&... args) {
  N n{};
  if constexpr (defined_node<N>) {  // a rule that gives back a defined node (a constant)
    ((!n.definition && core::detail::definition_in<N>(args) ? void(n.definition = *core::detail::definition_in<N>(args))
                                                      : void()),
     ...);
  } else if constexpr (!mp::mp_empty<carried_of<N>>::value) {
    (core::detail::carry_from(n.defs, args), ...);
  }
  return n;
}

}  // namespace typeflow
