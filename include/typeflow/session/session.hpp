// typeflow/session/session.hpp — tf.Session: variable storage and run().
//
// A session owns storage for every variable reachable from its roots. run() evaluates
// exactly the computation path of its fetches (graph::path_order), each node once, in a
// topological order fixed at compile time. Buffers are planned once per (fetch, feed)
// combination and reused: a steady-state run of a static-shape graph allocates nothing.
#pragma once

#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xnoalias.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/session/feed.hpp"
#include "typeflow/session/fetch.hpp"

namespace typeflow {


// --- diagnostics: each names the user's names and states the fix -----------------------

/// In a diagnostic: the run's path reaches this placeholder, and no feed gives it a value.
template <fixed_string Placeholder>
struct you_must_feed_a_value_for_placeholder {
  static constexpr bool value = false;
};

/// In a diagnostic: two different nodes of one graph have this full name.
template <fixed_string Name>
struct two_nodes_of_the_graph_have_the_name {
  static constexpr bool value = false;
};

/// In a diagnostic: the run's path reads this variable, which the session does not hold.
template <fixed_string Variable>
struct variable_is_not_in_the_sessions_graph {
  static constexpr bool value = false;
};

/// In a diagnostic: a run fed one node twice.
template <bool Once>
struct every_node_is_fed_once {
  static constexpr bool value = Once;
};

/// In a diagnostic: a run through a const session reaches this node, which changes a
/// variable or the world (assign, an optimizer's update, an initializer, print); Writes
/// names the first variable it writes, if any.
template <fixed_string Node, fixed_string Writes>
struct a_const_session_runs_no_node_that_changes_state {
  static constexpr bool value = false;
};

/// In a diagnostic: this part of run()'s fetch is neither a node nor a structure of nodes
/// (fetch(...), std::tuple, std::array, hana::tuple, hana::map, a Hana struct).
template <class T>
struct fetch_is_not_a_typeflow_node {
  static constexpr bool value = false;
};

namespace detail {

template <class L>
struct check_feeds_impl {
  static constexpr bool value = true;
};
template <class P, class... Rest>
struct check_feeds_impl<mp::mp_list<P, Rest...>> {
  static_assert(you_must_feed_a_value_for_placeholder<P::name>::value,
                "run(fetch) needs a value for a placeholder on the fetch's computation path: "
                "pass typeflow::feed(placeholder, value)");
  static constexpr bool value = false;
};

template <class Named, std::size_t I = graph::first_duplicate_name<Named>>
struct check_names_impl {
  static constexpr bool value = true;
};
template <class Named, std::size_t I>
  requires(I < mp::mp_size<Named>::value)
struct check_names_impl<Named, I> {
  using dup = mp::mp_at_c<Named, I>;
  static_assert(two_nodes_of_the_graph_have_the_name<dup::name>::value,
                "names are unique per graph: two different nodes (another dtype, shape or kind) "
                "have the same full name; rename one of them");
  static constexpr bool value = true;  // the error above is the one to read
};

template <class Vars, class Used>
struct check_vars_impl;
template <class Vars, class... U>
struct check_vars_impl<Vars, mp::mp_list<U...>> {
  template <class V>
  static constexpr bool one() {
    if constexpr (!contains_v<Vars, V>) {
      static_assert(variable_is_not_in_the_sessions_graph<V::name>::value,
                    "the run's path uses a variable that the session does not hold: pass a node "
                    "that reaches it to the session's constructor");
      return false;
    } else {
      return true;
    }
  }
  static constexpr bool value = (one<U>() && ...);
};

template <class N>
constexpr auto first_write_label() {
  if constexpr (mp::mp_empty<targets_of<N>>::value) {
    return fixed_string<1>{};
  } else {
    return label_of<mp::mp_front<targets_of<N>>>();
  }
}

struct changes_state_q {
  template <class N>
  using fn = std::bool_constant<changes_state<N>()>;
};


// Buffer of a materialized node: its value for elementwise and compute ops, its own
// output for effects that have one.
template <class N>
struct buffer_impl {
  using type = storage_t<value_type_of<N>, shape_of<N>>;
};
template <class N>
  requires(N::kind == node_kind::effect)
struct buffer_impl<N> {
  using type = typename effect_output<N>::type;
};
template <class N>
using buffer_t = typename buffer_impl<N>::type;

inline std::size_t next_plan_id() {
  static std::atomic<std::size_t> next{0};
  return next++;
}
template <class Plan>
inline const std::size_t plan_id = next_plan_id();

/// The buffers of the plans run through a const session: one set per run in flight. A run
/// takes a set from its plan's pool (making one the first time) and gives it back, so
/// concurrent runs never share buffers and a steady state allocates nothing.
class plan_pools {
 public:
  plan_pools() = default;
  plan_pools(const plan_pools&) = delete;
  plan_pools& operator=(const plan_pools&) = delete;
  ~plan_pools() {
    for (auto& pool : pools_)
      for (void* p : pool.all) pool.destroy(p);
  }

  /// A set of buffers of type Buffers for the plan `id`, given back when the lease ends.
  template <class Buffers>
  class lease {
   public:
    lease(plan_pools& pools, std::size_t id) : pools_(pools), id_(id), p_(pools.take<Buffers>(id)) {}
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    ~lease() { pools_.give_back(id_, p_); }
    Buffers& get() const noexcept { return *p_; }

   private:
    plan_pools& pools_;
    std::size_t id_;
    Buffers* p_;
  };

 private:
  struct pool {
    std::vector<void*> all;
    std::vector<void*> free;  // capacity kept at all.size(): giving back never allocates
    void (*destroy)(void*) = nullptr;
  };

  template <class Buffers>
  Buffers* take(std::size_t id) {
    {
      std::lock_guard lock(mutex_);
      if (id < pools_.size() && !pools_[id].free.empty()) {
        void* p = pools_[id].free.back();
        pools_[id].free.pop_back();
        return static_cast<Buffers*>(p);
      }
    }
    std::lock_guard lock(mutex_);
    if (id >= pools_.size()) pools_.resize(id + 1);
    auto& pool = pools_[id];
    pool.destroy = [](void* p) { delete static_cast<Buffers*>(p); };
    pool.all.reserve(pool.all.size() + 1);
    pool.free.reserve(pool.all.size() + 1);
    // Room is made first: once the buffers exist, nothing can throw before they are held.
    auto* made = new Buffers();
    pool.all.push_back(made);
    return made;
  }
  void give_back(std::size_t id, void* p) noexcept {
    std::lock_guard lock(mutex_);
    pools_[id].free.push_back(p);
  }

  std::mutex mutex_;
  std::vector<pool> pools_;
};

template <class V>
struct variable_slot {
  storage_t<value_type_of<V>, shape_of<V>> value{};
  bool initialized = false;
};

template <class L>
struct as_tuple_impl;
template <class... T>
struct as_tuple_impl<mp::mp_list<T...>> {
  using type = std::tuple<T...>;
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
// plans' holders, which are named by short types.

/// The buffers of one plan of a (non-const) session, type-erased.
struct plan_holder {
  void* p = nullptr;
  void (*destroy)(void*) = nullptr;
  plan_holder() = default;
  plan_holder(plan_holder&& o) noexcept : p(std::exchange(o.p, nullptr)), destroy(o.destroy) {}
  plan_holder& operator=(plan_holder&& o) noexcept {
    std::swap(p, o.p);
    std::swap(destroy, o.destroy);
    return *this;
  }
  ~plan_holder() {
    if (p) destroy(p);
  }
};

/// The buffers of the plan `id`, made the first time.
template <class Buffers>
Buffers& plan_buffers(std::vector<plan_holder>& plans, std::size_t id) {
  if (id >= plans.size()) plans.resize(id + 1);
  auto& h = plans[id];
  if (!h.p) {
    h.p = new Buffers();
    h.destroy = [](void* p) { delete static_cast<Buffers*>(p); };
  }
  return *static_cast<Buffers*>(h.p);
}

/// A session's state: its variables' slots, the definitions its graph carries (named
/// constants' values, run-time initializers) and its graph seed.
template <class Vars, class Defined>
struct session_state : keyed_set_of<variable_slot, Vars>::type {
  definitions_t<Defined> defs;
  std::uint64_t graph_seed = init::default_graph_seed;
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
  if constexpr (requires { C::is_literal; }) {
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

/// Takes every definition Defined... from the session's roots; one that none carries (a
/// node built from its type, not by its factory) is an error naming it.
template <class Defs, class... K, class... R>
void take_root_definitions(Defs& defs, mp::mp_list<K...>, const R&... roots) {
  (take_definition<K>(defs, roots...), ...);
  std::string missing;
  ((defs.template slot<K>().present || !missing.empty() ? void() : void(missing = K::name.view())), ...);
  if (!missing.empty())
    throw failed_precondition_error("The session's roots carry no value for " + missing +
                                    ": build it with its factory (typeflow::constant, typeflow::variable) "
                                    "and build the roots from that node, not from its type");
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

// --- what a run executes, described by types with short names -----------------------------
//
// Every function the compiler generates is named by its template arguments, and a node's
// type spells its whole graph: functions per node named by node types (or by the session
// or the run's context, which name the roots and fetches) cost the compiler time and
// memory that grow faster than the square of the graph (name mangling, most of the time
// of a 400-node chain). So a run's steps are described by small types: where a value is
// (the K-th feed, buffer J of group G, a variable, a literal), the op's scalar function,
// the node type only for ops that carry their own code (compute and effect nodes).

template <std::size_t K>
struct feed_src {};  // the K-th feed's value
template <class V>
struct var_src {};  // variable V's value
template <class N>
struct leaf_src {};  // a literal (N::value) or a named constant (N::value())
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
struct compute_step {};  // N::compute(Out, S...)
template <class N, class Ctx>
struct effect_step {};  // N::run(ctx)

// A flat loop's expression: Fn over its arguments, or an operand read by the flat index
// (Mode 0), as one element (1) or by the index within a row (2).
template <class Fn, class... X>
struct flat_fn {};
template <class Src, int Mode>
struct flat_leaf {};

// The distinct types of a list, by a fold of `|` over a set that stays short (the few
// buffer types of a plan): mp_unique carries the rest of the list at each step (as
// graph::detail::select, traverse.hpp).
struct skip_buffer {};  // not a buffer: a node fused into its consumer
template <class... S>
struct type_set {};
template <class T>
struct type_add {};
template <class... S, class T>
auto operator|(type_set<S...>, type_add<T>)
    -> mp::mp_if_c<(__is_same(S, T) || ... || __is_same(T, skip_buffer)), type_set<S...>, type_set<S..., T>>;
template <class L>
struct distinct_types;
template <class... T>
struct distinct_types<mp::mp_list<T...>> {
  using type = mp::mp_rename<decltype((type_set<>{} | ... | type_add<T>{})), mp::mp_list>;
};

/// Buffers of one type, a run's group G of them.
template <std::size_t G, class T, std::size_t Count>
struct buffer_group {
  std::array<T, Count> items{};
};
template <class L>
struct buffer_set;
template <class... B>
struct buffer_set<mp::mp_list<B...>> : B... {};
template <std::size_t G, class T, std::size_t Count>
std::array<T, Count>& group_items(buffer_group<G, T, Count>& b) noexcept {
  return b.items;
}

/// What a step reaches: the run's buffers and feeds, the session's variables, and the
/// run_context (for effect nodes).
template <class Buffers, class Feeds, class Vars, class Extra>
struct run_env {
  Buffers& buffers;
  const Feeds& feeds;
  Vars& vars;
  void* ctx;
  const Extra* extra;  // definitions the fetches carry that the session does not hold
};

template <std::size_t G, std::size_t J, class E>
auto& buffer_ref(buf_src<G, J>, E& e) noexcept {
  return group_items<G>(e.buffers)[J];
}

template <std::size_t K, class E>
decltype(auto) eval(feed_src<K>, E& e) {
  return (std::get<K>(e.feeds).value);
}
template <class V, class E>
const auto& eval(var_src<V>, E& e) {
  return std::as_const(keyed_get<V>(e.vars).value);
}
/// In a diagnostic: a run reaches this named constant, which the session's roots do not.
template <fixed_string Constant>
struct constant_is_not_in_the_sessions_graph {
  static constexpr bool value = false;
};

template <class N, class E>
decltype(auto) eval(leaf_src<N>, E& e) {
  if constexpr (requires { N::is_literal; }) {
    return (N::value);
  } else if constexpr (std::remove_cvref_t<decltype(e.vars.defs)>::template holds<N>) {
    return std::as_const(*e.vars.defs.template slot<N>().value);
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
  return apply_elementwise<Fn>(eval(S{}, e)...);
}
template <class N, class... S, class E>
auto eval(node_src<N, S...>, E& e) {
  return N::apply(eval(S{}, e)...);
}

// --- the flat loop of a fused elementwise tree with a static output shape ---------------
template <class P, int Mode>
struct flat_arg {
  P p;  // a pointer to the operand's elements, or the scalar itself
  auto at(std::size_t k, std::size_t j) const {
    if constexpr (!std::is_pointer_v<P>) {
      return p;
    } else if constexpr (Mode == 0) {
      return p[k];
    } else if constexpr (Mode == 1) {
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
template <class Src, int Mode, class E>
auto bind_flat(flat_leaf<Src, Mode>, E& e) {
  const auto& v = eval(Src{}, e);
  if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(v)>>) {
    return flat_arg<std::remove_cvref_t<decltype(v)>, Mode>{v};
  } else {
    return flat_arg<decltype(v.data()), Mode>{v.data()};
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
    for (std::size_t r = 0; r < Total / Row; ++r) {
      T* __restrict orow = o + r * Row;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
      for (std::size_t j = 0; j < Row; ++j) orow[j] = static_cast<T>(b.at(r * Row + j, j));
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

template <class Fed, class M, bool Materialized>
struct source_case : std::integral_constant<int, graph::detail::in_short_list<Fed, M>::value ? 0
                               : M::kind == node_kind::leaf ? (requires { M::is_variable; }      ? 1
                                                               : requires { M::is_placeholder; } ? 3
                                                                                                 : 2)
                               : M::kind == node_kind::effect && requires { typename M::forwards; } ? 4
                               : M::kind == node_kind::effect && requires { typename M::forwards_variable; } ? 5
                               : Materialized ? 6
                                              : 7> {};

/// How a run evaluates the path of Info (a graph::path_info) with Fed (an mp_list): each
/// node's value (source) and step, and the buffers, grouped by type.
///
/// The member templates below are instantiated once per node of the path. The class's
/// own parameters are three types, never the path's nodes as a pack: g++ 12 pays for each
/// instantiation of a member template in proportion to the enclosing class's arguments
/// (2 GB and 5 s at N = 800 with a `run_plan<..., mp_list<N...>>` partial specialization).
/// Pack expansions over the path happen in small nested classes (per_node).
template <class Info, class Fed, class Ctx>
struct run_plan {
  using order = typename Info::order;

 private:
  template <class M, bool = Info::template materialized_c<M>::value>
  struct buffer_or_skip_impl {
    using type = skip_buffer;
  };
  template <class M>
  struct buffer_or_skip_impl<M, true> {
    using type = buffer_t<M>;
  };
  template <class M>
  using buffer_or_skip = typename buffer_or_skip_impl<M>::type;

 public:
  /// The types of the buffers, each once, in the order of their first use.
  using buffer_types = typename distinct_types<mp::mp_transform<buffer_or_skip, order>>::type;

 private:
  template <class M, bool = Info::template materialized_c<M>::value>
  struct group_index : std::integral_constant<std::size_t, 0> {};
  template <class M>
  struct group_index<M, true> : mp::mp_find<buffer_types, buffer_t<M>> {};
  static constexpr std::size_t size = mp::mp_size<order>::value;
  static constexpr std::size_t groups = mp::mp_size<buffer_types>::value;
  template <class L>
  struct per_node;
  template <class... N>
  struct per_node<mp::mp_list<N...>> {
    static constexpr bool is_mat[size + 1] = {Info::template materialized_c<N>::value..., false};
    static constexpr std::size_t group[size + 1] = {group_index<N>::value..., 0};
  };
  static constexpr const auto& is_mat = per_node<order>::is_mat;
  static constexpr const auto& group = per_node<order>::group;
  struct positions {
    std::size_t pos[size + 1]{};
    std::size_t count[groups + 1]{};
  };
  static constexpr positions at = [] {
    positions p{};
    for (std::size_t i = 0; i < size; ++i)
      if (is_mat[i]) p.pos[i] = p.count[group[i]]++;
    return p;
  }();

 public:
  /// How many nodes of the path have a buffer.
  static constexpr std::size_t buffer_count = [] {
    std::size_t n = 0;
    for (std::size_t g = 0; g < groups; ++g) n += at.count[g];
    return n;
  }();

 private:
  template <class S>
  struct groups_of;
  template <std::size_t... G>
  struct groups_of<std::index_sequence<G...>> {
    using type = mp::mp_list<buffer_group<G, mp::mp_at_c<buffer_types, G>, at.count[G]>...>;
  };

 public:
  using buffers = buffer_set<typename groups_of<std::make_index_sequence<groups>>::type>;

  /// Where materialized node M's buffer is.
  template <class M>
  using location = buf_src<group[Info::template index_c<M>::value], at.pos[Info::template index_c<M>::value]>;

 private:
  template <class M, int = source_case<Fed, M, Info::template materialized_c<M>::value>::value>
  struct source_impl;
  template <class M, class In, bool = requires { typename M::function; }>
  struct expr_impl;
  template <class M>
  struct source_impl<M, 0> {
    using type = feed_src<mp::mp_find<Fed, M>::value>;
  };
  template <class M>
  struct source_impl<M, 1> {
    using type = var_src<M>;
  };
  template <class M>
  struct source_impl<M, 2> {
    using type = leaf_src<M>;
  };
  template <class M>
  struct source_impl<M, 3> {
    using type = unfed_src<M>;
  };
  template <class M>
  struct source_impl<M, 4> {
    using type = typename source_impl<typename M::forwards>::type;
  };
  template <class M>
  struct source_impl<M, 5> {
    using type = var_src<typename M::forwards_variable>;
  };
  template <class M>
  struct source_impl<M, 6> {
    using type = location<M>;
  };
  template <class M>
  struct source_impl<M, 7> {
    using type = typename expr_impl<M, inputs_of<M>>::type;
  };

  // The value of elementwise node M computed from its inputs' sources.
  template <class M, class... In>
  struct expr_impl<M, mp::mp_list<In...>, true> {
    using type = fn_src<typename M::function, typename source_impl<In>::type...>;
  };
  template <class M, class... In>
  struct expr_impl<M, mp::mp_list<In...>, false> {
    using type = node_src<M, typename source_impl<In>::type...>;
  };

  // The flat loop expression of the tree under root R.
  template <class R, class M, bool = Info::template fusible_c<M>::value>
  struct flat_impl {
    static constexpr std::size_t n = shape_of<M>::size;
    using type = flat_leaf<typename source_impl<M>::type, n == shape_of<R>::size ? 0 : n == 1 ? 1 : 2>;
  };
  template <class R, class M, class In>
  struct flat_fn_impl;
  template <class R, class M, class... In>
  struct flat_fn_impl<R, M, mp::mp_list<In...>> {
    using type = flat_fn<typename M::function, typename flat_impl<R, In>::type...>;
  };
  template <class R, class M>
  struct flat_impl<R, M, true> {
    using type = typename flat_fn_impl<R, M, inputs_of<M>>::type;
  };

  template <class M, int = !Info::template materialized_c<M>::value                      ? 0
                           : M::kind == node_kind::compute                       ? 1
                           : M::kind == node_kind::effect                        ? 2
                           : std::is_arithmetic_v<buffer_t<M>>                   ? 3
                           : Info::template flat_c<M>::value                              ? 4
                                                                                 : 3>
  struct step_impl {
    using type = no_step;
  };
  template <class M, class In>
  struct compute_impl;
  template <class M, class... In>
  struct compute_impl<M, mp::mp_list<In...>> {
    using type = compute_step<M, location<M>, typename source_impl<In>::type...>;
  };
  template <class M>
  struct step_impl<M, 1> {
    using type = typename compute_impl<M, inputs_of<M>>::type;
  };
  template <class M>
  struct step_impl<M, 2> {
    using type = effect_step<M, Ctx>;
  };
  template <class M>
  struct step_impl<M, 3> {
    using type = assign_step<location<M>, typename expr_impl<M, inputs_of<M>>::type>;
  };
  template <class M>
  struct step_impl<M, 4> {
    using type = flat_step<location<M>, shape_of<M>::size, Info::template flat_row_c<M>::value,
                           typename flat_fn_impl<M, M, inputs_of<M>>::type>;
  };

 public:
  /// Where node M's value is read from in a run.
  template <class M>
  using source = typename source_impl<M>::type;
  /// What the run does for node M.
  template <class M>
  using step = typename step_impl<M>::type;
  /// What the run does for each node of the path, in order.
  using steps = mp::mp_transform<step, order>;
};

}  // namespace detail

/// tf.Session. `session sess(roots...)` holds every variable the roots reach.
template <class... Roots>
class session {
  static_assert((node<Roots> && ...),
                "typeflow::session(roots...) takes graph nodes (placeholders, variables, ops)");

 public:
  /// Every node of the session's graph, inputs first.
  using graph_nodes = graph::graph_order<Roots...>;
  using variables = graph::detail::select<graph::is_variable_node, graph_nodes>;
  using named_nodes = graph::detail::select<graph::is_named, graph_nodes>;
  static_assert(detail::check_names_impl<named_nodes>::value);

  /// The run-time definitions of the graph (named constants' values, run-time
  /// initializers), taken from the roots.
  using defined_nodes = carried_union_t<Roots...>;

  explicit session(const Roots&... roots)
      : vars_(std::make_unique<var_storage>()), const_plans_(std::make_unique<detail::plan_pools>()) {
    if constexpr (!mp::mp_empty<defined_nodes>::value)
      detail::take_root_definitions(vars_->defs, defined_nodes{}, roots...);
  }

  session(const session&) = delete;
  session& operator=(const session&) = delete;
  session(session&&) noexcept = default;
  session& operator=(session&&) noexcept = default;

  /// `run(y, feed(x, value)...)` returns y's value; `run(fetch(a, b), ...)` a tuple; a
  /// structure of nodes (session/fetch.hpp) the same structure of values. Feeds are
  /// feed(x, value) or hana::maps from nodes to values.
  template <class Fetch, class... Feeds>
  auto run(const Fetch& f, const Feeds&... feeds) {
    if constexpr (detail::has_feed_map<Feeds...>) {
      return std::apply([&](const auto&... fs) { return run_impl(*this, f, fs...); },
                        std::tuple_cat(detail::feeds_of(feeds)...));
    } else {
      return run_impl(*this, f, feeds...);
    }
  }
  /// A run through a const session: only paths that change nothing (no assign, optimizer
  /// update, initializer or print; anything else does not compile). Safe to call from many
  /// threads at once: each run in flight has its own buffers, variables are only read.
  template <class Fetch, class... Feeds>
  auto run(const Fetch& f, const Feeds&... feeds) const {
    if constexpr (detail::has_feed_map<Feeds...>) {
      return std::apply([&](const auto&... fs) { return run_impl(*this, f, fs...); },
                        std::tuple_cat(detail::feeds_of(feeds)...));
    } else {
      return run_impl(*this, f, feeds...);
    }
  }

  /// Where typeflow::print writes (std::cerr by default, as tf.Print).
  void set_print_stream(std::ostream& os) noexcept { print_stream_ = &os; }
  std::ostream& print_stream() const noexcept { return *print_stream_; }

  // --- variable state -------------------------------------------------------------------

  template <class V>
  static constexpr bool holds = contains_v<variables, V>;

  /// The slot of variable V (value and initialized flag).
  template <class V>
  auto& slot() noexcept {
    static_assert(holds<V>, "the session does not hold this variable");
    return vars_->template get<V>();
  }
  template <class V>
  const auto& slot() const noexcept {
    return vars_->template get<V>();
  }
  template <class V>
  bool is_initialized(V = {}) const noexcept {
    return slot<V>().initialized;
  }

  /// tf.set_random_seed: the graph seed that random initializers without a seed of their
  /// own draw from (with the variable's name), from the next initialization on.
  void set_random_seed(std::uint64_t seed) noexcept { vars_->graph_seed = seed; }

  /// Runs every variable's initializer (what running global_variables_initializer does).
  void initialize_all() { detail::initialize_variables(*vars_, variables{}); }
  template <class V>
  void initialize() {
    static_assert(holds<V>, "the session does not hold this variable");
    detail::initialize_variable<V>(*vars_);
  }
  /// Names of the variables not initialized yet, in graph order.
  std::vector<std::string> uninitialized_names() const {
    return detail::uninitialized_names(*vars_, variables{});
  }

 private:
  using var_storage = detail::session_state<variables, defined_nodes>;

  template <class S, class Fetches, class Fed, class FeedTuple>
  friend struct run_context;

  template <class Self, class Fetch, class... Feeds>
  static auto run_impl(Self& self, const Fetch& f, const Feeds&... feeds);

  std::unique_ptr<var_storage> vars_;
  std::vector<detail::plan_holder> plans_;
  std::unique_ptr<detail::plan_pools> const_plans_;  // the buffers of runs through a const session
  std::ostream* print_stream_ = &std::cerr;
};

template <class... Roots>
session(Roots...) -> session<Roots...>;

/// One run: the values of the path's nodes, the feeds and the session's state.
/// Effect nodes receive it: `ctx.template value<N>()`, `ctx.template variable<V>()`.
template <class Session, class Fetches, class Fed, class FeedTuple>
struct run_context {
  using info = graph::path_info<Fetches, Fed>;
  using order = typename info::order;
  using plan = detail::run_plan<info, Fed, run_context>;
  using buffers_type = typename plan::buffers;
  /// Plans of scalars only are kept on the stack of run(), not in the session.
  static constexpr bool small_plan =
      mp::mp_all_of<typename plan::buffer_types, std::is_trivially_copyable>::value &&
      sizeof(buffers_type) <= 1024;

  Session& session;
  const FeedTuple& feeds;
  buffers_type& buffers;

  /// The definitions the fetches carry that the session does not hold (a named constant
  /// reached only by this run's fetches); usually none.
  using extra_definitions =
      definitions_t<mp::mp_remove_if<mp::mp_copy_if_q<mp::mp_apply<carried_union_t, Fetches>,
                                                     graph::not_in<typename Session::defined_nodes>>,
                                     graph::is_variable_node>>;
  const extra_definitions* extra;

  /// What the steps reach (see detail::run_env).
  using env_type = detail::run_env<buffers_type, FeedTuple, typename Session::var_storage, extra_definitions>;
  env_type env() noexcept { return env_type{buffers, feeds, *session.vars_, this, extra}; }

  template <class N>
  auto& buffer() noexcept {
    return detail::group_items<plan::template location<N>::group>(buffers)[plan::template location<N>::index];
  }

  /// The value of node N in this run: a reference to a buffer, feed or variable, or the
  /// lazy expression of a fused elementwise op.
  template <class N>
  decltype(auto) value() {
    auto e = env();
    return detail::eval(typename plan::template source<N>{}, e);
  }

  /// The storage slot of variable V: `.value` and `.initialized`.
  template <class V>
  auto& slot_of() noexcept {
    return session.template slot<V>();
  }

  template <class V>
  auto& variable() noexcept {
    return slot_of<V>().value;
  }
};

namespace detail {

/// A fetch that reaches a named constant built from its type (no values) fails, naming it.
template <class Extra, class... K>
void check_fetch_definitions(const Extra& extra, mp::mp_list<K...>) {
  std::string missing;
  ((extra.template slot<K>().present || !missing.empty() ? void() : void(missing = K::name.view())), ...);
  if (!missing.empty())
    throw failed_precondition_error("Constant " + missing + " has no value: define it with typeflow::constant<\"" +
                                    missing + "\">(values)");
}

/// The definitions (Extra, a `definitions<K...>`) that the fetch object carries.
template <class Extra, class Fetch>
Extra fetch_definitions(const Fetch& f) {
  Extra extra;
  if constexpr (!std::is_same_v<Extra, definitions<>>) {
    for_each_fetched_node(f, [&](const auto& n) { take_definitions(extra, typename Extra::keys{}, n); });
    check_fetch_definitions(extra, typename Extra::keys{});
  }
  return extra;
}

// One function expands every step of the path: the only function of a run named by the
// path's nodes (through the step descriptors, which are short).
template <class Env, class... S>
void run_steps(Env& env, mp::mp_list<S...>) {
  try {
    (detail::run_step(S{}, env), ...);
  } catch (const xt::broadcast_error& e) {
    // Dynamic dims that numpy broadcasting rejects, found when a fed value meets another.
    throw invalid_argument_error(std::string("Incompatible shapes in an elementwise op: ") + e.what());
  }
}

// The fetched values, from their sources (Src...) as their result types (R...), in the
// structure of the fetch F.
template <class F, class Env, class... Src, class... R>
auto collect(Env& env, mp::mp_list<Src...>, mp::mp_list<R...>) {
  if constexpr (node<F>) {
    using V = mp::mp_front<mp::mp_list<R...>>;
    return V(eval(Src{}, env)...);
  } else if constexpr (is_flat_fetch<F>::value) {
    return std::tuple<R...>(R(eval(Src{}, env))...);
  } else {
    return build_fetch_result<F>(std::tuple<R...>(R(eval(Src{}, env))...));
  }
}

}  // namespace detail

template <class... Roots>
template <class Self, class Fetch, class... Feeds>
inline auto session<Roots...>::run_impl(Self& self, const Fetch& f, const Feeds&... feeds) {
  using structure = detail::fetch_structure<Fetch>;
  if constexpr (!structure::valid) {
    static_assert(fetch_is_not_a_typeflow_node<mp::mp_front<typename structure::not_nodes>>::value,
                  "run(fetch, feeds...): the fetch must be a typeflow node, typeflow::fetch(nodes...) or "
                  "a structure of nodes (std::tuple, std::array, hana::tuple, hana::map, Hana struct)");
    return none_t{};
  } else if constexpr (!(detail::is_feed<Feeds>::value && ...)) {
    static_assert((detail::is_feed<Feeds>::value && ...),
                  "run(fetch, feeds...): pass feeds as typeflow::feed(node, value) or a hana::map from "
                  "nodes to values");
    return none_t{};
  } else if constexpr (mp::mp_empty<typename detail::fetches_of<Fetch>::type>::value) {
    // An empty fetch runs nothing (TensorFlow's sess.run([])); its feeds are still checked.
    static_assert(every_node_is_fed_once<mp::mp_is_set<mp::mp_list<typename Feeds::node_type...>>::value>::value,
                  "run(fetch, feeds...): a node is fed twice");
    (detail::check_feed_shape(feeds), ...);
    return detail::build_fetch_result<Fetch>(std::tuple<>{});
  } else {
    using fetches = typename detail::fetches_of<Fetch>::type;
    using fed = mp::mp_list<typename Feeds::node_type...>;
    static_assert(every_node_is_fed_once<mp::mp_is_set<fed>::value>::value,
                  "run(fetch, feeds...): a node is fed twice");
    using feed_tuple = std::tuple<const Feeds&...>;
    using ctx_t = run_context<Self, fetches, fed, feed_tuple>;
    using order = typename ctx_t::order;

    using unfed = mp::mp_copy_if_q<graph::detail::select<graph::is_placeholder_node, order>,
                                     graph::not_in<fed>>;
    constexpr bool fed_ok = detail::check_feeds_impl<unfed>::value;
    using read_vars = mp::mp_copy_if_q<graph::detail::select<graph::is_variable_node, order>,
                                         graph::not_in<fed>>;
    using effect_vars = graph::detail::concat<mp::mp_transform<reads_of, order>>;
    using written_vars = graph::detail::concat<mp::mp_transform<targets_of, order>>;
    using checked_vars = mp::mp_unique<mp::mp_append<read_vars, effect_vars>>;
    constexpr bool vars_ok =
        detail::check_vars_impl<variables, mp::mp_unique<mp::mp_append<checked_vars, written_vars>>>::value;
    constexpr bool const_ok = [] {
      if constexpr (std::is_const_v<Self>) {
        using changing = mp::mp_copy_if_q<mp::mp_copy_if_q<order, graph::not_in<fed>>, detail::changes_state_q>;
        if constexpr (!mp::mp_empty<changing>::value) {
          using culprit = mp::mp_front<changing>;
          static_assert(a_const_session_runs_no_node_that_changes_state<label_of<culprit>(),
                                                                         detail::first_write_label<culprit>()>::value,
                        "a const session runs only paths that change nothing: run this fetch through a "
                        "non-const session");
          return false;
        }
      }
      return true;
    }();
    if constexpr (!fed_ok || !vars_ok || !const_ok) {
      // After the error above, a value of the right type, so that no second error follows.
      if constexpr (node<Fetch>) {
        return fetch_result_t<Fetch>{};
      } else {
        return detail::build_fetch_result<Fetch>(mp::mp_rename<mp::mp_transform<fetch_result_t, fetches>, std::tuple>{});
      }
    } else {
      // Everything that can be rejected is rejected before anything runs.
      (detail::check_feed_shape(feeds), ...);
      // One branch for all the flags, the error built out of line: the common path stays
      // short enough for the compiler to keep a training loop's values in registers.
      if (!detail::all_initialized(*self.vars_, checked_vars{}))
        detail::throw_uninitialized(*self.vars_, checked_vars{});

      using buffers_type = typename ctx_t::buffers_type;
      using env_type = typename ctx_t::env_type;
      using plan = typename ctx_t::plan;
      using sources = mp::mp_transform<plan::template source, fetches>;
      using results = mp::mp_transform<fetch_result_t, fetches>;
      const feed_tuple feed_refs(feeds...);
      const auto extra = detail::fetch_definitions<typename ctx_t::extra_definitions>(f);
      // Steps and fetches go through env (detail functions named by short types), not
      // through ctx's members (named by the session); effect nodes get ctx.
      if constexpr (ctx_t::small_plan) {
        // Small plans (scalar graphs) live on the stack: no lookup, nothing to keep.
        buffers_type bufs{};
        ctx_t ctx{self, feed_refs, bufs, &extra};
        env_type env{bufs, feed_refs, *self.vars_, &ctx, &extra};
        detail::run_steps(env, typename plan::steps{});
        return detail::collect<Fetch>(env, sources{}, results{});
      } else if constexpr (std::is_const_v<Self>) {
        const detail::plan_pools::lease<buffers_type> lease(*self.const_plans_, detail::plan_id<ctx_t>);
        ctx_t ctx{self, feed_refs, lease.get(), &extra};
        env_type env{lease.get(), feed_refs, *self.vars_, &ctx, &extra};
        detail::run_steps(env, typename plan::steps{});
        return detail::collect<Fetch>(env, sources{}, results{});
      } else {
        auto& bufs = detail::plan_buffers<buffers_type>(self.plans_, detail::plan_id<ctx_t>);
        ctx_t ctx{self, feed_refs, bufs, &extra};
        env_type env{bufs, feed_refs, *self.vars_, &ctx, &extra};
        detail::run_steps(env, typename plan::steps{});
        return detail::collect<Fetch>(env, sources{}, results{});
      }
    }
  }
}

}  // namespace typeflow
