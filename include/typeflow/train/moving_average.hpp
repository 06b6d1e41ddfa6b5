// typeflow/train/moving_average.hpp — tf.train.ExponentialMovingAverage.
//
//   auto ema = train::exponential_moving_average(0.999, step);  // step: optional num_updates node
//   auto maintain_averages = ema.apply(w, b);  // a side-effect node: shadow -= (1 - decay) * (shadow - v)
//   auto w_avg = ema.average(w);              // the shadow variable "w/ExponentialMovingAverage"
//
// An evaluation program restores the averaged weights into its plain variables, as in
// TensorFlow:  train::saver(ema.variables_to_restore(eval_sess)).restore(eval_sess, path).
//
// The moving average has a name, "ExponentialMovingAverage" unless given one
// (exponential_moving_average<"ema_fast">(0.9)): it names the shadows, and two moving
// averages of one variable in one session need two names. Its decay is a graph value, as
// in TensorFlow: a number (the named constant "<name>/decay", carried by the update node to
// the sessions that run it) or a scalar node (a placeholder, a variable, an expression).
//
// With num_updates (a scalar node, usually the global step), the decay used is
// min(decay, (1 + num_updates) / (10 + num_updates)), as TensorFlow's.
//
// The shadow of v starts as v's initial value: its initializer is v's, with the seed v's
// initializer draws from, so global_variables_initializer gives both the same values.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/state.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/train/hyperparameter.hpp"
#include "typeflow/train/saver.hpp"

namespace typeflow::train {

namespace detail {
template <class V>
inline constexpr bool averages_a_variable = variable_node_type<V>;
}  // namespace detail

/// The shadow variable that the moving average EmaName keeps of V, named "<v>/<EmaName>"
/// ("w/ExponentialMovingAverage"), or "<op>/<EmaName>" for a tensor ("add/...", its op's
/// base name); a variable of the session like any other.
template <fixed_string EmaName, class V>
struct ema_shadow_node : node_facade<value_type_of<V>, shape_of<V>, node_kind::leaf>,
                         op_info<"VariableV2", false> {
  static constexpr auto name = join_names<label_of<V>(), EmaName>();
  static constexpr bool is_variable = true;
  using averaged_variable = V;
  static constexpr auto moving_average_name = EmaName;
  /// A variable's shadow starts as the variable does (its initializer, drawing from its
  /// seed); a tensor's at zeros, as TensorFlow's (no value of the tensor is known yet).
  using initializer_source =
      std::conditional_t<detail::averages_a_variable<V>, init::like<V>, init::fixed<init::zeros()>>;
  // V's run-time initializer, if it has one, travels with the shadow.
  using carried = carried_of<V>;
  [[no_unique_address]] definitions_t<carried> defs{};
};

}  // namespace typeflow::train

namespace typeflow {
/// A shadow variable is not trainable (TensorFlow creates it with trainable=False).
template <fixed_string EmaName, class V>
struct is_trainable<train::ema_shadow_node<EmaName, V>> : std::false_type {};
}  // namespace typeflow

namespace typeflow::train {

namespace detail {

template <fixed_string Name, class N>
struct is_shadow_of : std::false_type {};
template <fixed_string Name, class V>
struct is_shadow_of<Name, ema_shadow_node<Name, V>> : std::true_type {};

template <fixed_string Name>
struct shadow_of_q {
  template <class N>
  using fn = is_shadow_of<Name, N>;
};
// A shadow of a variable (a tensor's average is restored under its own name).
template <fixed_string Name, class N>
struct is_variable_shadow_of : std::false_type {};
template <fixed_string Name, class V>
struct is_variable_shadow_of<Name, ema_shadow_node<Name, V>> : std::bool_constant<averages_a_variable<V>> {};
template <fixed_string Name>
struct variable_shadow_of_q {
  template <class N>
  using fn = is_variable_shadow_of<Name, N>;
};

template <class V>
using is_trainable_floating_variable = std::bool_constant<is_trainable<V>::value && floating_element<value_type_of<V>>>;

}  // namespace detail

/// In a diagnostic: apply(v...) averages floating-point variables and tensors only.
template <fixed_string Variable>
struct moving_averages_need_a_floating_point_variable {
  static constexpr bool value = false;  // own member: the diagnostic prints this type
};
/// In a diagnostic: a tensor's average is a variable, so the tensor needs a static shape.
template <fixed_string Tensor>
struct moving_averages_need_a_static_shape {
  static constexpr bool value = false;
};

namespace detail {
template <class Targets, class Inputs>
struct ema_facade;
template <class Targets, class... In>
struct ema_facade<Targets, mp::mp_list<In...>> {
  using type = writer_facade<none_t, scalar, node_kind::effect, Targets, In...>;
};
template <class NumUpdates>
using num_updates_list = mp::mp_if_c<std::is_void_v<NumUpdates>, mp::mp_list<>, mp::mp_list<NumUpdates>>;
}  // namespace detail

/// The update node of a moving average: when run, for each v (in order),
/// shadow -= (1 - decay) * (shadow - v). Its inputs are the decay, num_updates (if any)
/// and the variables; it writes the shadows.
template <fixed_string Name, class Decay, class NumUpdates, class... V>
struct ema_apply_node
    : detail::ema_facade<mp::mp_list<ema_shadow_node<Name, V>...>,
                         mp::mp_append<mp::mp_list<Decay>, detail::num_updates_list<NumUpdates>, mp::mp_list<V...>>>::type,
      op_info<"ExponentialMovingAverage", false> {
  using reads = mp::mp_list<ema_shadow_node<Name, V>...>;  // the shadows must be initialized
  using output_type = none_t;

  template <class Ctx>
  static void run(Ctx& ctx) {
    double decay = static_cast<double>(ctx.template value<Decay>());
    if constexpr (!std::is_void_v<NumUpdates>) {
      const auto n = static_cast<double>(ctx.template value<NumUpdates>());
      decay = std::min(decay, (1.0 + n) / (10.0 + n));
    }
    (update<V>(ctx, decay), ...);
  }

 private:
  template <class W, class Ctx>
  static void update(Ctx& ctx, double decay) {
    using T = value_type_of<W>;
    auto& shadow = ctx.template slot_of<ema_shadow_node<Name, W>>().value;
    const auto& value = ctx.template value<W>();
    const T rate = static_cast<T>(1.0 - decay);
    if constexpr (shape_of<W>::rank == 0) {
      shadow -= rate * (shadow - value);
    } else {
      T* s = shadow.data();
      const T* v = value.data();
      for (std::size_t i = 0; i < shape_of<W>::size; ++i) s[i] -= rate * (s[i] - v[i]);
    }
  }
};

/// tf.train.ExponentialMovingAverage named Name, with its decay node Decay and an optional
/// num_updates node.
template <fixed_string Name, class Decay, class NumUpdates = void>
class exponential_moving_average_t {
 public:
  static constexpr auto name = Name;
  using num_updates_holder = mp::mp_if_c<std::is_void_v<NumUpdates>, group_node<>, NumUpdates>;

  constexpr exponential_moving_average_t(const Decay& decay, const num_updates_holder& num_updates = {})
      : decay_(decay), num_updates_(num_updates) {}

  /// The decay node (the named constant "<name>/decay" when the decay was a number).
  constexpr const Decay& decay() const noexcept { return decay_; }

  /// The node that updates the shadows of v... (tf ExponentialMovingAverage.apply).
  template <node... V>
  constexpr ema_apply_node<Name, Decay, NumUpdates, V...> apply(const V&... v) const {
    static_assert(sizeof...(V) > 0, "ema.apply(v...): give at least one variable");
    (check_averaged<V>(), ...);
    return make_node<ema_apply_node<Name, Decay, NumUpdates, V...>>(decay_, num_updates_, v...);
  }

  /// The shadow variable of v: "v/<Name>".
  template <node V>
  constexpr ema_shadow_node<Name, V> average(const V& v) const {
    return make_node<ema_shadow_node<Name, V>>(v);
  }

  /// "v/<Name>" ("add/<Name>" for a tensor), the checkpoint name of v's average.
  template <node V>
  static constexpr std::string_view average_name(V = {}) {
    return ema_shadow_node<Name, V>::name.view();
  }

  /// The saver entries that restore averaged values into plain variables
  /// (tf ExponentialMovingAverage.variables_to_restore): each averaged variable of the
  /// session under its average's name, every other variable under its own name (non-
  /// trainable ones, the averages of tensors); the session's shadows of variables are left
  /// out. The averaged variables are those whose shadow the session holds, or, in a
  /// session without any (an evaluation program), every trainable floating-point variable
  /// (TensorFlow's default, tf.trainable_variables(); is_trainable_v).
  template <class Session>
  constexpr auto variables_to_restore(const Session&) const {
    using vars = typename Session::variables;
    using shadows = mp::mp_copy_if_q<vars, detail::variable_shadow_of_q<Name>>;
    using plain = mp::mp_remove_if_q<vars, detail::variable_shadow_of_q<Name>>;
    if constexpr (mp::mp_empty<shadows>::value) {
      return entries_for<mp::mp_copy_if<plain, detail::is_trainable_floating_variable>>(plain{});
    } else {
      return entries_for<mp::mp_transform<averaged_of, shadows>>(plain{});
    }
  }

  /// The same with the averaged variables given: v... under their averages' names, every
  /// other variable of the session under its own name.
  template <class Session, node... V>
  constexpr auto variables_to_restore(const Session&, V...) const {
    using plain = mp::mp_remove_if_q<typename Session::variables, detail::variable_shadow_of_q<Name>>;
    return entries_for<mp::mp_list<V...>>(plain{});
  }

 private:
  template <class S>
  using averaged_of = typename S::averaged_variable;

  template <class Averaged, class W>
  using entry_of = mp::mp_if_c<contains_v<Averaged, W>, saved_as_t<ema_shadow_node<Name, W>::name, W>,
                               saved_as_t<W::name, W>>;

  template <class Averaged, class... W>
  static constexpr auto entries_for(mp::mp_list<W...>) {
    return saver_var_map<entry_of<Averaged, W>...>{};
  }

  Decay decay_;
  [[no_unique_address]] num_updates_holder num_updates_;

  template <class V>
  static constexpr void check_averaged() {
    if constexpr (!floating_element<value_type_of<V>>) {
      static_assert(moving_averages_need_a_floating_point_variable<label_of<V>()>::value,
                    "ema.apply(v...): moving averages are kept of float and double variables and tensors only");
    } else if constexpr (!shape_of<V>::is_static) {
      static_assert(moving_averages_need_a_static_shape<label_of<V>()>::value,
                    "ema.apply(t...): the average of a tensor is a variable, so the tensor needs a static shape");
    }
  }
};

namespace detail {
/// The decay node: a scalar node, or a number in [0, 1] as the named constant "<Name>/decay".
template <fixed_string Name, class D>
auto ema_decay(const D& decay) {
  if constexpr (std::is_arithmetic_v<D>) {
    if (!(decay >= 0.0 && decay <= 1.0))
      throw invalid_argument_error("ExponentialMovingAverage " + std::string(Name.view()) + ": decay " +
                                   std::to_string(double(decay)) + " is not in [0, 1]");
  }
  return hyperparameter<Name, "decay">(decay);
}
}  // namespace detail

/// `exponential_moving_average(0.999)`: the moving average "ExponentialMovingAverage"; the
/// decay is a number in [0, 1] or a scalar node.
template <fixed_string Name = "ExponentialMovingAverage", class D>
auto exponential_moving_average(const D& decay) {
  using decay_node = decltype(detail::ema_decay<Name>(decay));
  return exponential_moving_average_t<Name, decay_node>(detail::ema_decay<Name>(decay));
}

/// `exponential_moving_average(0.999, global_step)`: the decay is at most
/// (1 + num_updates) / (10 + num_updates).
template <fixed_string Name = "ExponentialMovingAverage", class D, node NumUpdates>
auto exponential_moving_average(const D& decay, const NumUpdates& num_updates) {
  static_assert(shape_of<NumUpdates>::rank == 0 && !std::is_same_v<value_type_of<NumUpdates>, bool>,
                "exponential_moving_average(decay, num_updates): num_updates must be a scalar number");
  using decay_node = decltype(detail::ema_decay<Name>(decay));
  return exponential_moving_average_t<Name, decay_node, NumUpdates>(detail::ema_decay<Name>(decay), num_updates);
}

}  // namespace typeflow::train
