// typeflow/control/cond.hpp — tf.cond: the value of true_fn() or of false_fn(), as a scalar
// bool pred says, computing only the branch taken.
//
// Each branch is a loop of the graph (control::dynamic_loop, scan.hpp) whose body is the
// branch's graph, built once by calling its function and compiled once, and which runs one
// step when its branch is taken and none otherwise: its sequence is one element masked by
// pred (or by its negation). The branch's results of static shape are the loop's states,
// which start at zeros and become the results in the one step; those of a dynamic first dim
// (a batch, which the loop learns only in its step) are its output, stacked along a second
// dim when several. A merge node (TensorFlow's Merge) takes the final state, or the one
// step's output, of the loop that ran. The gradient is the loops' own: the branch taken
// receives the result's gradient (the merge's gradient, TensorFlow's Switch in the gradient
// graph), the other zeros for no step, so gradients reach only what the taken branch reads,
// as TensorFlow's cond gradient does. As for map_fn, the loop runs in float when every
// result is float and in double otherwise, the results cast back.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "typeflow/control/detail/cond_nodes.hpp"
#include "typeflow/control/map_fn.hpp"
#include "typeflow/ops/boolean_mask.hpp"
#include "typeflow/ops/fill.hpp"
#include "typeflow/ops/logical.hpp"
#include "typeflow/ops/reshape.hpp"

namespace typeflow {

/// In a diagnostic: the pred of cond Cond has element type T and shape Shape, not a scalar bool.
template <fixed_string Cond, class T, class Shape>
struct cond_pred_must_be_a_scalar_bool {
  static constexpr bool value = false;
};
/// In a diagnostic: a branch of cond Cond returned something that is not a node, nor a
/// std::tuple of nodes.
template <fixed_string Cond>
struct cond_branch_must_return_a_node_or_a_tuple_of_nodes {
  static constexpr bool value = false;
};
/// In a diagnostic: the branches of cond Cond return different structures, element types or
/// shapes (TensorFlow: "true_fn and false_fn must have the same type of returns").
template <fixed_string Cond>
struct cond_true_fn_and_false_fn_must_return_the_same_types_and_shapes {
  static constexpr bool value = false;
};
/// In a diagnostic: a result of cond Cond has shape Shape, with a dynamic dim after its first.
template <fixed_string Cond, class Shape>
struct cond_result_may_have_a_dynamic_dim_only_in_its_first {
  static constexpr bool value = false;
};
/// In a diagnostic: the results of cond Cond with a dynamic first dim do not all have one
/// shape (Shape and Other).
template <fixed_string Cond, class Shape, class Other>
struct cond_results_of_a_dynamic_first_dim_must_have_one_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: a branch of cond Cond has a side effect, the op Op (assign, print, an
/// update).
template <fixed_string Cond, fixed_string Op>
struct cond_branch_has_a_side_effect {
  static constexpr bool value = false;
};

namespace control::detail {

// The checks of cond's arguments. Each error is a static_assert in a function named by the
// cond and its culprit alone, so that the diagnostic spells no graph type.
template <fixed_string Scope, class T, class S>
constexpr bool pred_error() {
  static_assert(cond_pred_must_be_a_scalar_bool<Scope, T, S>::value,
                "typeflow::cond(pred, true_fn, false_fn): pred must be a scalar bool node (TensorFlow: a boolean "
                "scalar tensor)");
  return false;
}
template <fixed_string Scope>
constexpr bool structure_error() {
  static_assert(cond_branch_must_return_a_node_or_a_tuple_of_nodes<Scope>::value,
                "typeflow::cond(pred, true_fn, false_fn): each branch must return a node, or a std::tuple of nodes");
  return false;
}
template <fixed_string Scope>
constexpr bool mismatch_error() {
  static_assert(cond_true_fn_and_false_fn_must_return_the_same_types_and_shapes<Scope>::value,
                "typeflow::cond(pred, true_fn, false_fn): true_fn and false_fn must return the same structure, "
                "element types and shapes");
  return false;
}
template <fixed_string Scope, class S>
constexpr bool dynamic_result_error() {
  static_assert(cond_result_may_have_a_dynamic_dim_only_in_its_first<Scope, S>::value,
                "typeflow::cond(pred, true_fn, false_fn): a result may have a dynamic dim only in its first (the "
                "batch)");
  return false;
}
template <fixed_string Scope, class S, class Other>
constexpr bool dynamic_shapes_error() {
  static_assert(cond_results_of_a_dynamic_first_dim_must_have_one_shape<Scope, S, Other>::value,
                "typeflow::cond(pred, true_fn, false_fn): the results with a dynamic first dim must have one shape");
  return false;
}
template <fixed_string Scope, fixed_string Op>
constexpr bool side_effect_error() {
  static_assert(cond_branch_has_a_side_effect<Scope, Op>::value,
                "typeflow::cond(pred, true_fn, false_fn): a branch must be free of side effects (assign, print, "
                "optimizer updates); run them with the session, outside the cond");
  return false;
}

/// Whether the branches return one structure: both a node, or both std::tuples of as many
/// nodes, with the same element types and shapes.
template <class RT, class RF>
struct same_returns : std::false_type {};
template <class... A, class... B>
  requires(sizeof...(A) == sizeof...(B))
struct same_returns<std::tuple<A...>, std::tuple<B...>>
    : std::bool_constant<((std::is_same_v<value_type_of<A>, value_type_of<B>> &&
                           std::is_same_v<shape_of<A>, shape_of<B>>) && ...)> {};

template <class N>
using cond_changes_state = std::bool_constant<changes_state<N>()>;
template <class N>
using has_static_shape = std::bool_constant<shape_of<N>::is_static>;
template <class N>
using has_dynamic_shape = std::bool_constant<!shape_of<N>::is_static>;

/// The shapes of the results of a dynamic first dim (Outs, a std::tuple of nodes).
template <class Outs>
using dynamic_shapes = mp::mp_unique<mp::mp_transform<shape_of, mp::mp_copy_if<mp::mp_rename<Outs, mp::mp_list>, has_dynamic_shape>>>;

/// The positions in Outs of the results of static shape (they are the branch loop's states)
/// and of those of a dynamic first dim (stacked, they are its output).
template <class L>
struct to_index_sequence;
template <class... I>
struct to_index_sequence<mp::mp_list<I...>> {
  using type = std::index_sequence<I::value...>;
};
/// The position of I in the index sequence.
template <std::size_t I, std::size_t... K>
constexpr std::size_t index_in(std::index_sequence<K...>) {
  std::size_t n = 0;
  for (const std::size_t k : {K..., I}) {
    if (k == I) break;
    ++n;
  }
  return n;
}
template <class Outs, template <class> class P>
struct positions_if_impl {
  template <class I>
  using test = P<std::tuple_element_t<I::value, Outs>>;
  using type = typename to_index_sequence<mp::mp_copy_if<mp::mp_iota_c<std::tuple_size_v<Outs>>, test>>::type;
};
template <class Outs, template <class> class P>
using positions_if = typename positions_if_impl<Outs, P>::type;

/// The ops with side effects in the branches' graphs (Outs and OF, std::tuples of nodes).
template <class Outs, class OF>
using branch_effects = graph::detail::select<
    cond_changes_state, mp::mp_apply<graph::graph_order, mp::mp_append<mp::mp_rename<Outs, mp::mp_list>, mp::mp_rename<OF, mp::mp_list>>>>;

/// One branch: a loop of `seq`'s 0 or 1 steps whose body is fn's graph. Its results of
/// static shape (positions Js in Outs), cast to W, are the loop's states (or, when there are
/// none, one that stays 0); those of a dynamic first dim (positions Jd), cast to W and
/// stacked along a second dim when several, its output (or, when there are none, the step's
/// input). Its loop_result.
template <fixed_string Scope, class W, class Outs, class Fn, class Seq, std::size_t... Js, std::size_t... Jd>
auto cond_branch(Fn& fn, const Seq& seq, std::index_sequence<Js...>, std::index_sequence<Jd...>) {
  return control::dynamic_loop<Scope>(
      [&](const auto& states, const auto& x) {
        const auto out = map_parts(fn());
        auto y = [&] {
          if constexpr (sizeof...(Jd) == 0) {
            return x;
          } else if constexpr (sizeof...(Jd) == 1) {
            return cast_if_needed<W>(std::get<Jd>(out)...);
          } else {
            return stack<1>(cast_if_needed<W>(std::get<Jd>(out))...);
          }
        }();
        if constexpr (sizeof...(Js) == 0) {
          return std::pair{y, std::tuple{std::get<0>(states)}};  // no state: carried unchanged
        } else {
          return std::pair{y, std::tuple{cast_if_needed<W>(std::get<Js>(out))...}};
        }
      },
      seq, [] {
        if constexpr (sizeof...(Js) == 0) {
          return std::tuple{constant<0, W>()};
        } else {
          return std::tuple{zeros<shape_of<std::tuple_element_t<Js, Outs>>, W>()...};
        }
      }());
}

}  // namespace control::detail

/// `cond<"cond">(pred, true_fn, false_fn)` is tf.cond(pred, true_fn, false_fn): true_fn()'s
/// value when the scalar bool pred is true, false_fn()'s otherwise, computing only the branch
/// taken. Each function is called once, when the cond is built, and the nodes it makes are its
/// branch's graph (each a loop body, named "<Scope>/true/while/..." and
/// "<Scope>/false/while/..."); nodes made outside and read by a branch are the branch's inputs
/// as in TensorFlow: variables and placeholders are read from the run, and other outer nodes
/// are computed in the branch, when it runs. Both functions return a node, or a std::tuple of
/// nodes, with the same element types and shapes: static, or with a dynamic first dim (a
/// batch), the results of a dynamic first dim all of one shape; cond returns the same
/// structure. Gradients flow through the branch taken to what it reads. Two conds in one graph
/// need two names.
template <fixed_string Scope = "cond", node Pred, class TrueFn, class FalseFn>
auto cond(const Pred& pred, TrueFn&& true_fn, FalseFn&& false_fn) {
  namespace cd = control::detail;
  using RT = std::remove_cvref_t<decltype(true_fn())>;
  using RF = std::remove_cvref_t<decltype(false_fn())>;
  using Outs = cd::map_parts_t<RT>;
  using OF = cd::map_parts_t<RF>;
  // Each error stops here, and cond returns something inert so that no other follows.
  if constexpr (!std::is_same_v<value_type_of<Pred>, bool> || shape_of<Pred>::rank != 0) {
    cd::pred_error<Scope, value_type_of<Pred>, shape_of<Pred>>();
    return true_fn();
  } else if constexpr (!cd::all_nodes<Outs>::value || !cd::all_nodes<OF>::value) {
    cd::structure_error<Scope>();
    return true_fn();
  } else if constexpr (cd::is_std_tuple<RT>::value != cd::is_std_tuple<RF>::value || !cd::same_returns<Outs, OF>::value) {
    cd::mismatch_error<Scope>();
    return true_fn();
  } else if constexpr (cd::first_bad_result<Outs>::value < std::tuple_size_v<Outs>) {
    cd::dynamic_result_error<Scope, mp::mp_at<cd::result_shapes<Outs>, cd::first_bad_result<Outs>>>();
    return true_fn();
  } else if constexpr (mp::mp_size<cd::dynamic_shapes<Outs>>::value > 1) {
    cd::dynamic_shapes_error<Scope, mp::mp_at_c<cd::dynamic_shapes<Outs>, 0>, mp::mp_at_c<cd::dynamic_shapes<Outs>, 1>>();
    return true_fn();
  } else if constexpr (!mp::mp_empty<cd::branch_effects<Outs, OF>>::value) {
    cd::side_effect_error<Scope, label_of<mp::mp_front<cd::branch_effects<Outs, OF>>>()>();
    return true_fn();
  } else {
    constexpr bool several = cd::is_std_tuple<RT>::value;
    using Js = cd::positions_if<Outs, cd::has_static_shape>;
    using Jd = cd::positions_if<Outs, cd::has_dynamic_shape>;
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      using W = cd::map_loop_t<value_type_of<std::tuple_element_t<J, Outs>>...>;
      const auto one = ones<shape<1>, W>();
      const auto t = cd::cond_branch<join_names<Scope, "true">(), W, Outs>(
          true_fn, boolean_mask(one, reshape<shape<1>>(pred)), Js{}, Jd{});
      const auto f = cd::cond_branch<join_names<Scope, "false">(), W, Outs>(
          false_fn, boolean_mask(one, reshape<shape<1>>(logical_not(pred))), Js{}, Jd{});
      // The results of a dynamic first dim: the one step of the loop that ran, unstacked.
      constexpr std::size_t dynamic_count = Jd::size();
      const auto pieces = [&] {
        if constexpr (dynamic_count == 0) {
          return std::tuple<>{};
        } else {
          using M = cond_merge_node<true, Pred, decltype(t.outputs), decltype(f.outputs)>;
          const auto merged = make_node<M>(pred, t.outputs, f.outputs);
          if constexpr (dynamic_count == 1) {
            return std::tuple{merged};
          } else {
            return unstack<1>(merged);
          }
        }
      }();
      // Result j: its final state's merge, or its piece.
      const auto result = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
        if constexpr (shape_of<std::tuple_element_t<I, Outs>>::is_static) {
          constexpr std::size_t k = cd::index_in<I>(Js{});
          using A = std::remove_cvref_t<std::tuple_element_t<k, decltype(t.final_state)>>;
          using B = std::remove_cvref_t<std::tuple_element_t<k, decltype(f.final_state)>>;
          return make_node<cond_merge_node<false, Pred, A, B>>(pred, std::get<k>(t.final_state),
                                                               std::get<k>(f.final_state));
        } else {
          return std::get<cd::index_in<I>(Jd{})>(pieces);
        }
      };
      auto results = std::tuple{cd::cast_if_needed<value_type_of<std::tuple_element_t<J, Outs>>>(
          result(std::integral_constant<std::size_t, J>{}))...};
      if constexpr (several) {
        return results;
      } else {
        return std::get<0>(results);
      }
    }(std::make_index_sequence<std::tuple_size_v<Outs>>{});
  }
}

}  // namespace typeflow
