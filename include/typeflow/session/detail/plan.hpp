// typeflow/session/detail/plan.hpp — how a run evaluates a path: each node's source (where
// its value is read) and step (what computes it), and the buffers, grouped by type.
#pragma once

#include <cstddef>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/session/detail/buffers.hpp"
#include "typeflow/session/detail/fusion.hpp"
#include "typeflow/session/detail/steps.hpp"

namespace typeflow::session_detail {

/// Where a run reads a node's value (run_plan::source).
enum class source_kind {
  feed,                // a fed node: its feed (feed_src)
  variable,            // a variable: its slot in the session (var_src)
  constant,            // a literal or a named constant (leaf_src)
  unfed_placeholder,   // a placeholder without a feed: rejected before anything runs (unfed_src)
  forwarded_node,      // an effect whose value is another node's (M::forwards): that node's source
  forwarded_variable,  // an effect whose value is a variable's (M::forwards_variable): var_src
  buffer,              // a materialized node: its buffer (buf_src)
  fused,               // fused into its consumer: the expression of its inputs' sources
};

/// What a run does for a node (run_plan::step).
enum class step_kind {
  none,       // nothing: an input, or fused into its consumer's step
  compute,    // a compute op writes its buffer: N::compute(out, inputs...)
  effect,     // an effect runs: N::run(ctx)
  assign,     // an elementwise tree is assigned to its buffer (xtensor, or a scalar)
  flat_loop,  // an elementwise tree of static shapes, by the session's own flat loop
};

template <class Fed, class M, bool Materialized>
struct source_kind_of
    : std::integral_constant<
          source_kind,
          graph::detail::in_short_list<Fed, M>::value ? source_kind::feed
          : M::kind == node_kind::leaf ? (variable_node_type<M>      ? source_kind::variable
                                          : placeholder_node_type<M> ? source_kind::unfed_placeholder
                                                                     : source_kind::constant)
          : M::kind == node_kind::effect && core::detail::declares<core::detail::forwards_member, M>::value
              ? source_kind::forwarded_node
          : M::kind == node_kind::effect && core::detail::declares<core::detail::forwards_variable_member, M>::value
              ? source_kind::forwarded_variable
          : Materialized ? source_kind::buffer
                         : source_kind::fused> {};

/// What a plan made for run context Ctx needs of the run's types: the value type of the
/// K-th feed, and where the session holds a variable or a named constant
/// (`var_source<V>`, `constant_source<N>`); specialized for run_context (run_context.hpp).
template <class Ctx>
struct context_traits;

/// The source of a run's variable V in a session whose variables are Vars: its position
/// there, and its value's type.
template <class Vars, class V>
struct variable_source {
  static constexpr std::size_t index = mp::mp_find<Vars, V>::value;
  static_assert(index < mp::mp_size<Vars>::value, "internal: a run reads a variable its session does not hold");
  using type = var_src<index, decltype(variable_slot<V>::value)>;
};
/// The source of a run's constant N: a literal, a named constant the session holds (by its
/// position among Defs' keys), or one the fetch carries.
template <class Defs, class N, bool = !literal_node_type<N> && Defs::template holds<N>>
struct constant_source {
  using type = leaf_src<N>;
};
template <class Defs, class N>
struct constant_source<Defs, N, true> {
  using type = def_src<mp::mp_find<typename Defs::keys, N>::value, typename N::definition_type>;
};

/// An operand of a compute kernel: an input reduced to its element type and static shape.
template <class T, class S>
struct kernel_operand : node_facade<T, S, node_kind::leaf> {};

template <class M, class... Operands>
using rebound_on = typename M::template rebind<Operands...>;

/// The type whose `compute` a compute step of node M calls: M rebuilt (`M::rebind`) on
/// kernel_operands of its inputs' element types and shapes, or M itself when it has no
/// `rebind`. A compute op's kernel reads of its inputs only their element types and
/// shapes (the values arrive as arguments), so the rebuilt node computes the same; but
/// its name is short, while M's spells the whole graph under it. The step, its
/// `run_step` and the kernel's `compute` are functions named by this type: named by M,
/// they were most of the symbol text of an unrolled recurrent training program, and
/// their names grew with the square of its step count (benchmarks/RESULTS.md, "Recurrent
/// models"). Nodes of equal op and shapes now share one kernel.
template <class M, class In = inputs_of<M>>
struct compute_kernel;
template <class M, class... In>
struct compute_kernel<M, mp::mp_list<In...>> {
  using type = mp::mp_eval_or<M, rebound_on, M, kernel_operand<value_type_of<In>, shape_of<In>>...>;
};
/// A node that names its kernel itself (`M::compute_kernel`: a loop's outputs, read from
/// its record by types that do not spell the loop's body).
template <class M, class... In>
  requires(core::detail::declares<core::detail::compute_kernel_member, M>::value)
struct compute_kernel<M, mp::mp_list<In...>> {
  using type = typename M::compute_kernel;
};
template <class M>
using compute_kernel_t = typename compute_kernel<M>::type;

/// How a run evaluates the path of Info (a session_detail::path_info) with Fed (an mp_list): each
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
  template <class M, source_kind = source_kind_of<Fed, M, Info::template materialized_c<M>::value>::value>
  struct source_impl;
  template <class M, class In, bool = scalar_function_op<M>>
  struct expr_impl;
  template <class M>
  struct source_impl<M, source_kind::feed> {
    static constexpr std::size_t k = mp::mp_find<Fed, M>::value;
    using type = feed_src<k, typename context_traits<Ctx>::template feed_value<k>>;
  };
  template <class M>
  struct source_impl<M, source_kind::variable> {
    using type = typename context_traits<Ctx>::template var_source<M>;
  };
  template <class M>
  struct source_impl<M, source_kind::constant> {
    using type = typename context_traits<Ctx>::template constant_source<M>;
  };
  template <class M>
  struct source_impl<M, source_kind::unfed_placeholder> {
    using type = unfed_src<M>;
  };
  template <class M>
  struct source_impl<M, source_kind::forwarded_node> {
    using type = typename source_impl<typename M::forwards>::type;
  };
  template <class M>
  struct source_impl<M, source_kind::forwarded_variable> {
    using type = typename context_traits<Ctx>::template var_source<typename M::forwards_variable>;
  };
  template <class M>
  struct source_impl<M, source_kind::buffer> {
    using type = location<M>;
  };
  template <class M>
  struct source_impl<M, source_kind::fused> {
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
  // (No static data member here: each would be a symbol per node whose mangled name spells
  // this class's arguments, the whole path; g++ names every such symbol, in time growing
  // with the square of the name's length: 2.4 s of the 400-node gradient's compile.)
  template <class R, class M, bool = Info::template fusible_c<M>::value>
  struct flat_impl {
    using type = flat_leaf<typename source_impl<M>::type, flat_read_of(shape_of<M>::size, shape_of<R>::size)>;
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

  template <class M, step_kind = !Info::template materialized_c<M>::value ? step_kind::none
                                 : M::kind == node_kind::compute           ? step_kind::compute
                                 : M::kind == node_kind::effect            ? step_kind::effect
                                 : std::is_arithmetic_v<buffer_t<M>>       ? step_kind::assign
                                 : Info::template flat_c<M>::value         ? step_kind::flat_loop
                                                                           : step_kind::assign>
  struct step_impl {
    using type = no_step;
  };
  template <class M, class In>
  struct compute_impl;
  template <class M, class... In>
  struct compute_impl<M, mp::mp_list<In...>> {
    using type = compute_step<compute_kernel_t<M>, location<M>, typename source_impl<In>::type...>;
  };
  template <class M>
  struct step_impl<M, step_kind::compute> {
    using type = typename compute_impl<M, inputs_of<M>>::type;
  };
  template <class M>
  struct step_impl<M, step_kind::effect> {
    using type = effect_step<M, Ctx>;
  };
  template <class M>
  struct step_impl<M, step_kind::assign> {
    using type = assign_step<location<M>, typename expr_impl<M, inputs_of<M>>::type>;
  };
  template <class M>
  struct step_impl<M, step_kind::flat_loop> {
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


}  // namespace typeflow::session_detail
