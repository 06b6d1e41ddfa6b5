// typeflow/session/run_context.hpp — one run of a session: what effect nodes receive
// (the values of the path's nodes, the feeds, the session's variables), and the run's
// steps and fetched values.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>
#include <xtensor/xexception.hpp>

#include "typeflow/core/definition.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/session/detail/fusion.hpp"
#include "typeflow/session/detail/plan.hpp"
#include "typeflow/session/detail/steps.hpp"
#include "typeflow/session/fetch.hpp"

namespace typeflow {

template <class Session, class Fetches, class Fed, class FeedTuple>
struct run_context;

namespace session_detail {

/// The type of the K-th feed's value (void for a context whose FeedTuple lists fewer: a
/// plan looked at, never run).
template <class FeedTuple, std::size_t K, bool = (K < std::tuple_size_v<FeedTuple>)>
struct feed_value {
  using type = void;
};
template <class FeedTuple, std::size_t K>
struct feed_value<FeedTuple, K, true> {
  using type = std::remove_reference_t<decltype(std::declval<std::tuple_element_t<K, FeedTuple>>().value)>;
};

template <class Session, class Fetches, class Fed, class FeedTuple>
struct context_traits<run_context<Session, Fetches, Fed, FeedTuple>> {
  using session_type = std::remove_const_t<Session>;
  using defs = definitions_t<typename session_type::defined_nodes>;
  template <std::size_t K>
  using feed_value = typename session_detail::feed_value<FeedTuple, K>::type;
  template <class V>
  using var_source = typename variable_source<typename session_type::variables, V>::type;
  template <class N>
  using constant_source = typename session_detail::constant_source<defs, N>::type;
};

/// The address of each feed's value (run_env::feeds), and a null one after them. Taken
/// from the feeds themselves: a function of them spells each feed's type once. (Taken from
/// a std::tuple of references to the feeds, each level of the tuple was a function named
/// by the feeds after it: 3.6% of the mangler's time in the two-bucket seq2seq port, whose
/// loops feed their bodies every step; benchmarks/RESULTS.md, "what g++ names in the port
/// at -O2".)
template <class... F>
std::array<const void*, sizeof...(F) + 1> feed_addresses(const F&... feeds) noexcept {
  return {static_cast<const void*>(std::addressof(feeds.value))..., nullptr};
}

}  // namespace session_detail

/// One run: the values of the path's nodes, the feeds and the session's state.
/// Effect nodes receive it: `ctx.template value<N>()`, `ctx.template variable<V>()`.
template <class Session, class Fetches, class Fed, class FeedTuple>
struct run_context {
  using info = session_detail::path_info<Fetches, Fed>;
  using order = typename info::order;
  using plan = session_detail::run_plan<info, Fed, run_context>;
  using buffers_type = typename plan::buffers;
  /// Plans of scalars only are kept on the stack of run(), not in the session.
  static constexpr bool small_plan =
      mp::mp_all_of<typename plan::buffer_types, std::is_trivially_copyable>::value &&
      sizeof(buffers_type) <= 1024;

  Session& session;
  // Of each feed's value (session_detail::feed_addresses); FeedTuple, the feeds' types,
  // is a type only: their values are reached through these.
  const void* const* feed_addresses;
  // Of each of the session's variables and definitions (session_detail::state_addresses).
  void* const* variable_addresses;
  const void* const* definition_addresses;
  buffers_type& buffers;

  /// The definitions the fetches carry that the session does not hold (a named constant
  /// reached only by this run's fetches); usually none.
  using extra_definitions =
      definitions_t<mp::mp_remove_if<mp::mp_copy_if_q<mp::mp_apply<carried_union_t, Fetches>,
                                                     graph::not_in<typename Session::defined_nodes>>,
                                     graph::is_variable_node>>;
  const extra_definitions* extra;

  /// What the steps reach (see session_detail::run_env).
  using env_type = session_detail::run_env<buffers_type, extra_definitions>;
  env_type env() noexcept {
    return env_type{buffers, feed_addresses, variable_addresses, definition_addresses, this, extra};
  }

  template <class N>
  auto& buffer() noexcept {
    return session_detail::group_items<plan::template location<N>::group>(buffers)[plan::template location<N>::index];
  }

  /// The value of node N in this run: a reference to a buffer, feed or variable, or the
  /// lazy expression of a fused elementwise op.
  template <class N>
  decltype(auto) value() {
    auto e = env();
    return session_detail::eval(typename plan::template source<N>{}, e);
  }

  /// The storage slot of variable V: `.value` and `.initialized`. (The run has checked
  /// that its session is open: no check here, in what may be a training loop's body.)
  template <class V>
  auto& slot_of() noexcept {
    return session.vars_->template get<V>();
  }

  template <class V>
  auto& variable() noexcept {
    return slot_of<V>().value;
  }

  /// The session's state of resource R, which this effect node names among its targets.
  template <class R>
  auto& resource() noexcept {
    return session.template resource<R>();
  }

  /// Runs the graph that computes Sub (an mp_list of nodes) from Feeds (objects with a
  /// `node_type` and a reference `value`), with this run's session, and calls
  /// `f(values...)` with the fetched values, which live until f returns. A loop
  /// (control/scan.hpp) runs its body through it once per step: the body's plan is made
  /// once and its buffers kept (the session's plan_pools), so a steady step allocates
  /// nothing. The caller has checked the feeds' shapes and the body's placeholders (every
  /// one fed); the variables the body reads are the loop's inputs, checked by this run.
  template <class Sub, class F, class... Feeds>
  void run_subgraph(F&& f, const Feeds&... feeds);
};

namespace session_detail {

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
    for_each_fetched_node(f, [&](const auto& n) { core::detail::take_definitions(extra, typename Extra::keys{}, n); });
    check_fetch_definitions(extra, typename Extra::keys{});
  }
  return extra;
}

// A step of a long path, kept out of line: inlined, the steps of a path of hundreds make
// one function that g++'s optimizer takes superlinear time over (g++ 12 -O2 -c of
// tests/rnn/embedding_seq2seq_test.cpp: 80.4 s of CPU inlined, 65.8 s out of line). A call
// per step is nothing beside the kernels of so long a path; short paths (the scalar step's,
// a plain loop with no calls) stay inlined.
inline constexpr std::size_t outlined_steps_from = 65;
template <class S, class Env>
[[gnu::noinline]] void run_step_outlined(Env& env) {
  session_detail::run_step(S{}, env);
}

// One function expands every step of the path: the only function of a run named by the
// path's nodes (through the step descriptors, which are short).
template <class Env, class... S>
void run_steps(Env& env, mp::mp_list<S...>) {
  try {
    if constexpr (sizeof...(S) >= outlined_steps_from) {
      (run_step_outlined<S>(env), ...);
    } else {
      (session_detail::run_step(S{}, env), ...);
    }
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

}  // namespace session_detail

template <class Session, class Fetches, class Fed, class FeedTuple>
template <class Sub, class F, class... Feeds>
void run_context<Session, Fetches, Fed, FeedTuple>::run_subgraph(F&& f, const Feeds&... feeds) {
  using fed = mp::mp_list<typename Feeds::node_type...>;
  using sub_t = run_context<Session, Sub, fed, std::tuple<const Feeds&...>>;
  using plan = typename sub_t::plan;
  using buffers_t = typename sub_t::buffers_type;
  const auto feed_addresses = session_detail::feed_addresses(feeds...);
  const session_detail::state_addresses<typename Session::var_storage> addresses(*session.vars_);
  const typename sub_t::extra_definitions extra{};
  auto go = [&](buffers_t& bufs) {
    sub_t ctx{session, feed_addresses.data(), addresses.variables.data(), addresses.definitions.data(),
              bufs, &extra};
    auto env = ctx.env();
    session_detail::run_steps(env, typename plan::steps{});
    [&]<class... N>(mp::mp_list<N...>) {
      f(session_detail::eval(typename plan::template source<N>{}, env)...);
    }(Sub{});
  };
  if constexpr (sub_t::small_plan) {
    buffers_t bufs{};
    go(bufs);
  } else if constexpr (std::is_const_v<Session>) {
    const session_detail::plan_pools::lease<buffers_t> lease(*session.plans_, session_detail::plan_id<sub_t>);
    go(lease.get());
  } else {
    go(session.plans_->template own<buffers_t>(session_detail::plan_id<sub_t>));
  }
}


}  // namespace typeflow
