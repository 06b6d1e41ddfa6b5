// typeflow/train/grad_and_var.hpp — the (gradient, variable) pairs optimizers apply, and
// the variable lists they take: grad_and_var, gradients_of, variables_of, zip, var_list.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/core/concepts.hpp"
#include "typeflow/core/node.hpp"

namespace typeflow::train {

/// A gradient node and the variable it updates (tf.train's (gradient, variable) pair).
template <class G, class V>
struct grad_and_var_t {
  using gradient = G;
  using variable = V;
  G gradient_node;  // the nodes, for the definitions they carry
  V variable_node;
};

/// In a diagnostic: a gradient's shape must be its variable's shape.
template <class GradientShape, class VariableShape>
struct gradient_must_have_the_variable_shape {
  static constexpr bool value = false;
};

template <node G, node V>
constexpr grad_and_var_t<G, V> grad_and_var(const G& g, const V& v) {
  static_assert(variable_node_type<V>, "train::grad_and_var(g, v): v must be a variable");
  static_assert(std::is_same_v<value_type_of<G>, value_type_of<V>>,
                "train::grad_and_var(g, v): g must have v's element type");
  if constexpr (shape_of<G>::rank != shape_of<V>::rank) {
    static_assert(gradient_must_have_the_variable_shape<shape_of<G>, shape_of<V>>::value,
                  "train::grad_and_var(g, v): g must have v's shape");
  }
  return {g, v};
}

/// The gradients of (gradient, variable) pairs, a std::tuple of nodes in the pairs' order:
/// `[g for g, _ in grads_and_vars]`, to clip them (clip_by_global_norm) before applying.
template <class... G, class... V>
constexpr std::tuple<G...> gradients_of(const std::tuple<grad_and_var_t<G, V>...>& pairs) {
  std::tuple<G...> out{};  // built empty, then assigned (see optimizer::pairs_for)
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<I>(out) = std::get<I>(pairs).gradient_node), ...);
  }(std::index_sequence_for<G...>{});
  return out;
}
/// The variables of (gradient, variable) pairs, a std::tuple in the pairs' order.
template <class... G, class... V>
constexpr std::tuple<V...> variables_of(const std::tuple<grad_and_var_t<G, V>...>& pairs) {
  std::tuple<V...> out{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<I>(out) = std::get<I>(pairs).variable_node), ...);
  }(std::index_sequence_for<V...>{});
  return out;
}
/// In a diagnostic: zip(gradients, variables) of tuples of different lengths.
template <std::size_t Gradients, std::size_t Variables>
struct zip_needs_one_gradient_per_variable {
  static constexpr bool value = false;
};
/// `zip(gradients, variables)`: the (gradient, variable) pairs of two std::tuples of nodes,
/// as Python's zip(grads, params) before apply_gradients; each pair checked as grad_and_var.
template <class... G, class... V>
constexpr auto zip(const std::tuple<G...>& gradients, const std::tuple<V...>& variables) {
  if constexpr (sizeof...(G) != sizeof...(V)) {
    static_assert(zip_needs_one_gradient_per_variable<sizeof...(G), sizeof...(V)>::value,
                  "train::zip(gradients, variables): one gradient per variable");
    return std::tuple<>{};
  } else {
    std::tuple<grad_and_var_t<G, V>...> out{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::get<I>(out) = grad_and_var(std::get<I>(gradients), std::get<I>(variables))), ...);
    }(std::index_sequence_for<G...>{});
    return out;
  }
}

/// The variables an optimizer updates: `minimize(loss, var_list(w, b))`.
template <class... V>
struct var_list_t {
  std::tuple<V...> variables;
};
template <node... V>
constexpr var_list_t<V...> var_list(const V&... v) {
  static_assert((variable_node_type<V> && ...), "train::var_list(v...): every argument must be a variable");
  return {{v...}};
}

}  // namespace typeflow::train
