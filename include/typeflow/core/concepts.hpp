// typeflow/core/concepts.hpp — the node protocol, named. Includes nothing heavy.
//
// A node is a small class type whose type is its identity (DESIGN rule 1). Every node says
//   value_type   its element type (float, double, int32_t, int64_t, bool),
//   shape_type   its static shape, `shape<...>`,
//   inputs       an mp_list of the nodes its value is computed from,
//   kind         how the session evaluates it (node_kind).
// What else it may say, each read through one concept or one trait with a default:
//   name                           named_node: its full name, a fixed_string
//   is_variable                    variable_node_type: named state in the session
//   is_hidden_state                hidden_state_node: a variable savers leave out
//   is_resource, resource_type     resource_node_type: host state in the session (an iterator)
//   is_placeholder                 placeholder_node_type: fed by the caller
//   is_named_constant              named_constant_node_type: named data it carries
//   is_literal                     literal_node_type: a compile-time scalar
//   definition_type, definition    defined_node: the run-time value that defines it
//   differentiable, gradient<K, G> differentiable: its gradient rule (autodiff/)
//   scope                          scoped_op: an anonymous op placed in a name scope
//   function                       scalar_function_op: an elementwise op's scalar function
//   static void run(Ctx&)          effect_node (kind == effect), given a run_context_for
//   changes_state                  changes_state<N>() (core/node.hpp), default true for effects
//   output_type, forwards,         an effect's value: its own buffer, X's value, or the
//   forwards_variable              variable's after the write (session/fetch.hpp)
//   targets, reads, carried        targets_of, reads_of, carried_of (core/node.hpp,
//   op_name                        op_name_of, core/definition.hpp), empty or "Op" by default
// Nothing outside core/ probes a node's members: it asks these.
// The library's own ops say op_name and differentiable through a base, op_info<"MatMul">
// (core/node.hpp), rather than as static members of a class named after their inputs.
//
// Each optional member is detected by a class template matched by partial specialization
// (core::detail::declares<Member, N>), never by `requires { N::x; }`: clang renders the diagnostic
// of each failed requirement of a requires-expression into a string as it checks it ("no
// member named 'is_variable' in '...'"), printing N's type, and a node's type spells its
// whole subgraph. Over a graph that printing grows with the square of its size: clang 19
// spent most of an RNN test's compile in it (benchmarks/RESULTS.md, "clang's printed
// requirements"). A failed partial specialization keeps its diagnostic unprinted.
#pragma once

#include <type_traits>

namespace typeflow {

namespace core::detail {
// declares<Member, N>: whether N declares a member, as std::true_type or std::false_type;
// Member<N> names it (the aliases below, one per optional member of the protocol).
template <template <class> class Member, class N, class = void>
struct declares : std::false_type {};
template <template <class> class Member, class N>
struct declares<Member, N, std::void_t<Member<N>>> : std::true_type {};

template <class N> using name_member = decltype(N::name);
template <class N> using is_variable_member = decltype(N::is_variable);
template <class N> using is_hidden_state_member = decltype(N::is_hidden_state);
template <class N> using is_resource_member = decltype(N::is_resource);
template <class N> using resource_type_member = typename N::resource_type;
template <class N> using is_placeholder_member = decltype(N::is_placeholder);
template <class N> using is_named_constant_member = decltype(N::is_named_constant);
template <class N> using is_literal_member = decltype(N::is_literal);
template <class N> using definition_type_member = typename N::definition_type;
template <class N> using differentiable_member = decltype(N::differentiable);
template <class N> using scope_member = decltype(N::scope);
template <class N> using function_member = typename N::function;
template <class N> using op_name_member = decltype(N::op_name);
template <class N> using changes_state_member = decltype(N::changes_state);
template <class N> using targets_member = typename N::targets;
template <class N> using reads_member = typename N::reads;
template <class N> using carried_member = typename N::carried;
template <class N> using output_type_member = typename N::output_type;
template <class N> using forwards_member = typename N::forwards;
template <class N> using forwards_variable_member = typename N::forwards_variable;
template <class N> using compute_kernel_member = typename N::compute_kernel;
}  // namespace core::detail

/// How the session evaluates a node.
enum class node_kind {
  leaf,         // placeholder, variable, constant: the session provides the value
  elementwise,  // `static R apply(scalars...)`: fused into one lazy expression when possible
  compute,      // `static void compute(out, inputs...)`: writes a planned buffer
  effect,       // `static void run(ctx)`: may touch session state (see run_context_for)
};

/// Base of every node type.
struct node_base {};

/// A typeflow graph node. An error here means the argument is not a node:
/// build nodes with typeflow::placeholder, variable, constant or an op.
// (A builtin, not std::is_base_of_v: a variable template per node would be a symbol named
// after the node's type; see graph/traverse.hpp.)
template <class N>
concept node = __is_base_of(node_base, N) && requires {
  typename N::value_type;
  typename N::shape_type;
  typename N::inputs;
  N::kind;
};

/// A node that carries its name in its type: placeholder, variable, named constant.
template <class N>
concept named_node = node<N> && core::detail::declares<core::detail::name_member, N>::value;

/// A variable: named state that lives in each session whose graph reaches it.
template <class N>
concept variable_node_type = node<N> && core::detail::declares<core::detail::is_variable_member, N>::value;

/// A variable that is an op's hidden state (a dropout's random counter): the session holds
/// and initializes it, savers over all variables leave it out.
template <class N>
concept hidden_state_node =
    variable_node_type<N> && core::detail::declares<core::detail::is_hidden_state_member, N>::value;

/// A resource: named state of another kind than a tensor (a dataset iterator) that each
/// session whose graph reaches it holds, a default-constructed `resource_type`. Only
/// effect nodes that name it among their targets touch it (`ctx.template resource<R>()`);
/// it has no value of its own and is never on a run's path. Initializers and optimizers,
/// which work on variables, do not see it; a saver sees it when given it as a saveable
/// (train/saveable.hpp).
template <class N>
concept resource_node_type = node<N> && core::detail::declares<core::detail::is_resource_member, N>::value &&
                             core::detail::declares<core::detail::resource_type_member, N>::value;

/// A placeholder: a named value the caller feeds to each run that reaches it.
template <class N>
concept placeholder_node_type = node<N> && core::detail::declares<core::detail::is_placeholder_member, N>::value;

/// A named constant: `constant<"table">(values)`, whose values its object carries.
template <class N>
concept named_constant_node_type = node<N> && core::detail::declares<core::detail::is_named_constant_member, N>::value;

/// A literal: `constant<2.0>()`, an anonymous compile-time scalar.
template <class N>
concept literal_node_type = node<N> && core::detail::declares<core::detail::is_literal_member, N>::value;

/// A node defined by a run-time value its object carries (`definition`, of
/// `definition_type`): a named constant, a variable with a run-time initializer.
template <class N>
concept defined_node = core::detail::declares<core::detail::definition_type_member, N>::value;

/// A node (or an elementwise op's scalar function) with a gradient rule:
/// `differentiable = true` and `template <std::size_t K, class G> using gradient`.
template <class N>
concept differentiable =
    core::detail::declares<core::detail::differentiable_member, N>::value && bool(N::differentiable);

/// An anonymous op placed in a name scope (core/scope.hpp's scoped_node): `scope` names it.
template <class N>
concept scoped_op = node<N> && core::detail::declares<core::detail::scope_member, N>::value;

/// An elementwise op built from a scalar function (`function`, one of ops/'s fn:: structs),
/// whose gradient rule lives with that function.
template <class N>
concept scalar_function_op = node<N> && core::detail::declares<core::detail::function_member, N>::value;

/// A node that acts when a run flows through it (assign, an optimizer's update, print):
/// the session calls `N::run(ctx)` with a run context.
template <class N>
concept effect_node = node<N> && N::kind == node_kind::effect;

namespace core::detail {
template <class Ctx, class V>
concept has_slot_of = requires(Ctx& ctx) { ctx.template slot_of<V>(); };
template <class Ctx, class L>
struct slots_in;
template <class Ctx, template <class...> class L, class... V>
struct slots_in<Ctx, L<V...>> {
  static constexpr bool value = (has_slot_of<Ctx, V> && ...);
};
// The slots of the variables N writes and reads (the optional `targets`, `reads`).
template <class Ctx, class N>
constexpr bool slots_reachable() {
  bool ok = true;
  if constexpr (declares<targets_member, N>::value) ok = ok && slots_in<Ctx, typename N::targets>::value;
  if constexpr (declares<reads_member, N>::value) ok = ok && slots_in<Ctx, typename N::reads>::value;
  return ok;
}
}  // namespace core::detail

/// What an effect node N may call on the run context `ctx` its `run` is given
/// (session/session.hpp's run_context):
///   ctx.template value<In>()    the value of one of its inputs in this run,
///   ctx.template buffer<N>()    its own value, when it has one (`output_type`),
///   ctx.template slot_of<V>()   the storage of a variable it writes (`targets`) or reads
///                               (`reads`): `.value` and `.initialized`,
///   ctx.session                 the session: initialize_all(), initialize<V>(),
///                               uninitialized_names(), print_stream(), random_seed().
/// (Checked: the session and the slots; an input's value is an expression whose type the
/// run plan decides, so asking for it here would instantiate the plan twice.)
template <class Ctx, class N>
concept run_context_for = effect_node<N> && requires(Ctx& ctx) { ctx.session; } &&
                          core::detail::slots_reachable<Ctx, N>();

}  // namespace typeflow
