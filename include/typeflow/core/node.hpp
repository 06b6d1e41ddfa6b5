// typeflow/core/node.hpp — what a node is: the facades node types derive from and the
// protocol's traits with their defaults.
//
// The protocol itself, what a node says and the concepts that read it, is in
// core/concepts.hpp. A node is a small class type; its type is its identity (DESIGN rule 1).
// Its object holds only the run-time definitions its graph needs (core/definition.hpp).
#pragma once

#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <boost/mp11/utility.hpp>

#include "typeflow/core/concepts.hpp"
#include "typeflow/core/definition.hpp"
#include "typeflow/core/detail/contains.hpp"
#include "typeflow/core/dtype.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/shape.hpp"

namespace typeflow {

namespace mp = boost::mp11;

/// A node's kind, `N::kind`, from a base that does not name the node.
///
/// A static data member of a class whose arguments spell a node (the node's own class, a
/// planning class of its path) is, once used, a symbol whose mangled name spells the
/// node's type, and so its whole graph; g++ names every symbol it creates, in time growing
/// with the square of the name's length. Over the nodes of a deep graph that is cubic:
/// for the gradient of the 800-node chain (benchmarks/compile) it was most of the compile.
/// So the values every node has live in small bases named by what they hold
/// (`kind_tag<K>::kind`: one symbol for all nodes of a kind), and the planning classes
/// answer with types. For the same reason a facade's default constructor stays trivial
/// (no default member initializer): std::tuple's value-initialization calls it, a
/// function per node type otherwise.
template <node_kind K>
struct kind_tag {
  static constexpr node_kind kind = K;
};

/// What an op says of itself, in a base named by its TensorFlow op name alone: a node or a
/// scalar function derives from op_info<"MatMul"> (or op_info<"ArgMax", false>) instead of
/// declaring op_name and differentiable itself. No static data member then lives in a class
/// whose name spells the node's inputs (docs/ARCHITECTURE.md, "Compile time in large graphs":
/// g++'s cost of such a symbol grows with the square of its name's length).
template <fixed_string OpName, bool Differentiable = true>
struct op_info {
  static constexpr std::string_view op_name = OpName;
  static constexpr bool differentiable = Differentiable;
};

namespace core::detail {
template <fixed_string OpName, bool Differentiable>
op_info<OpName, Differentiable> op_info_base(const op_info<OpName, Differentiable>&);
}  // namespace core::detail

/// The op_info base of T: a node whose op is that of its parameter (a kind tag, an
/// optimizer's definition) derives from `op_info_of<Kind>`, a base named by the op alone.
template <class T>
using op_info_of = decltype(core::detail::op_info_base(std::declval<const T&>()));

/// What most nodes are: an element type, a shape, inputs and a kind, and the run-time
/// definitions the inputs carry (core/definition.hpp; empty and free when they carry none).
template <class T, class S, node_kind K, class... In>
struct node_facade : node_base, kind_tag<K> {
  using value_type = T;
  using shape_type = S;
  using inputs = mp::mp_list<In...>;
  using carried = carried_union_t<In...>;
  [[no_unique_address]] definitions_t<carried> defs;
};

/// node_facade of a node that also writes the variables Targets... (its `targets`, graph
/// edges that are not evaluated): it carries their definitions too.
template <class T, class S, node_kind K, class Targets, class... In>
struct writer_facade;
template <class T, class S, node_kind K, class... Targets, class... In>
struct writer_facade<T, S, K, mp::mp_list<Targets...>, In...> : node_base, kind_tag<K> {
  using value_type = T;
  using shape_type = S;
  using inputs = mp::mp_list<In...>;
  using targets = mp::mp_list<Targets...>;
  using carried = carried_union_t<In..., Targets...>;
  [[no_unique_address]] definitions_t<carried> defs;
};

// --- traits with defaults ---------------------------------------------------------------

namespace core::detail {
// The optional members a node may declare, each read as "the member, or no edges".
template <class N>
using member_targets = typename N::targets;
template <class N>
using member_reads = typename N::reads;
}  // namespace core::detail

template <class N>
using inputs_of = typename N::inputs;
template <class N>
using targets_of = mp::mp_eval_or<mp::mp_list<>, core::detail::member_targets, N>;
template <class N>
using reads_of = mp::mp_eval_or<mp::mp_list<>, core::detail::member_reads, N>;

/// Every edge of the graph: the inputs, then the variables written.
template <class N>
using graph_edges_of = mp::mp_append<inputs_of<N>, targets_of<N>>;

template <class N>
using value_type_of = typename N::value_type;
template <class N>
using shape_of = typename N::shape_type;

/// The container a fetch of N returns (the scalar itself for rank 0).
template <class N>
using result_t = storage_t<value_type_of<N>, shape_of<N>>;

template <class N>
inline constexpr bool is_elementwise = N::kind == node_kind::elementwise;

/// The name a node carries in its type, or "" for anonymous ops.
template <class N>
constexpr std::string_view name_of() {
  if constexpr (named_node<N>) {
    return N::name.view();
  } else {
    return {};
  }
}

/// Base of automatic names ("add", "mul", "MatMul"), TensorFlow's op type names.
template <class N>
constexpr std::string_view op_name_of() {
  if constexpr (core::detail::declares<core::detail::op_name_member, N>::value) {
    return N::op_name;
  } else {
    return "Op";
  }
}

/// Whether running N changes anything outside its own value: a variable (assign,
/// optimizer updates, initializers) or the world (print). Effect nodes change state unless
/// they say `static constexpr bool changes_state = false;` (check_numerics, group,
/// control_dependencies, is_variable_initialized). A const session runs only paths
/// without such nodes.
template <class N>
constexpr bool changes_state() {
  if constexpr (N::kind != node_kind::effect) {
    return false;
  } else if constexpr (core::detail::declares<core::detail::changes_state_member, N>::value) {
    return N::changes_state;
  } else {
    return true;
  }
}

/// A node's full name, or its op name for an anonymous op, as a template argument
/// (diagnostics name a node by it).
template <class N>
constexpr auto label_of() {
  constexpr std::string_view s = named_node<N> ? name_of<N>() : op_name_of<N>();
  fixed_string<s.size() + 1> out{};
  for (std::size_t i = 0; i < s.size(); ++i) out.data[i] = s[i];
  return out;
}

/// Membership and counts over a type list without a class per query (core/detail/contains.hpp).
template <class L, class V>
inline constexpr bool contains_v = core::detail::contains_impl<L, V>::value;
template <class L, class V>
inline constexpr std::size_t count_v = core::detail::count_impl<L, V>::value;

}  // namespace typeflow
