// typeflow/ops/placeholder.hpp — tf.placeholder: a value the caller feeds to each run.
#pragma once

#include "typeflow/core/node.hpp"

namespace typeflow {

/// The placeholder whose name is the path Name (name_path_t<"x">, core/fixed_string.hpp);
/// written placeholder_node<"x", T, S>.
template <class Name, element_type T, shape_type S>
struct named_placeholder : node_facade<T, S, node_kind::leaf>, op_info<"Placeholder", false> {
  static constexpr auto name = Name::value;
  static constexpr bool is_placeholder = true;
};
template <fixed_string Name, element_type T, shape_type S>
using placeholder_node = named_placeholder<name_path_t<Name>, T, S>;

/// `placeholder<"x", float, shape<dyn, 784>>()` is `tf.placeholder(tf.float32, [None, 784], name="x")`.
/// A run whose path reaches it must feed it: `sess.run(y, feed(x, value))`.
template <fixed_string Name, element_type T, shape_type S = scalar>
constexpr placeholder_node<Name, T, S> placeholder() {
  return {};
}

}  // namespace typeflow
