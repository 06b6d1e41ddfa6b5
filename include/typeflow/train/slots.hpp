// typeflow/train/slots.hpp — the variables an optimizer keeps beside the ones it trains:
// global_step, the slots ("w/Adam", "w/Adam_1", one set per trained variable) and the
// non-slot variables (Adam's "beta1_power"), with TensorFlow's names and trainable=False;
// get_slot, get_slot_names, has_slot. The optimizers' definitions (train/adam.hpp, ...) name
// their slots with slot_t.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow::train {

using global_step_node = variable_node<"global_step", std::int64_t, scalar, init::not_trainable<init::fixed<init::zeros()>>>;

/// tf.train.get_or_create_global_step(): the int64 variable "global_step", zero at
/// initialization, trainable=False (the type of `variable<"global_step", std::int64_t>(not_trainable)`);
/// pass it to minimize or apply_gradients to count the updates.
constexpr global_step_node global_step() { return {}; }

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
/// A slot variable: trainable=False, as TensorFlow's slots are (is_trainable_v).
template <class V, fixed_string OptName, int Index = 0, class Init = init::fixed<init::zeros()>>
using slot_t =
    variable_node<slot_name<V, OptName, Index>::value, value_type_of<V>, shape_of<V>, init::not_trainable<Init>>;

/// The slot variable of v that optimizer Opt keeps (e.g. `slot<0>(adam_opt, w)` is "w/Adam").
template <int Index, class Opt, node V>
constexpr auto slot(const Opt&, V) {
  return mp::mp_at_c<typename Opt::template slots<V>, Index>{};
}
/// In a diagnostic: the optimizer named OptName keeps no slot named SlotName for its
/// variables (TensorFlow's get_slot returns None).
template <fixed_string OptName, fixed_string SlotName>
struct optimizer_has_no_slot_named {
  static constexpr bool value = false;
};

namespace detail {
/// The index of the slot named SlotName in Def's slots, or -1.
template <class Def, fixed_string SlotName>
constexpr int slot_index() {
  for (std::size_t i = 0; i < Def::slot_names.size(); ++i)
    if (Def::slot_names[i] == SlotName.view()) return static_cast<int>(i);
  return -1;
}
}  // namespace detail

/// Whether optimizer Opt keeps a slot named SlotName ("m", "rms", "mg", ...): TensorFlow's
/// `opt.get_slot(v, name) is not None`.
template <fixed_string SlotName, class Opt>
constexpr bool has_slot(const Opt&) {
  return detail::slot_index<typename Opt::definition, SlotName>() >= 0;
}

/// tf.train.Optimizer.get_slot(v, name): the slot variable of v named SlotName by the
/// optimizer (TensorFlow's names: Adam "m" and "v", Momentum "momentum", RMSProp "rms",
/// "momentum" and, centered, "mg", Adagrad "accumulator"). `get_slot<"m">(adam_opt, w)` is
/// the variable "w/Adam". A name the optimizer does not keep is a compile error naming it.
template <fixed_string SlotName, class Opt, node V>
constexpr auto get_slot(const Opt&, V v) {
  using Def = typename Opt::definition;
  constexpr int index = detail::slot_index<Def, SlotName>();
  if constexpr (index < 0) {
    static_assert(optimizer_has_no_slot_named<Def::name, SlotName>::value,
                  "train::get_slot<name>(opt, v): this optimizer keeps no slot of that name "
                  "(train::get_slot_names(opt) lists them)");
    return v;  // inert: the error above is the one to read
  } else {
    return mp::mp_at_c<typename Def::template slots<V>, index>{};
  }
}

/// tf.train.Optimizer.get_slot_names(): the names of the slots the optimizer keeps for each
/// variable, sorted, as TensorFlow's.
template <class Opt>
std::vector<std::string> get_slot_names(const Opt&) {
  const auto& names = Opt::definition::slot_names;
  std::vector<std::string> out(names.begin(), names.end());
  std::sort(out.begin(), out.end());
  return out;
}

/// The non-slot variable of optimizer Opt whose update uses v as its first variable
/// (`non_slot<0>(adam_opt, w)` is "beta1_power", `non_slot<1>` "beta2_power").
template <int Index, class Opt, node V>
constexpr auto non_slot(const Opt&, V) {
  return mp::mp_at_c<typename Opt::definition::template non_slots<V>, Index>{};
}

}  // namespace typeflow::train
