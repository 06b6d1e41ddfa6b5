// typeflow/train/moving_average.hpp — tf.train.ExponentialMovingAverage.
//
//   auto ema = train::exponential_moving_average(0.999, step);  // step: optional num_updates node
//   auto maintain_averages = ema.apply(w, b);  // a side-effect node: shadow -= (1 - decay) * (shadow - v)
//   auto w_avg = ema.average(w);              // the shadow variable "w/ExponentialMovingAverage"
//
// An evaluation program restores the averaged weights into its plain variables, as in
// TensorFlow:  train::saver(ema.variables_to_restore(eval_sess)).restore(eval_sess, path).
//
// The moving average carries run-time data (its decay), so its type has a name (DESIGN rule
// 1), "ExponentialMovingAverage" unless given one: exponential_moving_average<"ema_fast">(0.9).
// The decay is part of its definition, program-wide, like a variable's initializer: a second
// definition under the same name with another decay throws AlreadyExists.
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
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/state.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/train/saver.hpp"

namespace typeflow::train {

/// The shadow variable that the moving average EmaName keeps of variable V, named
/// "<v>/<EmaName>" ("w/ExponentialMovingAverage"); a variable of the session like any other.
template <fixed_string EmaName, class V>
struct ema_shadow_node : node_facade<value_type_of<V>, shape_of<V>, node_kind::leaf> {
  static constexpr auto name = join_names<V::name, EmaName>();
  static constexpr bool is_variable = true;
  static constexpr std::string_view op_name = "VariableV2";
  using averaged_variable = V;
  static constexpr auto moving_average_name = EmaName;

  /// V's initializer, drawing from the seed V's draws from: the shadow starts as V does.
  static init::initializer initializer() {
    auto i = V::initializer();
    if (!i.seed) i.seed = typeflow::detail::fnv1a(V::name.view()) ^ typeflow::detail::global_seed();
    return i;
  }
};

namespace detail {

struct ema_definition {
  bool defined = false;
  double decay = 0;
};
// Constant-initialized, so a training step reads it without an initialization guard.
template <fixed_string Name>
inline ema_definition ema_registry{};

template <fixed_string Name, class N>
struct is_shadow_of : std::false_type {};
template <fixed_string Name, class V>
struct is_shadow_of<Name, ema_shadow_node<Name, V>> : std::true_type {};

template <fixed_string Name>
struct shadow_of_q {
  template <class N>
  using fn = is_shadow_of<Name, N>;
};

template <class V>
using is_floating_variable = std::bool_constant<floating_element<value_type_of<V>>>;

}  // namespace detail

/// In a diagnostic: apply(v...) averages floating-point variables only.
template <fixed_string Variable>
struct moving_averages_need_a_floating_point_variable {
  static constexpr bool value = false;  // own member: the diagnostic prints this type
};

/// The update node of a moving average: when run, for each v (in order),
/// shadow -= (1 - decay) * (shadow - v). Its inputs are num_updates (if any) and the
/// variables; it writes the shadows.
template <fixed_string Name, class NumUpdates, class... V>
struct ema_apply_node : node_base {
  using value_type = none_t;
  using shape_type = scalar;
  static constexpr node_kind kind = node_kind::effect;
  using num_updates_list = mp::mp_if_c<std::is_void_v<NumUpdates>, mp::mp_list<>, mp::mp_list<NumUpdates>>;
  using inputs = mp::mp_append<num_updates_list, mp::mp_list<V...>>;
  using targets = mp::mp_list<ema_shadow_node<Name, V>...>;
  using reads = targets;  // the shadows must be initialized
  using output_type = none_t;
  static constexpr std::string_view op_name = "ExponentialMovingAverage";

  template <class Ctx>
  static void run(Ctx& ctx) {
    double decay = detail::ema_registry<Name>.decay;
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
    const auto& value = ctx.template slot_of<W>().value;
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

/// tf.train.ExponentialMovingAverage named Name, with an optional num_updates node.
template <fixed_string Name = "ExponentialMovingAverage", class NumUpdates = void>
class exponential_moving_average_t {
 public:
  static constexpr auto name = Name;

  /// Defines the moving average Name with `decay`; a second definition must agree.
  explicit exponential_moving_average_t(double decay) {
    if (!(decay >= 0.0 && decay <= 1.0))
      throw invalid_argument_error("ExponentialMovingAverage " + std::string(Name.view()) + ": decay " +
                                   std::to_string(decay) + " is not in [0, 1]");
    auto& r = detail::ema_registry<Name>;
    if (r.defined && r.decay != decay)
      throw already_exists_error("ExponentialMovingAverage " + std::string(Name.view()) +
                                 " already exists with decay " + std::to_string(r.decay) +
                                 "; give the second one another name, e.g. "
                                 "train::exponential_moving_average<\"" +
                                 std::string(Name.view()) + "_1\">(...)");
    r.defined = true;
    r.decay = decay;
  }

  /// The decay of this moving average's definition.
  static double decay() noexcept { return detail::ema_registry<Name>.decay; }

  /// The node that updates the shadows of v... (tf ExponentialMovingAverage.apply).
  template <node... V>
  constexpr ema_apply_node<Name, NumUpdates, V...> apply(V...) const {
    static_assert(sizeof...(V) > 0, "ema.apply(v...): give at least one variable");
    static_assert((requires { V::is_variable; } && ...), "ema.apply(v...): every argument must be a variable");
    (check_floating<V>(), ...);
    return {};
  }

  /// The shadow variable of v: "v/<Name>".
  template <node V>
  constexpr ema_shadow_node<Name, V> average(V) const {
    static_assert(requires { V::is_variable; }, "ema.average(v): v must be a variable");
    return {};
  }

  /// "v/<Name>", the checkpoint name of v's average.
  template <node V>
  static constexpr std::string_view average_name(V = {}) {
    return ema_shadow_node<Name, V>::name.view();
  }

  /// The saver entries that restore averaged values into plain variables
  /// (tf ExponentialMovingAverage.variables_to_restore): each averaged variable of the
  /// session under its average's name, every other variable under its own name; the
  /// session's shadows of this average are left out. The averaged variables are those whose
  /// shadow the session holds, or, in a session without any (an evaluation program), every
  /// floating-point variable.
  template <class Session>
  constexpr auto variables_to_restore(const Session&) const {
    using vars = typename Session::variables;
    using shadows = mp::mp_copy_if_q<vars, detail::shadow_of_q<Name>>;
    using plain = mp::mp_remove_if_q<vars, detail::shadow_of_q<Name>>;
    if constexpr (mp::mp_empty<shadows>::value) {
      return entries_for<mp::mp_copy_if<plain, detail::is_floating_variable>>(plain{});
    } else {
      return entries_for<mp::mp_transform<averaged_of, shadows>>(plain{});
    }
  }

  /// The same with the averaged variables given: v... under their averages' names, every
  /// other variable of the session under its own name.
  template <class Session, node... V>
  constexpr auto variables_to_restore(const Session&, V...) const {
    using plain = mp::mp_remove_if_q<typename Session::variables, detail::shadow_of_q<Name>>;
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

  template <class V>
  static constexpr void check_floating() {
    if constexpr (!floating_element<value_type_of<V>>) {
      static_assert(moving_averages_need_a_floating_point_variable<V::name>::value,
                    "ema.apply(v...): moving averages are kept of float and double variables only");
    }
  }
};

/// `exponential_moving_average(0.999)`: the moving average "ExponentialMovingAverage".
template <fixed_string Name = "ExponentialMovingAverage">
exponential_moving_average_t<Name> exponential_moving_average(double decay) {
  return exponential_moving_average_t<Name>(decay);
}

/// `exponential_moving_average(0.999, global_step)`: the decay is at most
/// (1 + num_updates) / (10 + num_updates).
template <fixed_string Name = "ExponentialMovingAverage", node NumUpdates>
exponential_moving_average_t<Name, NumUpdates> exponential_moving_average(double decay, NumUpdates) {
  static_assert(shape_of<NumUpdates>::rank == 0 && !std::is_same_v<value_type_of<NumUpdates>, bool>,
                "exponential_moving_average(decay, num_updates): num_updates must be a scalar number");
  return exponential_moving_average_t<Name, NumUpdates>(decay);
}

}  // namespace typeflow::train
