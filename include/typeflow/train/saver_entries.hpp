// typeflow/train/saver_entries.hpp — which variables a saver saves, under which keys: the
// type-level half of train::saver. saved_as, var_map and the saver's constructor arguments
// make a list of (key, variable) entries, checked at compile time (unique keys, variables the
// session holds); from it, per session type, come the run-time tables that the checkpoint
// transaction (io/checkpoint/transaction.hpp) works on: each entry's key, name, dtype,
// shape, and where its value and initialized flag live in the session. Saveables
// (train/saveable.hpp: a dataset iterator's position) are entries too, written and restored
// beside the variables.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/detail/first_duplicate.hpp"
#include "typeflow/core/dtype.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/io/checkpoint/bindings.hpp"
#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/train/saveable.hpp"

namespace typeflow::train {

/// One tensor of a checkpoint's manifest (tf.train.list_variables): name, dtype, shape.
using variable_info = io::tensor_info;

// --- what a saver saves -------------------------------------------------------------------------

/// Variable V saved under the checkpoint key Key (TensorFlow's dict var_list entry).
template <fixed_string Key, class V>
struct saved_as_t {
  static constexpr auto key = Key;
  using variable = V;
};

/// `saved_as<"a">(d)`: save d under the key "a", and restore d from the key "a".
template <fixed_string Key, node V>
constexpr saved_as_t<Key, V> saved_as(V) {
  static_assert(variable_node_type<V>, "train::saved_as<\"key\">(v): v must be a variable");
  return {};
}

/// A list of (key, variable) entries, as a saver takes it (what
/// exponential_moving_average::variables_to_restore returns).
template <class... Entries>
struct saver_var_map {};

/// `var_map(saved_as<"a">(d), w)`: entries for a saver, variables under their own names.
template <class... A>
constexpr auto var_map(A...);

// --- diagnostics ----------------------------------------------------------------------------------

/// In a diagnostic: two variables of one saver are saved under this checkpoint key.
template <fixed_string Key>
struct checkpoint_key_is_used_twice_in_one_saver {
  static constexpr bool value = false;
};

/// In a diagnostic: the saver saves this variable, which the session does not hold.
template <fixed_string Variable>
struct saver_variable_is_not_in_the_session {
  static constexpr bool value = false;
};

/// In a diagnostic: the saver saves the state of this resource (an iterator), which the
/// session does not hold.
template <fixed_string Resource>
struct saver_resource_is_not_in_the_session {
  static constexpr bool value = false;
};

/// In a diagnostic: this argument of train::saver(...) is neither a variable, saved_as nor var_map.
template <class T>
struct saver_argument_is_not_a_variable {
  static constexpr bool value = false;
};

/// The marker of a saver over every variable of the session it is used with.
struct all_variables {};

namespace detail {

template <class A>
struct entries_of_arg {
  static_assert(saver_argument_is_not_a_variable<A>::value,
                "train::saver(args...): pass variables, train::saved_as<\"key\">(v) or a var_map");
  using type = mp::mp_list<>;
};
template <class A>
  requires variable_node_type<A>
struct entries_of_arg<A> {
  using type = mp::mp_list<saved_as_t<A::name, A>>;
};
template <fixed_string Key, class V>
struct entries_of_arg<saved_as_t<Key, V>> {
  using type = mp::mp_list<saved_as_t<Key, V>>;
};
template <class... E>
struct entries_of_arg<saver_var_map<E...>> {
  using type = mp::mp_list<E...>;
};
template <class R>
struct entries_of_arg<saveable_t<R>> {
  using type = mp::mp_list<saveable_t<R>>;
};

template <class... A>
struct entries_of_args {
  using type = mp::mp_append<mp::mp_list<>, typename entries_of_arg<A>::type...>;
};
template <class... S>
struct entries_of_args<all_variables_and_t<S...>> {
  using type = all_variables_and_t<S...>;
};
template <class... A>
using entries_t = typename entries_of_args<A...>::type;

template <class L>
inline constexpr std::size_t first_duplicate_key = 0;
template <class... E>
inline constexpr std::size_t first_duplicate_key<mp::mp_list<E...>> = core::detail::first_duplicate_of<E::key...>;

template <class L, std::size_t I = first_duplicate_key<L>>
struct check_unique_keys {
  static constexpr bool value = true;
};
template <class L, std::size_t I>
  requires(I < mp::mp_size<L>::value)
struct check_unique_keys<L, I> {
  static_assert(checkpoint_key_is_used_twice_in_one_saver<mp::mp_at_c<L, I>::key>::value,
                "train::saver(...): two variables are saved under the same checkpoint key; give one "
                "of them another key with train::saved_as<\"key\">(v)");
  static constexpr bool value = false;
};

template <class Entries>
constexpr bool keys_are_unique() {
  if constexpr (std::is_same_v<Entries, all_variables> || mp::mp_similar<Entries, all_variables_and_t<>>::value) {
    return true;  // names are unique per graph
  } else {
    return check_unique_keys<Entries>::value;
  }
}

template <class V>
using own_name_entry = saved_as_t<V::name, V>;

template <class Entries, class Session>
struct resolve_entries {
  using type = Entries;
};
template <class V>
using is_hidden_state = std::bool_constant<hidden_state_node<V>>;
// Hidden state (a dropout's random counter) is not saved: checkpoints do not depend on it.
template <class Session>
struct resolve_entries<all_variables, Session> {
  using type = mp::mp_transform<own_name_entry, mp::mp_remove_if<typename Session::variables, is_hidden_state>>;
};
template <class... S, class Session>
struct resolve_entries<all_variables_and_t<S...>, Session> {
  using type = mp::mp_push_back<typename resolve_entries<all_variables, Session>::type, S...>;
};

template <class Session, class L>
struct check_held;
template <class Session, class... E>
struct check_held<Session, mp::mp_list<E...>> {
  template <class Entry>
  static constexpr bool one() {
    if constexpr (is_saveable_entry<Entry>::value) {
      using R = typename Entry::resource;
      if constexpr (!contains_v<typename Session::resources, R>) {
        static_assert(saver_resource_is_not_in_the_session<R::name>::value,
                      "saver.save/restore(sess, ...): the saver has an iterator that the session does not "
                      "hold; pass a node that reaches it (its initializer or get_next) to the session's "
                      "constructor");
        return false;
      } else {
        return true;
      }
    } else {
      return one_variable<typename Entry::variable>();
    }
  }
  template <class V>
  static constexpr bool one_variable() {
    if constexpr (!Session::template holds<V>) {
      static_assert(saver_variable_is_not_in_the_session<V::name>::value,
                    "saver.save/restore(sess, ...): the saver has a variable that the session does not "
                    "hold; pass a node that reaches it to the session's constructor");
      return false;
    } else {
      return true;
    }
  }
  static constexpr bool value = (one<E>() && ...);
};

template <class V>
struct variable_meta {
  using T = value_type_of<V>;
  static constexpr std::size_t rank = shape_of<V>::rank;
  static constexpr auto dims = [] {
    std::array<std::uint64_t, rank> d{};
    for (std::size_t i = 0; i < rank; ++i) d[i] = static_cast<std::uint64_t>(shape_of<V>::dims[i]);
    return d;
  }();
  static constexpr std::uint64_t elements = shape_of<V>::size;
  static constexpr std::uint64_t bytes = elements * sizeof(T);
  static_assert(sizeof(T) == dtype_size(dtype_of<T>), "checkpoints store each element in its dtype's size");

  static variable_info info(std::string_view key) { return {std::string(key), dtype_of<T>, {dims.begin(), dims.end()}}; }
};

template <class Storage>
auto* storage_data(Storage& s) noexcept {
  if constexpr (std::is_arithmetic_v<std::remove_cvref_t<Storage>>) {
    return &s;
  } else {
    return s.data();
  }
}

template <class E>
using variable_of = typename E::variable;

/// What the run-time tables say of every entry: its checkpoint key, and its variable's name,
/// dtype and shape.
struct entry_description {
  std::string_view key;
  std::string_view variable;
  typeflow::dtype dtype;
  std::span<const std::uint64_t> shape;
};

/// Calls f(description, slot, entry) for each entry of EntryList, in the saver's order, where
/// slot is the entry's variable's slot in `sess` (const for a const session) and entry an
/// mp_identity of the entry's type.
template <class EntryList, class Session, class F>
void for_each_entry(Session& sess, F&& f) {
  mp::mp_for_each<mp::mp_transform<mp::mp_identity, EntryList>>([&](auto entry) {
    using E = typename decltype(entry)::type;
    using V = typename E::variable;
    using M = variable_meta<V>;
    f(entry_description{E::key.view(), V::name.view(), dtype_of<typename M::T>, M::dims}, sess.template slot<V>(),
      entry);
  });
}

/// The run-time table of a save: per entry, the tensor written and its variable's state.
template <class EntryList, class Session>
std::vector<io::saved_variable> saved_variables(const Session& sess) {
  std::vector<io::saved_variable> out;
  out.reserve(mp::mp_size<EntryList>::value);
  for_each_entry<EntryList>(sess, [&](const entry_description& d, const auto& slot, auto) {
    out.push_back({{d.key, d.dtype, d.shape, storage_data(slot.value)}, d.variable, slot.initialized});
  });
  return out;
}

/// The run-time table of a restore: per entry, its key, dtype, shape and where its value and
/// initialized flag live; a variable under more than one key is marked shared (it is then
/// staged, so that its tensors are copied in the saver's order).
template <class EntryList, class Session>
std::vector<io::restored_variable> restored_variables(Session& sess) {
  using variables = mp::mp_transform<variable_of, EntryList>;
  std::vector<io::restored_variable> out;
  out.reserve(mp::mp_size<EntryList>::value);
  for_each_entry<EntryList>(sess, [&](const entry_description& d, auto& slot, auto entry) {
    using V = typename decltype(entry)::type::variable;
    out.push_back({d.key, d.variable, d.dtype, d.shape, static_cast<void*>(storage_data(slot.value)), &slot.initialized,
                   count_v<variables, V> > 1});
  });
  return out;
}

}  // namespace detail

template <class... A>
constexpr auto var_map(A...) {
  return mp::mp_rename<detail::entries_t<A...>, saver_var_map>{};
}

/// The entries (key, variable) that a saver over Entries saves for Session, saveables included.
template <class Entries, class Session>
using saver_entries_t = typename detail::resolve_entries<Entries, Session>::type;
/// Its variables' entries (key, variable) only.
template <class Entries, class Session>
using saver_variable_entries_t = mp::mp_remove_if<saver_entries_t<Entries, Session>, detail::is_saveable_entry>;
/// Its saveables (saveable_t) only.
template <class Entries, class Session>
using saver_saveables_t = mp::mp_copy_if<saver_entries_t<Entries, Session>, detail::is_saveable_entry>;

}  // namespace typeflow::train
