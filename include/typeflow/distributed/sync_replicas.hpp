// typeflow/distributed/sync_replicas.hpp — tf.train.SyncReplicasOptimizer on MPI:
// synchronous data-parallel training, each rank computing gradients on its own batch and
// every rank applying the same update with the gradients averaged over the ranks.
//
//   tf::distributed::communicator comm(MPI_COMM_WORLD);
//   auto opt = tf::distributed::sync_replicas(tf::train::adam(1e-3), comm);
//   auto train_op = opt.minimize(loss, tf::train::global_step());
//   tf::session sess(train_op);
//   tf::distributed::bind(sess, comm);
//
// The update node evaluates the gradients of the wrapped optimizer, packs the dense ones into
// one buffer that the session keeps, averages it over the ranks with one MPI_Allreduce
// (MPI_IN_PLACE, after a barrier waited for within the communicator's timeout), and applies the wrapped
// optimizer's update to the averaged values. A sparse gradient (embedding_lookup's
// IndexedSlices) is never made dense: each rank checks its rows and ids, every rank gathers
// every rank's (three allgathers a step for all sparse gradients together: the counts with
// any rank's failure, the ids, the rows), sums them per row in rank order, divides by the
// number of ranks, and applies the optimizer's sparse rule, so the ranks stay bit-identical.
// The global step is incremented once per aggregated step, on every rank alike. It reaches the
// communicator through a resource node of the session ("<optimizer>/sync_replicas"), which
// distributed::bind sets: nothing is program-wide. docs/distributed.md compares it with
// TensorFlow's token-queue design.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/detail/independent_loop.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/distributed/communicator.hpp"
#include "typeflow/distributed/detail/replica_group.hpp"
#include "typeflow/distributed/detail/sparse_exchange.hpp"
#include "typeflow/ops/embedding.hpp"
#include "typeflow/train/optimizer.hpp"
#include "typeflow/train/sparse_update.hpp"

namespace typeflow::distributed {

/// The value type of a replica-group resource node: never fetched or fed.
struct replica_group_handle {};

/// The resource node of the optimizer named OptName over variables of element type T: the
/// session's binding to a communicator and its fused gradient buffer.
template <fixed_string OptName, class T>
struct replica_group_node : node_base, kind_tag<node_kind::leaf>, op_info<"SyncReplicasGroup", false> {
  using value_type = replica_group_handle;
  using shape_type = scalar;
  using inputs = mp::mp_list<>;
  static constexpr auto name = join_names<OptName, "sync_replicas">();
  static constexpr bool is_resource = true;
  static constexpr bool is_replica_group = true;
  using resource_type = detail::replica_group_state<T>;
};

namespace detail {
template <class R>
using is_replica_group = std::bool_constant<requires { R::is_replica_group; }>;

template <class P>
constexpr bool is_sparse_pair = indexed_slices<typename P::gradient>;

// What the update node evaluates for a pair: a dense gradient, or a sparse one's terms'
// rows and ids (as the ordinary update, train/optimizer.hpp).
template <class Def, class P, bool Sparse = is_sparse_pair<P>>
struct sync_input {
  using type = mp::mp_list<typename P::gradient>;
};
template <class Def, class P>
struct sync_input<Def, P, true> {
  using type = typename train::detail::update_inputs<Def, P, 2>::type;
};

template <class Def, class GlobalStep, class Group, class... Pairs>
using sync_update_facade = typename train::detail::effect_facade<
    mp::mp_push_back<typename train::detail::update_targets<Def, GlobalStep, Pairs...>::type, Group>,
    mp::mp_append<typename Def::hyper_nodes, typename sync_input<Def, Pairs>::type...>>::type;

template <class V, class G, class Ctx, class T>
void pack(Ctx& ctx, T* buf, std::size_t& offset) {
  const auto& g = ctx.template value<G>();
  train::detail::check_gradient_size<V>(g);
  const auto* p = train::detail::data_of(g);
  T* out = buf + offset;
  core::detail::independent_loop<shape_of<V>::size>([&](std::size_t i) { out[i] = static_cast<T>(p[i]); });
  offset += shape_of<V>::size;
}
template <class Def, class V, class Ctx, class Step, class T>
void apply_averaged(Ctx& ctx, const Step& step, const T* buf, std::size_t& offset) {
  Def::template apply<V>(ctx, step, buffer_view<T>{buf + offset, shape_of<V>::size});
  offset += shape_of<V>::size;
}

}  // namespace detail

/// The synchronous update node: evaluates the gradients, averages the dense ones over the
/// ranks with one allreduce and gathers the sparse ones' rows and ids from every rank (three
/// allgathers, whatever their number), applies the optimizer Def's update, increments the
/// global step.
template <class Def, class GlobalStep, class Group, class... Pairs>
struct sync_apply_node : detail::sync_update_facade<Def, GlobalStep, Group, Pairs...>, op_info_of<Def> {
  using output_type = none_t;
  using first_variable = typename mp::mp_front<mp::mp_list<Pairs...>>::variable;
  using reads = typename train::detail::update_targets<Def, GlobalStep, Pairs...>::type;
  using element_type = value_type_of<first_variable>;

  static_assert((std::is_same_v<value_type_of<typename Pairs::variable>, element_type> && ...),
                "sync_replicas: every variable it updates must have one element type (float or double); "
                "use one sync_replicas optimizer per element type");

  /// The same update of the gradients F<G> (ops/rewrite.hpp).
  template <template <class> class F>
  using rebuild = sync_apply_node<
      Def, GlobalStep, Group,
      train::grad_and_var_t<mp::mp_if<std::is_same<F<typename Pairs::gradient>, typename Pairs::variable>,
                                      typename Pairs::gradient, F<typename Pairs::gradient>>,
                            typename Pairs::variable>...>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    using T = element_type;
    using sparse = mp::mp_remove<mp::mp_list<mp::mp_if_c<detail::is_sparse_pair<Pairs>, Pairs, void>...>, void>;
    constexpr std::size_t sparse_count = mp::mp_size<sparse>::value;
    constexpr std::size_t dense_total =
        ((detail::is_sparse_pair<Pairs> ? 0 : shape_of<typename Pairs::variable>::size) + ... + 0);
    auto& group = ctx.template resource<Group>();
    const communicator& comm = group.get(Group::name.view());
    // The sparse exchange first: a sparse gradient that fails its checks on any rank makes
    // every rank throw after one collective, before anything changes.
    if constexpr (sparse_count > 0) detail::exchange_sparse<T>(ctx, comm, group.sparse(), sparse{});
    T* buf = nullptr;
    if constexpr (dense_total > 0) {
      buf = group.buffer(dense_total);
      std::size_t offset = 0;
      mp::mp_for_each<mp::mp_list<mp::mp_identity<Pairs>...>>([&](auto id) {
        using P = typename decltype(id)::type;
        if constexpr (!detail::is_sparse_pair<P>) detail::pack<typename P::variable, typename P::gradient>(ctx, buf, offset);
      });
      detail::allreduce_mean<dense_total>(comm, buf);
    }
    const auto step = Def::template prepare<first_variable>(ctx);
    std::size_t offset = 0, p = 0;
    mp::mp_for_each<mp::mp_list<mp::mp_identity<Pairs>...>>([&](auto id) {
      using P = typename decltype(id)::type;
      if constexpr (detail::is_sparse_pair<P>) {
        detail::apply_gathered<Def, typename P::variable>(ctx, step, group.sparse(), p++, sparse_count,
                                                          static_cast<std::size_t>(comm.size()));
      } else {
        detail::apply_averaged<Def, typename P::variable>(ctx, step, static_cast<const T*>(buf), offset);
      }
    });
    Def::template finish<first_variable>(ctx, step);
    if constexpr (!std::is_void_v<GlobalStep>) ctx.template slot_of<GlobalStep>().value += 1;
  }
};

/// tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate, total_num_replicas) over the
/// ranks of a communicator: compute_gradients is the wrapped optimizer's, apply_gradients and
/// minimize build the synchronous update.
template <class Def>
class sync_replicas_optimizer {
 public:
  using definition = Def;

  sync_replicas_optimizer(const train::optimizer<Def>& opt, const communicator& comm,
                          std::optional<int> replicas_to_aggregate, std::optional<int> total_num_replicas)
      : opt_(opt) {
    check("replicas_to_aggregate", replicas_to_aggregate, comm);
    check("total_num_replicas", total_num_replicas, comm);
  }

  /// The wrapped optimizer.
  const train::optimizer<Def>& optimizer() const noexcept { return opt_; }

  template <node Loss, class... Args>
  constexpr auto compute_gradients(const Loss& loss, const Args&... args) const {
    return opt_.compute_gradients(loss, args...);
  }

  template <class... G, class... V>
  constexpr auto apply_gradients(const std::tuple<train::grad_and_var_t<G, V>...>& pairs) const {
    return apply_node<void>(pairs);
  }
  template <class... G, class... V>
  constexpr auto apply_gradients(const std::tuple<train::grad_and_var_t<G, V>...>& pairs,
                                 const train::global_step_node& gs) const {
    return apply_node<train::global_step_node>(pairs, gs);
  }

  template <node Loss>
  constexpr auto minimize(const Loss& loss) const {
    return apply_gradients(compute_gradients(loss));
  }
  template <node Loss, class... V>
  constexpr auto minimize(const Loss& loss, const train::var_list_t<V...>& vars) const {
    return apply_gradients(compute_gradients(loss, vars));
  }
  template <node Loss>
  constexpr auto minimize(const Loss& loss, const train::global_step_node& gs) const {
    return apply_gradients(compute_gradients(loss), gs);
  }
  template <node Loss, class... V>
  constexpr auto minimize(const Loss& loss, const train::var_list_t<V...>& vars,
                          const train::global_step_node& gs) const {
    return apply_gradients(compute_gradients(loss, vars), gs);
  }

 private:
  static void check(const char* argument, std::optional<int> value, const communicator& comm) {
    if (value && *value != comm.size())
      throw invalid_argument_error("sync_replicas: " + std::string(argument) + " = " + std::to_string(*value) +
                                   " is not supported: every step aggregates one gradient from each of the " +
                                   std::to_string(comm.size()) + " ranks of the communicator, so " + argument +
                                   " must be " + std::to_string(comm.size()) + " (or left out)");
  }

  template <class GlobalStep, class... P, class... Extra>
  constexpr auto apply_node(const std::tuple<P...>& pairs, const Extra&... extra) const {
    if constexpr (sizeof...(P) == 0) {
      return group_node<>{};  // inert: compute_gradients has reported the error
    } else {
      using first = typename mp::mp_front<mp::mp_list<P...>>::variable;
      using group = replica_group_node<Def::name, value_type_of<first>>;
      return std::apply(
          [&](const auto&... h) {
            return std::apply(
                [&](const P&... p) {
                  return make_node<sync_apply_node<Def, GlobalStep, group, P...>>(h..., p.gradient_node...,
                                                                                  p.variable_node..., extra...);
                },
                pairs);
          },
          opt_.hyperparameters());
    }
  }

  train::optimizer<Def> opt_;
};

/// `sync_replicas(opt, comm)`: opt's updates averaged over the ranks of comm. TensorFlow's
/// replicas_to_aggregate and total_num_replicas may be given; only comm.size() is supported
/// for either (every rank contributes to every step), another value is invalid_argument.
template <class Def>
sync_replicas_optimizer<Def> sync_replicas(const train::optimizer<Def>& opt, const communicator& comm,
                                           std::optional<int> replicas_to_aggregate = {},
                                           std::optional<int> total_num_replicas = {}) {
  return sync_replicas_optimizer<Def>(opt, comm, replicas_to_aggregate, total_num_replicas);
}

/// Binds every synchronous update of the session's graph to comm, which must outlive the
/// session's runs. A run of an unbound update throws failed_precondition.
template <class Session>
void bind(Session& sess, const communicator& comm) {
  using groups = mp::mp_copy_if<typename Session::resources, detail::is_replica_group>;
  static_assert(!mp::mp_empty<groups>::value,
                "distributed::bind(session, comm): the session's graph has no sync_replicas update");
  mp::mp_for_each<groups>([&](auto r) { sess.template resource<decltype(r)>().bind(comm); });
}

}  // namespace typeflow::distributed
