// typeflow/ops/variable.hpp — tf.get_variable: named state that lives in a session.
#pragma once

#include <string>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/init.hpp"

namespace typeflow {

namespace detail {
template <element_type T>
constexpr init::initializer default_initializer() {
  // tf.get_variable: glorot_uniform for floating types, zeros otherwise.
  if constexpr (floating_element<T>) {
    return init::glorot_uniform();
  } else {
    return init::zeros();
  }
}
}  // namespace detail

template <fixed_string Name, element_type T, shape_type S>
struct variable_node : node_facade<T, S, node_kind::leaf> {
  static_assert(S::is_static,
                "typeflow::variable needs a fully defined shape (no typeflow::dyn), as "
                "tf.get_variable does");
  static constexpr auto name = Name;
  static constexpr bool is_variable = true;
  static constexpr std::string_view op_name = "VariableV2";

  /// The variable's definition: its initializer, set by typeflow::variable<...>(init).
  static const init::initializer& initializer() { return registry().init; }

  /// Records the initializer; a second definition must agree with the first.
  static void define(const init::initializer& i) {
    auto& r = registry();
    if (r.defined && !(r.init == i)) {
      throw already_exists_error("Variable " + std::string(Name.view()) +
                                 " already exists with another initializer; a variable's "
                                 "name, dtype and shape identify it program-wide");
    }
    r.defined = true;
    r.init = i;
  }

 private:
  struct entry {
    bool defined = false;
    init::initializer init = detail::default_initializer<T>();
  };
  static entry& registry() {
    static entry e;
    return e;
  }
};

/// `variable<"w", float, shape<784, 128>>(init::glorot_uniform())` is
/// `tf.get_variable("w", [784, 128], initializer=tf.glorot_uniform_initializer())`.
/// Its value lives in each session whose graph reaches it.
template <fixed_string Name, element_type T, shape_type S = scalar>
variable_node<Name, T, S> variable(const init::initializer& initializer = detail::default_initializer<T>()) {
  variable_node<Name, T, S>::define(initializer);
  return {};
}

}  // namespace typeflow
