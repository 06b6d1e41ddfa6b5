// typeflow/ops/scope.hpp — name scopes: `layer1/w`, decided at compile time.
//
// TensorFlow's `with tf.variable_scope("layer1"):` has no compile-time equivalent in C++
// syntax, so a scope is a value: `constexpr auto s = name_scope<"layer1">{};` makes
// scoped named nodes (`s.variable<"w", float, shape<3>>()` is "layer1/w") and puts
// anonymous ops into the scope (`s(a * b)` is the op "layer1/mul" over a and b).
#pragma once

#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/placeholder.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow {

namespace ops::detail {
/// The gradient rule of Op placed in a scope as Self. An elementwise op's rule is handed
/// the node itself (Fn::gradient<K, G, Self, In...>, so that it reuses the forward value):
/// that must be the scoped node, or the rule would name an unscoped copy of the op, which
/// a backward pass would compute again.
template <class Self, class Op>
struct scoped_gradient {
  template <std::size_t K, class G>
  using type = typename Op::template gradient<K, G>;
};
template <class Self, class Op>
  requires scalar_function_op<Op>
struct scoped_gradient<Self, Op> {
  template <class L>
  struct with_inputs;
  template <class... In>
  struct with_inputs<mp::mp_list<In...>> {
    template <std::size_t K, class G>
    using type = typename Op::function::template gradient<K, G, Self, In...>;
  };
  template <std::size_t K, class G>
  using type = typename with_inputs<inputs_of<Op>>::template type<K, G>;
};

/// What a scoped op says of its scope, in a base named by the scope alone.
template <class Path>
struct scope_info {
  static constexpr auto scope = Path::value;
};
}  // namespace ops::detail

/// An anonymous op placed in the scope whose path is Path (name_path_t<"layer1">,
/// core/fixed_string.hpp): evaluates as Op, is named "<scope>/<op_name>_k". Written
/// scoped_node<"layer1", Op>. The ops of one scope, and the scopes nested in it, share the
/// scope's components in a mangled name: in a seq2seq model's, the GRU scopes' strings had
/// been 22 KB of each 52 KB name (docs/ARCHITECTURE.md, "Compile time in large graphs").
template <class Path, class Op>
struct scoped_op_node : Op, ops::detail::scope_info<Path> {
  using ops::detail::scope_info<Path>::scope;
  template <class... N>
  using rebind = scoped_op_node<Path, typename Op::template rebind<N...>>;
  template <std::size_t K, class G>
  using gradient = typename ops::detail::scoped_gradient<scoped_op_node, Op>::template type<K, G>;
};
template <fixed_string Scope, class Op>
using scoped_node = scoped_op_node<name_path_t<Scope>, Op>;

namespace ops::detail {
template <fixed_string Scope, class N>
struct in_scope_impl;

template <fixed_string Scope, class L>
struct in_scope_list;
template <fixed_string Scope, class... N>
struct in_scope_list<Scope, mp::mp_list<N...>> {
  template <class Op>
  using rebind = typename Op::template rebind<typename in_scope_impl<Scope, N>::type...>;
};

template <fixed_string Scope, class N>
struct in_scope_impl {
  // Named nodes, leaves and ops already in a scope keep their identity; any other op is
  // placed in the scope, its inputs too.
  static auto pick() {
    // Ops without inputs (initializers) have nothing to rebind and stay global, too.
    if constexpr (named_node<N> || N::kind == node_kind::leaf || scoped_op<N> ||
                  mp::mp_empty<inputs_of<N>>::value) {
      return mp::mp_identity<N>{};
    } else {
      // An error here means that an op type lacks `template <class... In> using rebind`.
      using rebound = typename in_scope_list<Scope, inputs_of<N>>::template rebind<N>;
      return mp::mp_identity<scoped_node<Scope, rebound>>{};
    }
  }
  using type = typename decltype(pick())::type;
};
}  // namespace ops::detail

template <fixed_string Prefix>
struct name_scope {
  static constexpr auto prefix = Prefix;

  /// The nested scope "<prefix>/<Name>".
  template <fixed_string Name>
  constexpr auto scope() const {
    return name_scope<join_names<Prefix, Name>()>{};
  }
  /// The full name of `Name` in this scope.
  template <fixed_string Name>
  static constexpr auto full_name = join_names<Prefix, Name>();

  template <fixed_string Name, element_type T, shape_type S = scalar,
            init::initializer I = init::default_for<T>::value>
  constexpr auto variable() const {
    return typeflow::variable<join_names<Prefix, Name>(), T, S, I>();
  }
  template <fixed_string Name, element_type T, shape_type S = scalar>
  auto variable(const init::initializer& i) const {
    return typeflow::variable<join_names<Prefix, Name>(), T, S>(i);
  }
  template <fixed_string Name, element_type T, shape_type S = scalar>
  constexpr auto placeholder() const {
    return typeflow::placeholder<join_names<Prefix, Name>(), T, S>();
  }
  template <fixed_string Name, class E>
  auto constant(const E& values) const {
    return typeflow::constant<join_names<Prefix, Name>()>(values);
  }

  /// The expression with its anonymous ops placed in this scope (named nodes and ops
  /// already scoped stay as they are).
  template <node N>
  constexpr auto operator()(const N& n) const {
    return make_node<typename ops::detail::in_scope_impl<Prefix, N>::type>(n);
  }
};

}  // namespace typeflow
