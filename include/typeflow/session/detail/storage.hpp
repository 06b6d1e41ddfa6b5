// typeflow/session/detail/storage.hpp — what a session holds of its graph's state: a
// slot per variable (value and initialized flag), the run-time definitions its roots
// carry, the graph seed; and the functions that initialize and check them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/definition.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/init.hpp"

namespace typeflow::session_detail {

/// What a session holds for resource R (core/concepts.hpp: resource_node_type).
template <class R>
using resource_value = typename R::resource_type;

template <class V>
struct variable_slot {
  storage_t<value_type_of<V>, shape_of<V>> value{};
  bool initialized = false;
};

/// One value per node, found by the node's type: a flat set of bases (no recursive
/// std::tuple, whose instantiations grow with the square of a large graph's size).
template <class N, class T>
struct keyed_slot {
  T value{};
};
template <template <class> class ValueOf, class... N>
struct keyed_set : keyed_slot<N, ValueOf<N>>... {
  template <class M>
  auto& get() noexcept {
    return static_cast<keyed_slot<M, ValueOf<M>>&>(*this).value;
  }
  template <class M>
  const auto& get() const noexcept {
    return static_cast<const keyed_slot<M, ValueOf<M>>&>(*this).value;
  }
};
template <template <class> class ValueOf, class L>
struct keyed_set_of;
template <template <class> class ValueOf, class... N>
struct keyed_set_of<ValueOf, mp::mp_list<N...>> {
  using type = keyed_set<ValueOf, N...>;
};
/// keyed_set's get as a function named by the key alone, not by the whole set.
template <class K, class T>
T& keyed_get(keyed_slot<K, T>& s) noexcept {
  return s.value;
}
template <class K, class T>
const T& keyed_get(const keyed_slot<K, T>& s) noexcept {
  return s.value;
}

// --- state functions named by the variables, not by the session ---------------------------
//
// A session's type names its roots, and a root's type spells its whole graph: every
// function the compiler generates is named (mangled) after its class and arguments, and
// g++ 12 spends time in proportion to the number of long names times the memory it has
// freed (a linear search of its free pages per allocation of a long name): 27 s at
// N = 800 with ~100 functions named by the session. So what a session does is done by
// functions of the variables' storage (Vars, a keyed_set of variable_slots) and of the
// plans' store, which are named by short types.
/// A session's state: its variables' slots, the definitions its graph carries (named
/// constants' values, run-time initializers) and its graph seed.
template <class Vars, class Defined>
struct session_state : keyed_set_of<variable_slot, Vars>::type {
  using definitions_type = definitions_t<Defined>;
  definitions_type defs;
  std::uint64_t graph_seed = init::default_graph_seed;
};

/// The address of each variable's value and each definition of a session's state, by
/// position in Vars and in the definitions' keys (each with a null one after them): how a
/// run's steps reach them (run_env, steps.hpp). Built by each run on its stack, not kept in
/// the state: where a run is inlined into a training loop the compiler then sees that the
/// address it reads a variable through is the variable the optimizer writes, and keeps the
/// value in a register (a table kept in the state hid that, and made the scalar regression
/// step 1.4x slower).
template <class State>
struct state_addresses;
template <class Vars, class Defined>
struct state_addresses<session_state<Vars, Defined>> {
  using state_type = session_state<Vars, Defined>;
  using keys = typename state_type::definitions_type::keys;
  std::array<void*, mp::mp_size<Vars>::value + 1> variables;
  std::array<const void*, mp::mp_size<keys>::value + 1> definitions;

  explicit state_addresses(state_type& s) noexcept
      : variables(variables_of(s, Vars{})), definitions(definitions_of(s, keys{})) {}

 private:
  template <class... V>
  static std::array<void*, sizeof...(V) + 1> variables_of(state_type& s, mp::mp_list<V...>) noexcept {
    return {static_cast<void*>(&keyed_get<V>(s).value)..., nullptr};
  }
  template <class... K>
  static std::array<const void*, sizeof...(K) + 1> definitions_of(const state_type& s, mp::mp_list<K...>) noexcept {
    return {static_cast<const void*>(&s.defs.template slot<K>().value)..., nullptr};
  }
};

template <class T>
struct is_fixed_initializer : std::false_type {};
template <init::initializer I>
struct is_fixed_initializer<init::fixed<I>> : std::true_type {};
template <class T>
struct value_of_source;
template <class C>
struct value_of_source<init::value_of<C>> {
  using type = C;
};
template <class T>
struct like_source;
template <class W>
struct like_source<init::like<W>> {
  using type = W;
};

/// The value of a scalar node that defines an initializer: a literal or a named constant.
template <class C, class State>
double scalar_definition(const State& st) {
  if constexpr (literal_node_type<C>) {
    return static_cast<double>(C::value);
  } else {
    return static_cast<double>(*st.defs.template slot<C>().value);
  }
}

/// Variable V's initializer in the session whose state is `st`.
template <class V, class State>
init::initializer initializer_of(const State& st) {
  using source = typename V::initializer_source;
  if constexpr (is_fixed_initializer<source>::value) {
    return source::value;
  } else if constexpr (std::is_same_v<source, init::run_time>) {
    return *st.defs.template slot<V>().value;
  } else if constexpr (requires { typename value_of_source<source>::type; }) {
    return init::constant(scalar_definition<typename value_of_source<source>::type>(st));
  } else {
    using W = typename like_source<source>::type;
    auto i = initializer_of<W>(st);
    if (!i.has_seed) i = {i.kind, i.a, i.b, true, init::seed_for(i, W::name.view(), st.graph_seed)};
    return i;
  }
}

template <class V, class State>
void initialize_variable(State& st) {
  auto& s = keyed_get<V>(st);
  init::fill(s.value, initializer_of<V>(st), V::name.view(), st.graph_seed);
  s.initialized = true;
}
template <class State, class... V>
void initialize_variables(State& st, mp::mp_list<V...>) {
  (initialize_variable<V>(st), ...);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_missing_definition(std::string_view name) {
  throw failed_precondition_error("The session's roots carry no value for " + std::string(name) +
                                  ": build it with its factory (typeflow::constant, typeflow::variable) "
                                  "and build the roots from that node, not from its type");
}

/// Takes every definition Defined... from the session's roots; one that none carries (a
/// node built from its type, not by its factory) is an error naming it. (The name is
/// kept as a string_view and the message built out of line: a std::string assigned here,
/// inlined into a session's constructor, made g++ 12 at -O3 report a false -Wrestrict.)
template <class Defs, class... K, class... R>
void take_root_definitions(Defs& defs, mp::mp_list<K...>, const R&... roots) {
  (core::detail::take_definition<K>(defs, roots...), ...);
  std::string_view missing;
  ((defs.template slot<K>().present || !missing.empty() ? void() : void(missing = K::name.view())), ...);
  if (!missing.empty()) throw_missing_definition(missing);
}

template <class Vars, class... V>
std::vector<std::string> uninitialized_names(const Vars& vars, mp::mp_list<V...>) {
  std::vector<std::string> out;
  ((keyed_get<V>(vars).initialized ? void() : void(out.emplace_back(V::name.view()))), ...);
  return out;
}
template <class Vars, class... V>
bool all_initialized(const Vars& vars, mp::mp_list<V...>) noexcept {
  return (keyed_get<V>(vars).initialized & ... & true);
}
template <class Vars, class... V>
[[noreturn, gnu::cold, gnu::noinline]] void throw_uninitialized(const Vars& vars, mp::mp_list<V...>) {
  std::string name;
  ((name.empty() && !keyed_get<V>(vars).initialized ? void(name = V::name.view()) : void()), ...);
  throw failed_precondition_error("Attempting to use uninitialized value " + name);
}

/// Whether a closed session's run reads its variables' flags from closed_state<State>: for
/// states of up to 4 KB, which a static copy costs little.
template <class State>
inline constexpr bool has_closed_state = sizeof(State) <= 4096;
/// What a closed session's run reads its variables' flags from: none is set.
template <class State>
inline const State closed_state{};

/// A moved-from session (TensorFlow: a closed one) used: run, initialized, read or referred to.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_closed_session() {
  throw cancelled_error("Attempted to use a closed Session. This session was moved from: use the session it was moved to.");
}

/// A session_ref's session is gone: destroyed, or assigned over.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_session_gone() {
  throw cancelled_error(
      "Attempted to use a closed Session. The session this refers to was destroyed, or another session was assigned "
      "over it.");
}

/// Why a run cannot start: its session is closed (vars is null), or a variable it reads is
/// not initialized.
template <class Vars, class... V>
[[noreturn, gnu::cold, gnu::noinline]] void throw_unrunnable(const Vars* vars, mp::mp_list<V...> read) {
  if (vars == nullptr) throw_closed_session();
  throw_uninitialized(*vars, read);
}

}  // namespace typeflow::session_detail
