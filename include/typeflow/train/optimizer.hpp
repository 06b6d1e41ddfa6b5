// typeflow/train/optimizer.hpp — what every optimizer shares: gradient/variable pairs,
// var_list, global_step, and the update node that applies gradients.
//
// An optimizer carries run-time hyperparameters, so it has a name in its type (DESIGN
// rule 1), TensorFlow's default name unless given one: `adam(1e-3)` is the optimizer
// "Adam". Its hyperparameters are part of its definition, program-wide, like a
// variable's initializer; a second definition with other values throws. Its slot
// variables are ordinary variables of the session, named as TensorFlow names them
// ("w/Adam", "w/Adam_1"), so checkpoints carry the optimizer's state.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/autodiff/gradients.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/state.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow::train {

/// A gradient node and the variable it updates (tf.train's (gradient, variable) pair).
template <class G, class V>
struct grad_and_var_t {
  using gradient = G;
  using variable = V;
};

/// In a diagnostic: a gradient's shape must be its variable's shape.
template <class GradientShape, class VariableShape>
struct gradient_must_have_the_variable_shape {
  static constexpr bool value = false;
};

template <node G, node V>
constexpr grad_and_var_t<G, V> grad_and_var(G, V) {
  static_assert(requires { V::is_variable; }, "train::grad_and_var(g, v): v must be a variable");
  static_assert(std::is_same_v<value_type_of<G>, value_type_of<V>>,
                "train::grad_and_var(g, v): g must have v's element type");
  if constexpr (shape_of<G>::rank != shape_of<V>::rank) {
    static_assert(gradient_must_have_the_variable_shape<shape_of<G>, shape_of<V>>::value,
                  "train::grad_and_var(g, v): g must have v's shape");
  }
  return {};
}

/// The variables an optimizer updates: `minimize(loss, var_list(w, b))`.
template <class... V>
struct var_list_t {};
template <node... V>
constexpr var_list_t<V...> var_list(V...) {
  static_assert((requires { V::is_variable; } && ...), "train::var_list(v...): every argument must be a variable");
  return {};
}

using global_step_node = variable_node<"global_step", std::int64_t, scalar>;

/// tf.train.get_or_create_global_step(): the int64 variable "global_step", zero at
/// initialization; pass it to minimize or apply_gradients to count the updates.
inline global_step_node global_step() { return variable<"global_step", std::int64_t>(init::zeros()); }

/// A slot variable of V for the optimizer named OptName: "v/OptName" (Index 0) or
/// "v/OptName_1" (Index 1), of V's shape and type.
template <class V, fixed_string OptName, int Index = 0>
struct slot_name {
  static constexpr auto value = [] {
    if constexpr (Index == 0) {
      return join_names<V::name, OptName>();
    } else {
      constexpr auto base = join_names<V::name, OptName>();
      fixed_string<base.size() + 3> s{};
      for (std::size_t i = 0; i < base.size(); ++i) s.data[i] = base.data[i];
      s.data[base.size()] = '_';
      s.data[base.size() + 1] = static_cast<char>('0' + Index);
      return s;
    }
  }();
};
template <class V, fixed_string OptName, int Index = 0>
using slot_t = variable_node<slot_name<V, OptName, Index>::value, value_type_of<V>, shape_of<V>>;

/// The slot variable of v that optimizer Opt keeps (e.g. `slot<0>(adam_opt, w)` is "w/Adam").
template <int Index, class Opt, node V>
constexpr auto slot(const Opt&, V) {
  return mp::mp_at_c<typename Opt::template slots<V>, Index>{};
}

namespace detail {

template <class Def>
struct hyperparameters_registry {
  bool defined = false;
  typename Def::hyper value{};
};

// Constant-initialized, so reading it in a training step costs no initialization guard.
template <class Def>
inline hyperparameters_registry<Def> registry_instance{};
template <class Def>
hyperparameters_registry<Def>& registry() {
  return registry_instance<Def>;
}

/// Records an optimizer's hyperparameters under its type; a second definition must agree.
template <class Def>
const typename Def::hyper& define_hyperparameters(const typename Def::hyper& h) {
  auto& r = registry<Def>();
  if (r.defined && !(r.value == h))
    throw already_exists_error("Optimizer " + std::string(Def::name.view()) +
                               " already exists with other hyperparameters; give the second one "
                               "another name, e.g. train::" +
                               std::string(Def::kind_name) + "<\"" + std::string(Def::name.view()) + "_1\">(...)");
  r.defined = true;
  r.value = h;
  return r.value;
}
/// The hyperparameters of a defined optimizer (its update nodes exist only after the
/// definition).
template <class Def>
const typename Def::hyper& hyperparameters() {
  return registry<Def>().value;
}

// Element loops over a variable's storage and its gradient value.
template <class Storage>
auto* data_of(Storage& s) {
  if constexpr (std::is_arithmetic_v<std::remove_cvref_t<Storage>>) {
    return &s;
  } else {
    return s.data();
  }
}
template <class Storage>
std::size_t size_of(const Storage& s) {
  if constexpr (std::is_arithmetic_v<Storage>) {
    return 1;
  } else {
    return s.size();
  }
}

template <class V, class GValue>
void check_gradient_size(const GValue& g) {
  if (size_of(g) != shape_of<V>::size)
    throw invalid_argument_error("The gradient of variable " + std::string(V::name.view()) + " has " +
                                 std::to_string(size_of(g)) + " elements, the variable " +
                                 std::to_string(shape_of<V>::size));
}

template <class G, class V>
struct is_real_gradient : std::bool_constant<!std::is_same_v<G, autodiff::detail::zeros_for<V>>> {};

}  // namespace detail

/// The update node of an optimizer: when run, applies each pair's gradient to its
/// variable (in order), then the optimizer's once-per-step work (Adam's beta powers),
/// then increments the global step if there is one.
namespace detail {
// What the update node evaluates for a pair: the gradient, or, when the optimizer fuses
// the gradient's last op into its update (gradient descent of a matmul gradient), that
// op's inputs.
template <class Def, class P>
struct update_inputs {
  using type = mp::mp_list<typename P::gradient>;
};
template <class Def, class P>
  requires requires { Def::template fuses<typename P::gradient>; } && Def::template fuses<typename P::gradient>
struct update_inputs<Def, P> {
  using type = inputs_of<typename P::gradient>;
};
template <class Def, class... P>
using update_inputs_t = mp::mp_append<typename update_inputs<Def, P>::type...>;

template <class Inputs>
struct effect_facade;
template <class... In>
struct effect_facade<mp::mp_list<In...>> {
  using type = node_facade<none_t, scalar, node_kind::effect, In...>;
};

template <class Def, class G>
constexpr bool fused_update() {
  if constexpr (requires { Def::template fuses<G>; }) {
    return Def::template fuses<G>;
  } else {
    return false;
  }
}

template <class Def, class V, class G, class Ctx, class Step>
void apply_pair(Ctx& ctx, const typename Def::hyper& h, const Step& step) {
  if constexpr (fused_update<Def, G>()) {
    Def::template apply_fused<V, G>(ctx, h);
  } else {
    check_gradient_size<V>(ctx.template value<G>());
    Def::template apply<V>(ctx, h, step, ctx.template value<G>());
  }
}
}  // namespace detail

template <class Def, class GlobalStep, class... Pairs>
struct apply_gradients_node : detail::effect_facade<detail::update_inputs_t<Def, Pairs...>>::type {
  static constexpr std::string_view op_name = Def::op_name;
  using output_type = none_t;
  using first_variable = typename mp::mp_front<mp::mp_list<Pairs...>>::variable;
  using state_variables = mp::mp_append<typename Def::template slots<typename Pairs::variable>...,
                                        typename Def::template non_slots<first_variable>>;
  using targets = mp::mp_append<mp::mp_list<typename Pairs::variable...>, state_variables,
                                mp::mp_if_c<std::is_void_v<GlobalStep>, mp::mp_list<>, mp::mp_list<GlobalStep>>>;
  using reads = targets;

  // The update loops read the gradient and write the variable through restrict pointers.
  static_assert((!std::is_same_v<typename Pairs::gradient, typename Pairs::variable> && ...),
                "apply_gradients: a variable cannot be its own gradient");

  template <class Ctx>
  static void run(Ctx& ctx) {
    const auto& h = detail::hyperparameters<Def>();
    const auto step = Def::template prepare<first_variable>(ctx, h);
    (detail::apply_pair<Def, typename Pairs::variable, typename Pairs::gradient>(ctx, h, step), ...);
    Def::template finish<first_variable>(ctx, h);
    if constexpr (!std::is_void_v<GlobalStep>) ctx.template slot_of<GlobalStep>().value += 1;
  }
};

/// The part every optimizer shares: compute_gradients, apply_gradients, minimize.
template <class Def>
struct optimizer {
  using definition = Def;
  template <class V>
  using slots = typename Def::template slots<V>;

  explicit optimizer(const typename Def::hyper& h) {
    detail::define_hyperparameters<Def>(h);
    hyper_ = h;
  }
  const typename Def::hyper& hyperparameters() const noexcept { return hyper_; }

  /// (gradient, variable) pairs for the variables on loss's computation path that
  /// receive a gradient (tf.train.Optimizer.compute_gradients).
  template <node Loss>
  constexpr auto compute_gradients(Loss) const {
    using order = graph::path_order<mp::mp_list<Loss>, mp::mp_list<>>;
    using vars = mp::mp_filter<graph::is_variable_node, order>;
    return pairs_for<Loss>(vars{});
  }
  /// The same for the variables of var_list.
  template <node Loss, class... V>
  constexpr auto compute_gradients(Loss, var_list_t<V...>) const {
    return std::tuple<grad_and_var_t<autodiff::gradient_t<Loss, V>, V>...>{};
  }

  /// The update node applying these pairs (tf.train.Optimizer.apply_gradients).
  template <class... G, class... V>
  constexpr auto apply_gradients(std::tuple<grad_and_var_t<G, V>...>) const {
    return apply_node<void>(mp::mp_list<grad_and_var_t<G, V>...>{});
  }
  template <class... G, class... V>
  constexpr auto apply_gradients(std::tuple<grad_and_var_t<G, V>...>, global_step_node) const {
    return apply_node<global_step_node>(mp::mp_list<grad_and_var_t<G, V>...>{});
  }
  template <class... G, class... V>
  constexpr auto apply_gradients(grad_and_var_t<G, V>... pairs) const {
    return apply_gradients(std::tuple<grad_and_var_t<G, V>...>{pairs...});
  }

  /// compute_gradients + apply_gradients (tf.train.Optimizer.minimize).
  template <node Loss>
  constexpr auto minimize(Loss loss) const {
    return apply_gradients(compute_gradients(loss));
  }
  template <node Loss, class... V>
  constexpr auto minimize(Loss loss, var_list_t<V...> vars) const {
    return apply_gradients(compute_gradients(loss, vars));
  }
  template <node Loss>
  constexpr auto minimize(Loss loss, global_step_node gs) const {
    return apply_gradients(compute_gradients(loss), gs);
  }
  template <node Loss, class... V>
  constexpr auto minimize(Loss loss, var_list_t<V...> vars, global_step_node gs) const {
    return apply_gradients(compute_gradients(loss, vars), gs);
  }

 private:
  template <class Loss, class... V>
  static constexpr auto pairs_for(mp::mp_list<V...>) {
    using all = mp::mp_list<grad_and_var_t<autodiff::gradient_t<Loss, V>, V>...>;
    using real = mp::mp_copy_if_q<all, mp::mp_quote_trait<has_real_gradient>>;
    static_assert(!mp::mp_empty<real>::value,
                  "minimize(loss): no variable on the loss's computation path receives a gradient");
    return mp::mp_rename<real, std::tuple>{};
  }
  template <class P>
  struct has_real_gradient {
    using type = detail::is_real_gradient<typename P::gradient, typename P::variable>;
  };
  template <class GlobalStep, class... P>
  static constexpr auto apply_node(mp::mp_list<P...>) {
    // Slot variables get their initializers (their definition) here.
    (Def::template define_slots<typename P::variable>(), ...);
    Def::template define_non_slots<typename mp::mp_front<mp::mp_list<P...>>::variable>();
    return apply_gradients_node<Def, GlobalStep, P...>{};
  }

  typename Def::hyper hyper_;
};

/// Hooks with nothing to do, for optimizers without per-step state.
struct no_step_state {
  template <class V>
  using non_slots = mp::mp_list<>;
  template <class V>
  static void define_non_slots() {}
  template <class V, class Ctx, class H>
  static int prepare(Ctx&, const H&) {
    return 0;
  }
  template <class V, class Ctx, class H>
  static void finish(Ctx&, const H&) {}
};

}  // namespace typeflow::train
