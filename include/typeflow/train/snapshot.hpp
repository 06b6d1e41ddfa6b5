// typeflow/train/snapshot.hpp — a copy of a session's variables in memory, restorable without
// touching disk (the early-stopping pattern).
#pragma once

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"

namespace typeflow::train {

/// A copy of every variable of a session (value and initialized flag), restorable without
/// touching disk: the early-stopping pattern. `auto best = train::snapshot(sess); ...
/// best.restore(sess);`
template <class Session>
class variables_snapshot {
  template <class L>
  struct storage_impl;
  template <class... V>
  struct storage_impl<mp::mp_list<V...>> {
    using type = std::tuple<std::remove_cvref_t<decltype(std::declval<Session&>().template slot<V>())>...>;
  };
  using storage = typename storage_impl<typename Session::variables>::type;

 public:
  explicit variables_snapshot(const Session& sess) : values_(std::make_unique<storage>()) { take(sess); }

  /// Copies the session's variables into the snapshot again.
  void take(const Session& sess) {
    mp::mp_for_each<mp::mp_iota_c<mp::mp_size<typename Session::variables>::value>>([&](auto i) {
      using V = mp::mp_at_c<typename Session::variables, decltype(i)::value>;
      std::get<decltype(i)::value>(*values_) = sess.template slot<V>();
    });
  }
  /// Writes the snapshot back into the session's variables.
  void restore(Session& sess) const {
    mp::mp_for_each<mp::mp_iota_c<mp::mp_size<typename Session::variables>::value>>([&](auto i) {
      using V = mp::mp_at_c<typename Session::variables, decltype(i)::value>;
      sess.template slot<V>() = std::get<decltype(i)::value>(*values_);
    });
  }

 private:
  std::unique_ptr<storage> values_;
};

/// A snapshot of every variable of `sess`.
template <class Session>
variables_snapshot<Session> snapshot(const Session& sess) {
  return variables_snapshot<Session>(sess);
}

}  // namespace typeflow::train
