// typeflow/ops/placeholder.hpp — tf.placeholder: a value the caller feeds to each run.
#pragma once

#include "typeflow/core/node.hpp"

namespace typeflow {

template <fixed_string Name, element_type T, shape_type S>
struct placeholder_node : node_facade<T, S, node_kind::leaf>, op_info<"Placeholder", false> {
  static constexpr auto name = Name;
  static constexpr bool is_placeholder = true;
};

/// `placeholder<"x", float, shape<dyn, 784>>()` is `tf.placeholder(tf.float32, [None, 784], name="x")`.
/// A run whose path reaches it must feed it: `sess.run(y, feed(x, value))`.
template <fixed_string Name, element_type T, shape_type S = scalar>
constexpr placeholder_node<Name, T, S> placeholder() {
  return {};
}

}  // namespace typeflow
