// typeflow/graph/naming.hpp — the names TensorFlow would give a graph's nodes, and the graph
// as data (graph_description), for whatever shows or exports a graph: debug/graph_export.hpp
// (text, DOT) and saved_model/ (tensor names of signatures, the exported graph).
//
// Anonymous ops get TensorFlow-style automatic names in graph order: the op's base name
// ("add", "mul", "MatMul") in its scope, then "add_1", "add_2", ... never reusing the
// name of a named node.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/detail/find_named.hpp"
#include "typeflow/core/dtype.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"

namespace typeflow {

/// One node of a described graph.
struct node_description {
  std::string name;                 // full name, automatic for anonymous ops
  std::string op;                   // TensorFlow-style op type ("Add" family base name)
  std::string dtype;                // "float32", ... or "" for nodes without a value
  std::string shape;                // "[?, 784]"
  std::vector<std::string> inputs;  // names of the inputs, in order
  std::vector<std::string> writes;  // names of the variables it writes
};

/// A graph as data: `nodes` in topological order (inputs first).
struct graph_description {
  std::vector<node_description> nodes;

  /// One line per node: `name = Op(in1, in2) : float32 [2, 3]`.
  std::string to_text() const {
    std::string out;
    for (const auto& n : nodes) {
      out += n.name + " = " + n.op + "(";
      for (std::size_t i = 0; i < n.inputs.size(); ++i) out += (i ? ", " : "") + n.inputs[i];
      out += ")";
      if (!n.dtype.empty()) out += " : " + n.dtype + " " + n.shape;
      if (!n.writes.empty()) {
        out += " writes ";
        for (std::size_t i = 0; i < n.writes.size(); ++i) out += (i ? ", " : "") + n.writes[i];
      }
      out += "\n";
    }
    return out;
  }

  /// Graphviz DOT: a box per node labelled with name, op, dtype and shape; an edge per
  /// input; a dashed edge from a node to each variable it writes.
  std::string to_dot() const {
    auto quote = [](const std::string& s) {
      std::string q = "\"";
      for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
      }
      return q + "\"";
    };
    std::string out = "digraph typeflow {\n  rankdir=BT;\n  node [shape=box, fontname=\"monospace\"];\n";
    for (const auto& n : nodes) {
      std::string label = n.name + "\\n" + n.op;
      if (!n.dtype.empty()) label += "\\n" + n.dtype + " " + n.shape;
      std::string q = "\"";
      for (char c : label) {
        if (c == '"') q += '\\';
        q += c;
      }
      out += "  " + quote(n.name) + " [label=" + q + "\"];\n";
    }
    for (const auto& n : nodes) {
      for (const auto& in : n.inputs) out += "  " + quote(in) + " -> " + quote(n.name) + ";\n";
      for (const auto& w : n.writes) out += "  " + quote(n.name) + " -> " + quote(w) + " [style=dashed];\n";
    }
    return out + "}\n";
  }

  /// The description of the node named `name`, or nullptr.
  const node_description* find(std::string_view name) const noexcept { return core::detail::find_named(nodes, name); }
};

namespace graph {

namespace detail {

template <class Order>
struct describer;

template <class... N>
struct describer<mp::mp_list<N...>> {
  using order = mp::mp_list<N...>;

  static graph_description describe() {
    std::set<std::string> used{std::string(name_of<N>())...};
    std::vector<std::string> names;
    names.reserve(sizeof...(N));
    auto auto_name = [&](std::string base) {
      std::string candidate = base;
      for (std::size_t k = 1; used.count(candidate); ++k) candidate = base + "_" + std::to_string(k);
      used.insert(candidate);
      return candidate;
    };
    (names.push_back(named_node<N> ? std::string(name_of<N>()) : auto_name(base_name<N>())), ...);

    graph_description g;
    (g.nodes.push_back(describe_one<N>(names)), ...);
    return g;
  }

  template <class M>
  static std::string base_name() {
    std::string base(op_name_of<M>());
    if constexpr (scoped_op<M>) {  // appended: see what_of in core/errors.hpp
      std::string scoped(M::scope.view());
      base = std::move(scoped.append("/").append(base));
    }
    return base;
  }

  template <class M>
  static node_description describe_one(const std::vector<std::string>& names) {
    node_description d;
    d.name = names[mp::mp_find<order, M>::value];
    d.op = std::string(op_name_of<M>());
    if constexpr (element_type<value_type_of<M>>) {
      d.dtype = std::string(dtype_name_of<value_type_of<M>>);
      d.shape = shape_string<shape_of<M>>();
    }
    mp::mp_for_each<mp::mp_transform<mp::mp_identity, inputs_of<M>>>([&](auto id) {
      using I = typename decltype(id)::type;
      if constexpr (contains_v<order, I>) d.inputs.push_back(names[mp::mp_find<order, I>::value]);
    });
    mp::mp_for_each<mp::mp_transform<mp::mp_identity, targets_of<M>>>([&](auto id) {
      using V = typename decltype(id)::type;
      d.writes.emplace_back(name_of<V>());
    });
    return d;
  }
};

}  // namespace detail

/// The nodes of Order (an mp_list in topological order) as data, each with its full name:
/// a named node's own, an anonymous op's automatic one (see the top of this header).
template <class Order>
graph_description describe() {
  return detail::describer<Order>::describe();
}

}  // namespace graph

}  // namespace typeflow
