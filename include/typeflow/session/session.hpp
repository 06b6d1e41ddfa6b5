// typeflow/session/session.hpp — tf.Session: variable storage and run().
//
// A session owns storage for every variable reachable from its roots. run() evaluates
// exactly the computation path of its fetches (graph::path_order), each node once, in a
// topological order fixed at compile time. Buffers are planned once per (fetch, feed)
// combination and reused: a steady-state run of a static-shape graph allocates nothing.
//
// The header users include. The session's parts, one concern each:
//   session/diagnostics.hpp     the types that name the user's mistakes in compile errors
//   session/feed.hpp, fetch.hpp feeds, fetch structures and their results
//   session/run_context.hpp     one run: what effect nodes receive; the run's steps
//   session/detail/checks.hpp   the compile-time checks of a graph and of a run's path
//   session/detail/storage.hpp  variable slots, keyed sets, session_state, initializers
//   session/detail/buffers.hpp  a plan's buffers and the per-plan store (plan_pools)
//   session/detail/steps.hpp    the step IR: sources (feed_src, ...), steps, their evaluation
//   session/detail/fusion.hpp   session_detail::path_info: which nodes are fused, which get a buffer
//   session/detail/plan.hpp     run_plan: each node's source_kind and step_kind
#pragma once

#include <cstdint>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/rewrite.hpp"
#include "typeflow/session/detail/buffers.hpp"
#include "typeflow/session/detail/checks.hpp"
#include "typeflow/session/detail/fusion.hpp"
#include "typeflow/session/detail/plan.hpp"
#include "typeflow/session/detail/run_result.hpp"
#include "typeflow/session/detail/steps.hpp"
#include "typeflow/session/detail/storage.hpp"
#include "typeflow/session/diagnostics.hpp"
#include "typeflow/session/feed.hpp"
#include "typeflow/session/fetch.hpp"
#include "typeflow/session/run_context.hpp"

namespace typeflow {

namespace session_detail {
/// Where a session is now. Kept on the heap and moved with the session, which writes its new
/// address into it: a session_ref that reads it follows the session's moves. Shared with the
/// refs, so that it outlives the session: a destroyed session, or one assigned over, leaves
/// it pointing nowhere.
struct session_anchor {
  const void* where = nullptr;
};
}  // namespace session_detail

/// A reference to a session that stays valid when the session is moved (into a struct, a
/// container, out of a function). What a servable holds. Once the session, or what it was
/// moved into, is destroyed or assigned over, get() throws cancelled_error (TensorFlow's use
/// of a closed session) instead of reading freed memory.
template <class Session>
class session_ref {
 public:
  explicit session_ref(std::shared_ptr<const session_detail::session_anchor> anchor) noexcept
      : anchor_(std::move(anchor)) {}
  // Copied, never emptied: a moved-from ref (in a moved-from servable) still finds the session.
  session_ref(const session_ref&) = default;
  session_ref& operator=(const session_ref&) = default;
  const Session& get() const {
    if (anchor_->where == nullptr) session_detail::throw_session_gone();
    return *static_cast<const Session*>(anchor_->where);
  }

 private:
  std::shared_ptr<const session_detail::session_anchor> anchor_;
};

/// tf.Session. `session sess(roots...)` holds every variable the roots reach.
template <class... Roots>
class session {
  static_assert((node<Roots> && ...),
                "typeflow::session(roots...) takes graph nodes (placeholders, variables, ops)");

 public:
  /// Every node of the session's graph, inputs first.
  using graph_nodes = graph::graph_order<Roots...>;
  using variables = graph::detail::select<graph::is_variable_node, graph_nodes>;
  /// The resources (dataset iterators) the graph's effect nodes target.
  using resources = graph::detail::select<graph::is_resource_node, graph_nodes>;
  using named_nodes = graph::detail::select<graph::is_named, graph_nodes>;
  /// A session whose graph was rejected at compile time (two nodes of one name): after that
  /// error it runs nothing.
  static constexpr bool rejected = (session_detail::is_rejected_graph<Roots>::value && ...) && sizeof...(Roots) > 0;
  static_assert(session_detail::check_rejected<Roots...>::value);
  static_assert(session_detail::check_names_impl<named_nodes>::value);

  /// The run-time definitions of the graph (named constants' values, run-time
  /// initializers), taken from the roots.
  using defined_nodes = carried_union_t<Roots...>;

  /// A rejected graph (see session_detail::rejected_graph) takes the roots given and holds nothing.
  template <class... Given>
    requires(session_detail::is_rejected_graph<Roots>::value && ...)
  explicit session(const Given&...)
      : vars_(std::make_unique<var_storage>()),
        resources_(std::make_unique<resource_storage>()),
        plans_(std::make_unique<session_detail::plan_pools>()),
        anchor_(std::make_shared<session_detail::session_anchor>(this)) {}

  explicit session(const Roots&... roots)
      : vars_(std::make_unique<var_storage>()),
        resources_(std::make_unique<resource_storage>()),
        plans_(std::make_unique<session_detail::plan_pools>()),
        anchor_(std::make_shared<session_detail::session_anchor>(this)) {
    if constexpr (!mp::mp_empty<defined_nodes>::value)
      session_detail::take_root_definitions(vars_->defs, defined_nodes{}, roots...);
  }

  session(const session&) = delete;
  session& operator=(const session&) = delete;
  // A move takes the state, and tells the anchor where the session is now.
  session(session&& other) noexcept
      : vars_(std::move(other.vars_)),
        resources_(std::move(other.resources_)),
        plans_(std::move(other.plans_)),
        print_stream_(other.print_stream_),
        anchor_(std::move(other.anchor_)) {
    if (anchor_) anchor_->where = this;
  }
  session& operator=(session&& other) noexcept {
    if (this != &other) {
      if (anchor_) anchor_->where = nullptr;  // this session's state goes: its refs are closed
      vars_ = std::move(other.vars_);
      resources_ = std::move(other.resources_);
      plans_ = std::move(other.plans_);
      print_stream_ = other.print_stream_;
      anchor_ = std::move(other.anchor_);
      if (anchor_) anchor_->where = this;
    }
    return *this;
  }
  ~session() {
    if (anchor_) anchor_->where = nullptr;
  }

  /// A reference that follows this session when it is moved (see session_ref).
  session_ref<session> ref() const {
    live();
    return session_ref<session>(anchor_);
  }

  /// `run(y, feed(x, value)...)` returns y's value; `run(fetch(a, b), ...)` a tuple; a
  /// structure of nodes (session/fetch.hpp) the same structure of values. Feeds are
  /// feed(x, value) or hana::maps from nodes to values.
  template <class Fetch, class... Feeds>
  auto run(const Fetch& f, const Feeds&... feeds) -> session_detail::run_result_t<session, Fetch, Feeds...> {
    return run_checked<session_detail::run_result_t<session, Fetch, Feeds...>>(*this, f, feeds...);
  }
  /// A run through a const session: only paths that change nothing (no assign, optimizer
  /// update, initializer or print; anything else does not compile). Safe to call from many
  /// threads at once: each run in flight has its own buffers, variables are only read.
  template <class Fetch, class... Feeds>
  auto run(const Fetch& f, const Feeds&... feeds) const -> session_detail::run_result_t<const session, Fetch, Feeds...> {
    return run_checked<session_detail::run_result_t<const session, Fetch, Feeds...>>(*this, f, feeds...);
  }

  /// Where typeflow::print writes (std::cerr by default, as tf.Print).
  void set_print_stream(std::ostream& os) noexcept { print_stream_ = &os; }
  std::ostream& print_stream() const noexcept { return *print_stream_; }

  // --- variable state -------------------------------------------------------------------

  template <class V>
  static constexpr bool holds = contains_v<variables, V>;

  /// The slot of variable V (value and initialized flag).
  template <class V>
  auto& slot() {
    static_assert(holds<V>, "the session does not hold this variable");
    return live().template get<V>();
  }
  template <class V>
  const auto& slot() const {
    return live().template get<V>();
  }
  template <class V>
  bool is_initialized(V = {}) const {
    return slot<V>().initialized;
  }

  /// The state of resource R (a dataset iterator's), default-constructed with the session.
  template <class R>
  auto& resource() {
    static_assert(contains_v<resources, R>, "the session does not hold this resource");
    live();
    return resources_->template get<R>();
  }
  template <class R>
  const auto& resource() const {
    static_assert(contains_v<resources, R>, "the session does not hold this resource");
    live();
    return resources_->template get<R>();
  }

  /// tf.set_random_seed: the graph seed that random initializers without a seed of their
  /// own draw from (with the variable's name), from the next initialization on.
  void set_random_seed(std::uint64_t seed) { live().graph_seed = seed; }
  /// The graph seed (what random ops without state of their own, like dropout, draw from).
  std::uint64_t random_seed() const { return live().graph_seed; }

  /// Runs every variable's initializer (what running global_variables_initializer does).
  void initialize_all() { session_detail::initialize_variables(live(), variables{}); }
  template <class V>
  void initialize() {
    static_assert(holds<V>, "the session does not hold this variable");
    session_detail::initialize_variable<V>(live());
  }
  /// Names of the variables not initialized yet, in graph order.
  std::vector<std::string> uninitialized_names() const {
    return session_detail::uninitialized_names(live(), variables{});
  }

 private:
  using var_storage = session_detail::session_state<variables, defined_nodes>;
  using resource_storage = typename session_detail::keyed_set_of<session_detail::resource_value, resources>::type;

  template <class S, class Fetches, class Fed, class FeedTuple>
  friend struct run_context;

  // A rejected run (see session_detail::rejected_run) returns an inert value and runs nothing;
  // otherwise hana::map feeds are spread into feed_t's and the run goes ahead.
  template <class Result, class Self, class Fetch, class... Feeds>
  static Result run_checked(Self& self, const Fetch& f, const Feeds&... feeds) {
    if constexpr (session_detail::is_rejected_run<Result>::value || rejected) {
      return Result{};
    } else if constexpr (session_detail::has_feed_map<Feeds...>) {
      return std::apply([&](const auto&... fs) { return run_impl(self, f, fs...); },
                        std::tuple_cat(session_detail::feeds_of(feeds)...));
    } else {
      return run_impl(self, f, feeds...);
    }
  }

  template <class Self, class Fetch, class... Feeds>
  static auto run_impl(Self& self, const Fetch& f, const Feeds&... feeds);

  // The state, or a closed session's error: a moved-from session holds nothing, and using
  // it is TensorFlow's use of a closed session.
  var_storage& live() const {
    if (!vars_) session_detail::throw_closed_session();
    return *vars_;
  }

  std::unique_ptr<var_storage> vars_;
  std::unique_ptr<resource_storage> resources_;
  std::unique_ptr<session_detail::plan_pools> plans_;  // the buffers of its plans' runs
  std::ostream* print_stream_ = &std::cerr;
  std::shared_ptr<session_detail::session_anchor> anchor_;  // where refs find the session
};

// Each root as given, or every root a rejected_graph naming the name used twice.
template <class... Roots>
session(Roots...) -> session<session_detail::guided_root<Roots, Roots...>...>;

template <class... Roots>
template <class Self, class Fetch, class... Feeds>
inline auto session<Roots...>::run_impl(Self& self, const Fetch& f, const Feeds&... feeds) {
  // run() has rejected every ill-formed run before this point (session_detail::diagnose_run).
  if constexpr (mp::mp_empty<typename session_detail::fetches_of<Fetch>::type>::value) {
    // An empty fetch runs nothing (TensorFlow's sess.run([])); its feeds are still checked.
    (void)self.live();
    (session_detail::check_feed_shape(feeds), ...);
    return session_detail::build_fetch_result<Fetch>(std::tuple<>{});
  } else {
    using fed = mp::mp_list<typename Feeds::node_type...>;
    // What the run evaluates: the fetches rewritten (ops/rewrite.hpp), then planned.
    using fetches = run_fetches_t<typename session_detail::fetches_of<Fetch>::type, fed>;
    using feed_tuple = std::tuple<const Feeds&...>;
    using ctx_t = run_context<Self, fetches, fed, feed_tuple>;
    using order = typename ctx_t::order;
    using read_vars = mp::mp_copy_if_q<graph::detail::select<graph::is_variable_node, order>,
                                         graph::not_in<fed>>;
    using effect_vars = graph::detail::concat<mp::mp_transform<reads_of, order>>;
    using checked_vars = mp::mp_unique<mp::mp_append<read_vars, effect_vars>>;
    // Everything that can be rejected is rejected before anything runs.
    (session_detail::check_feed_shape(feeds), ...);
    // One branch for all the flags, the error built out of line: the common path stays
    // short enough for the compiler to keep a training loop's values in registers.
    // A closed session's run throws. Where the state is small (a scalar graph's, whose step
    // the check must not slow), its flags are read from a static state in which none is set,
    // so the one branch also catches it and its cold path tells the two apart: a branch of its
    // own made GCC reload the variables from memory every step of a training loop (the scalar
    // regression step from 410-490 to 700 us per 100,000 steps). A larger state checks with a
    // branch of its own, a nanosecond beside its step, and has no static copy of its size.
    using state_type = typename std::remove_const_t<Self>::var_storage;
    if constexpr (mp::mp_empty<checked_vars>::value || !session_detail::has_closed_state<state_type>)
      (void)self.live();
    const state_type* flags = nullptr;
    if constexpr (session_detail::has_closed_state<state_type>)
      flags = self.vars_ ? self.vars_.get() : &session_detail::closed_state<state_type>;
    else
      flags = self.vars_.get();
    if (!session_detail::all_initialized(*flags, checked_vars{}))
      session_detail::throw_unrunnable(self.vars_.get(), checked_vars{});

    using buffers_type = typename ctx_t::buffers_type;
    using plan = typename ctx_t::plan;
    using sources = mp::mp_transform<plan::template source, fetches>;
    using results = mp::mp_transform<fetch_result_t, typename session_detail::fetches_of<Fetch>::type>;
    const auto feed_addresses = session_detail::feed_addresses(feeds...);
    const session_detail::state_addresses<typename std::remove_const_t<Self>::var_storage> addresses(*self.vars_);
    const auto extra = session_detail::fetch_definitions<typename ctx_t::extra_definitions>(f);
    // Steps and fetches go through env (detail functions named by short types), not
    // through ctx's members (named by the session); effect nodes get ctx.
    if constexpr (ctx_t::small_plan) {
      // Small plans (scalar graphs) live on the stack: no lookup, nothing to keep.
      buffers_type bufs{};
      ctx_t ctx{self, feed_addresses.data(), addresses.variables.data(), addresses.definitions.data(),
                bufs, &extra};
      auto env = ctx.env();
      session_detail::run_steps(env, typename plan::steps{});
      return session_detail::collect<Fetch>(env, sources{}, results{});
    } else if constexpr (std::is_const_v<Self>) {
      const session_detail::plan_pools::lease<buffers_type> lease(*self.plans_, session_detail::plan_id<ctx_t>);
      ctx_t ctx{self, feed_addresses.data(), addresses.variables.data(), addresses.definitions.data(),
                lease.get(), &extra};
      auto env = ctx.env();
      session_detail::run_steps(env, typename plan::steps{});
      return session_detail::collect<Fetch>(env, sources{}, results{});
    } else {
      auto& bufs = self.plans_->template own<buffers_type>(session_detail::plan_id<ctx_t>);
      ctx_t ctx{self, feed_addresses.data(), addresses.variables.data(), addresses.definitions.data(),
                bufs, &extra};
      auto env = ctx.env();
      session_detail::run_steps(env, typename plan::steps{});
      return session_detail::collect<Fetch>(env, sources{}, results{});
    }
  }
}

}  // namespace typeflow
