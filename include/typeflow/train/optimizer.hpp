// typeflow/train/optimizer.hpp — what every optimizer shares: hyperparameters as graph
// values, and the update node that applies gradients (the (gradient, variable) pairs and
// var_list are in train/grad_and_var.hpp; global_step and the slots in train/slots.hpp).
//
// An optimizer's hyperparameters are scalar nodes, as in TensorFlow: a number (it becomes
// the named constant "<optimizer>/learning_rate", carried by the update node to the
// sessions that run it), a literal, a placeholder fed per run, a variable or an expression
// (a decayed learning rate). Nothing is kept program-wide: `adam(0.001)` and `adam(0.05)`
// are two definitions of the same graph, each session holding the values of the update
// node it was given. The optimizer's name ("Adam" unless given one) names its slot
// variables as TensorFlow names them ("w/Adam", "w/Adam_1"), so checkpoints carry its state;
// two optimizers in one session need two names.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/autodiff/gradients.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/state.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/train/detail/storage.hpp"
#include "typeflow/train/grad_and_var.hpp"
#include "typeflow/train/hyperparameter.hpp"
#include "typeflow/train/slots.hpp"
#include "typeflow/train/sparse_update.hpp"

namespace typeflow::train {

namespace detail {

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
template <class Def, class G>
constexpr bool fused_update() {
  if constexpr (requires { Def::template fuses<G>; }) {
    return Def::template fuses<G>;
  } else {
    return false;
  }
}

template <class Def, class P, int Case = indexed_slices<typename P::gradient>         ? 2
                                         : fused_update<Def, typename P::gradient>() ? 1
                                                                                     : 0>
struct update_inputs {
  using type = mp::mp_list<typename P::gradient>;
};
template <class Def, class P>
struct update_inputs<Def, P, 1> {
  using type = inputs_of<typename P::gradient>;
};
// A sparse gradient: each term's rows and ids (train/sparse_update.hpp).
template <class Term>
using slices_inputs = mp::mp_list<indexed_slices_values<Term>, indexed_slices_indices<Term>>;
template <class Def, class P>
struct update_inputs<Def, P, 2> {
  using type = mp::mp_flatten<mp::mp_transform<slices_inputs, indexed_slices_terms<typename P::gradient>>>;
};
template <class Def, class... P>
using update_inputs_t = mp::mp_append<typename update_inputs<Def, P>::type...>;

template <class Targets, class Inputs>
struct effect_facade;
template <class Targets, class... In>
struct effect_facade<Targets, mp::mp_list<In...>> {
  using type = writer_facade<none_t, scalar, node_kind::effect, Targets, In...>;
};

// What an update node writes: the variables, the optimizer's slots and non-slot variables,
// the global step.
template <class Def, class GlobalStep, class... Pairs>
struct update_targets {
  using first_variable = typename mp::mp_front<mp::mp_list<Pairs...>>::variable;
  using state_variables = mp::mp_append<typename Def::template slots<typename Pairs::variable>...,
                                        typename Def::template non_slots<first_variable>>;
  using type = mp::mp_append<mp::mp_list<typename Pairs::variable...>, state_variables,
                             mp::mp_if_c<std::is_void_v<GlobalStep>, mp::mp_list<>, mp::mp_list<GlobalStep>>>;
  // And the resource of sparse updates (train/sparse_update.hpp), when a gradient is sparse.
  using with_resources =
      mp::mp_append<type, mp::mp_if_c<(indexed_slices<typename Pairs::gradient> || ...),
                                      mp::mp_list<sparse_update_node<Def::name>>, mp::mp_list<>>>;
};


template <class Def, class V, class G, class Ctx, class Step>
void apply_pair(Ctx& ctx, const Step& step) {
  if constexpr (indexed_slices<G>) {
    apply_sparse_pair<Def, V, G>(ctx, step);
  } else if constexpr (fused_update<Def, G>()) {
    Def::template apply_fused<V, G>(ctx, step);
  } else {
    check_gradient_size<V>(ctx.template value<G>());
    Def::template apply<V>(ctx, step, ctx.template value<G>());
  }
}
}  // namespace detail

/// The update node of an optimizer (its inputs: the hyperparameter nodes, then what the
/// updates read; it writes the variables, the optimizer's state and the global step).
template <class Def, class GlobalStep, class... Pairs>
struct apply_gradients_node
    : detail::effect_facade<typename detail::update_targets<Def, GlobalStep, Pairs...>::with_resources,
                            mp::mp_append<typename Def::hyper_nodes, detail::update_inputs_t<Def, Pairs...>>>::type,
      op_info_of<Def> {
  using output_type = none_t;
  using first_variable = typename mp::mp_front<mp::mp_list<Pairs...>>::variable;
  using reads = typename detail::update_targets<Def, GlobalStep, Pairs...>::type;

  // The update loops read the gradient and write the variable through restrict pointers.
  static_assert((!std::is_same_v<typename Pairs::gradient, typename Pairs::variable> && ...),
                "apply_gradients: a variable cannot be its own gradient");

  /// The same update of the gradients F<G> (ops/rewrite.hpp: a run's graph rewritten). A
  /// gradient that F would make its variable itself stays as it was.
  template <template <class> class F>
  using rebuild = apply_gradients_node<
      Def, GlobalStep,
      grad_and_var_t<mp::mp_if<std::is_same<F<typename Pairs::gradient>, typename Pairs::variable>,
                               typename Pairs::gradient, F<typename Pairs::gradient>>,
                     typename Pairs::variable>...>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    const auto step = Def::template prepare<first_variable>(ctx);
    (detail::apply_pair<Def, typename Pairs::variable, typename Pairs::gradient>(ctx, step), ...);
    Def::template finish<first_variable>(ctx, step);
    if constexpr (!std::is_void_v<GlobalStep>) ctx.template slot_of<GlobalStep>().value += 1;
  }
};

/// In a diagnostic: minimize(loss) or compute_gradients(loss) found no trainable variable on
/// the loss's computation path that receives a gradient (every path is cut by stop_gradient,
/// an op without a gradient such as ArgMax, the loss reads no variable, or only variables
/// made `not_trainable`).
template <fixed_string Loss>
struct no_variable_on_the_loss_path_receives_a_gradient {
  static constexpr bool value = false;
};

/// In a diagnostic: apply_gradients (or minimize with a var_list) was given these variables,
/// and no path joins any of them to the loss (TensorFlow's ValueError "No gradients provided
/// for any variable").
template <fixed_string... Variables>
struct no_gradient_provided_for_any_variable {
  static constexpr bool value = false;
};

/// The part every optimizer shares: compute_gradients, apply_gradients, minimize.
/// `Def::hyper_nodes` lists its hyperparameter nodes; the object holds them.
template <class Def>
struct optimizer {
  using definition = Def;
  template <class V>
  using slots = typename Def::template slots<V>;
  using hyper_tuple = mp::mp_rename<typename Def::hyper_nodes, std::tuple>;

  explicit constexpr optimizer(const hyper_tuple& h) : hyper_(h) {}
  /// The hyperparameter nodes, in the order the optimizer's factory takes them.
  const hyper_tuple& hyperparameters() const noexcept { return hyper_; }

  /// (gradient, variable) pairs for the trainable variables on loss's computation path
  /// that receive a gradient (tf.train.Optimizer.compute_gradients, whose var_list defaults
  /// to tf.trainable_variables()): a variable made `not_trainable` is left out.
  template <node Loss>
  constexpr auto compute_gradients(const Loss& loss) const {
    using order = graph::path_order<mp::mp_list<Loss>, mp::mp_list<>>;
    // The variables first (a concept, no class per node), then the trainable ones among them.
    using vars = mp::mp_filter<is_trainable, mp::mp_filter<graph::is_variable_node, order>>;
    using real = mp::mp_copy_if_q<vars, has_real_gradient<Loss>>;
    if constexpr (mp::mp_empty<real>::value) {
      static_assert(no_variable_on_the_loss_path_receives_a_gradient<label_of<Loss>()>::value,
                    "minimize(loss): no trainable variable on the loss's computation path receives a gradient "
                    "(a variable made not_trainable is trained only when named: minimize(loss, var_list(v)))");
      return std::tuple<>{};  // inert: the error above is the one to read
    } else {
      return pairs_for(loss, real{});
    }
  }
  /// The same for the variables of var_list, trainable or not (as TensorFlow's var_list).
  template <node Loss, class... V>
  constexpr auto compute_gradients(const Loss& loss, const var_list_t<V...>& vars) const {
    return std::apply(
        [&](const V&... v) {
          // Built empty, then assigned (see pairs_for).
          std::tuple<grad_and_var_t<autodiff::gradient_t<Loss, V>, V>...> pairs{};
          [&]<std::size_t... I>(std::index_sequence<I...>) {
            ((std::get<I>(pairs).gradient_node = gradient(loss, v), std::get<I>(pairs).variable_node = v), ...);
          }(std::index_sequence_for<V...>{});
          return pairs;
        },
        vars.variables);
  }

  /// The update node applying these pairs (tf.train.Optimizer.apply_gradients).
  template <class... G, class... V>
  constexpr auto apply_gradients(const std::tuple<grad_and_var_t<G, V>...>& pairs) const {
    return apply_node<void>(pairs);
  }
  template <class... G, class... V>
  constexpr auto apply_gradients(const std::tuple<grad_and_var_t<G, V>...>& pairs, const global_step_node& gs) const {
    return apply_node<global_step_node>(pairs, gs);
  }
  template <class... G, class... V>
  constexpr auto apply_gradients(const grad_and_var_t<G, V>&... pairs) const {
    std::tuple<grad_and_var_t<G, V>...> all{};  // built empty, then assigned (see pairs_for)
    all = std::forward_as_tuple(pairs...);
    return apply_gradients(all);
  }

  /// compute_gradients + apply_gradients (tf.train.Optimizer.minimize).
  template <node Loss>
  constexpr auto minimize(const Loss& loss) const {
    return apply_gradients(compute_gradients(loss));
  }
  template <node Loss, class... V>
  constexpr auto minimize(const Loss& loss, const var_list_t<V...>& vars) const {
    return apply_gradients(compute_gradients(loss, vars));
  }
  template <node Loss>
  constexpr auto minimize(const Loss& loss, const global_step_node& gs) const {
    return apply_gradients(compute_gradients(loss), gs);
  }
  template <node Loss, class... V>
  constexpr auto minimize(const Loss& loss, const var_list_t<V...>& vars, const global_step_node& gs) const {
    return apply_gradients(compute_gradients(loss, vars), gs);
  }

 private:
  template <class Loss>
  struct has_real_gradient {
    template <class V>
    using fn = detail::is_real_gradient<autodiff::gradient_t<Loss, V>, V>;
  };
  template <class Loss, class... V>
  static constexpr auto pairs_for(const Loss& loss, mp::mp_list<V...>) {
    // A variable's object, with the definition it carries, is found in the loss's. The
    // tuple is built empty, then assigned: g++ 12 resolving std::tuple's constructor
    // templates with arguments of gradient node types takes time exponential in the graph's
    // depth (docs/ARCHITECTURE.md, "Compile time in large graphs"; an unrolled 8-step GRU
    // did not compile in 10 minutes).
    std::tuple<grad_and_var_t<autodiff::gradient_t<Loss, V>, V>...> pairs{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::get<I>(pairs).gradient_node = gradient(loss, make_node<V>(loss)),
        std::get<I>(pairs).variable_node = make_node<V>(loss)),
       ...);
    }(std::index_sequence_for<V...>{});
    return pairs;
  }
  template <class P>
  using pair_has_gradient = detail::is_real_gradient<typename P::gradient, typename P::variable>;
  template <class GlobalStep, class... P, class... Extra>
  constexpr auto apply_node(const std::tuple<P...>& pairs, const Extra&... extra) const {
    if constexpr (sizeof...(P) == 0) {
      return group_node<>{};  // inert: compute_gradients has reported the error
    } else if constexpr (!(pair_has_gradient<P>::value && ...)) {
      // As TensorFlow's apply_gradients leaves out the pairs whose gradient is None: a
      // variable no path joins to the loss is not updated and gets no slots.
      using kept = mp::mp_copy_if_q<mp::mp_iota_c<sizeof...(P)>, kept_pair<std::tuple<P...>>>;
      if constexpr (mp::mp_empty<kept>::value) {
        static_assert(no_gradient_provided_for_any_variable<P::variable::name...>::value,
                      "apply_gradients: no gradient provided for any variable: no path joins any of them to the loss");
        return group_node<>{};  // inert
      } else {
        return apply_node<GlobalStep>(pairs_at(pairs, kept{}), extra...);
      }
    } else {
      return std::apply(
          [&](const auto&... h) {
            return std::apply(
                [&](const P&... p) {
                  return make_node<apply_gradients_node<Def, GlobalStep, P...>>(h..., p.gradient_node...,
                                                                                p.variable_node..., extra...);
                },
                pairs);
          },
          hyper_);
    }
  }

  template <class Pairs>
  struct kept_pair {
    template <class I>
    using fn = pair_has_gradient<std::tuple_element_t<I::value, Pairs>>;
  };
  /// The pairs at indices I..., built empty, then assigned (see pairs_for).
  template <class... P, class... I>
  static constexpr auto pairs_at(const std::tuple<P...>& pairs, mp::mp_list<I...>) {
    std::tuple<std::tuple_element_t<I::value, std::tuple<P...>>...> out{};
    [&]<std::size_t... J>(std::index_sequence<J...>) {
      ((std::get<J>(out) = std::get<I::value>(pairs)), ...);
    }(std::index_sequence_for<I...>{});
    return out;
  }

  hyper_tuple hyper_;
};

/// What an optimizer's definition says of itself: its name (the slots' suffix, "Adam") and
/// its op name, which its update node takes (op_info_of<Def>).
template <fixed_string Name, fixed_string OpName>
struct optimizer_info : op_info<OpName, false> {
  static constexpr auto name = Name;
};

/// Hooks with nothing to do, for optimizers without per-step state.
struct no_step_state {
  template <class V>
  using non_slots = mp::mp_list<>;
  template <class V, class Ctx, class Step>
  static void finish(Ctx&, const Step&) {}
};

}  // namespace typeflow::train
