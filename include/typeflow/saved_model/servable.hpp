// typeflow/saved_model/servable.hpp — running a compiled model by run-time names.
//
// A servable holds a const session and the signatures compiled into the program. Code that
// knows names only at run time (read from a configuration, a request) runs a signature with
// type-erased tensors, or fetches and feeds nodes by their TensorFlow tensor names
// (graph.get_tensor_by_name). Every name, dtype and shape is checked when the call is made,
// with an error naming what is wrong; nothing runs until every check has passed.
//
// The runs go through the const session: only paths that change nothing, and any number
// of threads may call a servable at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/tensor.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/saved_model/signature.hpp"
#include "typeflow/session/feed.hpp"
#include "typeflow/session/session.hpp"

namespace typeflow::saved_model {

/// Values by key (a signature's inputs and outputs) or by tensor name ("x:0").
using tensor_map_t = std::map<std::string, tensor, std::less<>>;

/// A node found by its tensor name (graph.get_tensor_by_name): name, dtype and shape.
struct tensor_handle {
  std::string name;  // "dense/kernel:0"
  typeflow::dtype dtype{};
  std::vector<std::int64_t> shape;  // -1 for a dynamic dim
  std::size_t index = 0;            // position in the servable's graph
};

/// In a diagnostic: a signature of a servable uses a node the session does not hold.
template <fixed_string Signature, fixed_string Key>
struct signature_tensor_is_not_in_the_sessions_graph {
  static constexpr bool value = false;
};

/// In a diagnostic: a servable was made from a temporary session; Signature is the name
/// of its first signature ("" when it has none).
template <fixed_string Signature>
struct servable_needs_a_session_that_outlives_it {
  static constexpr bool value = false;
};

namespace detail {

/// The value of a fetched node as a tensor.
template <class V>
tensor to_tensor(V&& v) {
  return tensor(std::forward<V>(v));
}

/// The xarray of `t` for node N, after checking dtype and shape; `what` names the tensor
/// for errors ("input 'images' of signature 'serving_default'", "placeholder 'x'").
template <class N>
const xt::xarray<value_type_of<N>>& checked_value(const tensor& t, const std::string& what) {
  using T = value_type_of<N>;
  if (t.dtype() != dtype_of<T>)
    throw invalid_argument_error("Cannot feed a value of dtype " + std::string(dtype_name(t.dtype())) + " to " + what +
                                 ", which has dtype " + std::string(dtype_name_of<T>));
  const auto& a = t.template as<T>();
  if (!shape_matches<shape_of<N>>(a.shape()))
    throw invalid_argument_error("Cannot feed value of shape " + shape_string(a.shape()) + " to " + what +
                                 ", which has shape " + shape_string<shape_of<N>>());
  return a;
}

template <class N>
constexpr bool fetchable_by_name() {
  if constexpr (!element_type<value_type_of<N>> || changes_state<N>()) {
    return false;
  } else {
    using path = graph::path_order<mp::mp_list<N>, mp::mp_list<>>;
    return !mp::mp_any_of_q<path, typeflow::session_detail::changes_state_q>::value;
  }
}

inline std::string join_keys(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out.empty() ? "(none)" : out;
}

}  // namespace detail

/// `servable(sess, signatures...)`: runs the signatures, and any node by name, through
/// the const session `sess`, which must outlive it. It follows `sess` when the session is
/// moved (session_ref), so a struct holding both may be moved; once the session is destroyed
/// or assigned over, its runs throw cancelled_error.
template <class Session, class... Sigs>
class servable {
  static_assert((is_signature<Sigs>::value && ...),
                "saved_model::servable(sess, signatures...): pass signatures made by saved_model::signature");

 public:
  using session_type = Session;
  using signatures = mp::mp_list<Sigs...>;

  explicit servable(const Session& sess, Sigs...) : sess_(sess.ref()) {
    check_in_graph(mp::mp_list<Sigs...>{});
  }

  /// A temporary session would be gone before the servable's first run: a compile error.
  template <class S = Session>
  explicit servable(const S&& sess, Sigs...) : sess_(sess.ref()) {
    static_assert(servable_needs_a_session_that_outlives_it<first_signature_name()>::value,
                  "saved_model::servable(sess, signatures...) keeps a reference to sess: make it from a "
                  "named session that outlives the servable, not a temporary");
  }

  const Session& session() const { return sess_.get(); }

  /// The signatures, described (names, keys, tensor names, dtypes, shapes).
  std::vector<signature_description> signature_descriptions() const {
    const auto graph = describe_graph_nodes<typename Session::graph_nodes>();
    return {describe_signature<Sigs>(graph)...};
  }

  /// Runs the signature `name` with the inputs by key; returns every output by key.
  /// NotFound for an unknown signature; InvalidArgument for a missing or unknown input
  /// key, or an input of another dtype or shape.
  tensor_map_t run(std::string_view name, const tensor_map_t& inputs) const {
    tensor_map_t out;
    bool found = false;
    (void)((Sigs::name.view() == name ? (found = true, out = run_signature<Sigs>(inputs), true) : false) || ...);
    if (!found) {
      std::vector<std::string> names{std::string(Sigs::name.view())...};
      throw not_found_error("Signature '" + std::string(name) + "' not found; the model's signatures are: " +
                            detail::join_keys(names));
    }
    return out;
  }

  /// The node named `name` ("x:0", as graph.get_tensor_by_name takes it); NotFound with
  /// TensorFlow's message when the graph has no such node.
  tensor_handle get_tensor_by_name(std::string_view name) const {
    const auto colon = name.rfind(':');
    if (colon == std::string_view::npos)
      throw invalid_argument_error("The name '" + std::string(name) +
                                   "' looks like an (invalid) Operation name, not a Tensor. Tensor names must be of "
                                   "the form \"<op_name>:<output_index>\".");
    const auto op = name.substr(0, colon);
    const auto& t = table();
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i].handle.name.size() == name.size() && t[i].handle.name == name) return t[i].handle;
    for (const auto& e : t)
      if (std::string_view(e.handle.name).substr(0, e.handle.name.size() - 2) == op)
        throw not_found_error("The name '" + std::string(name) + "' refers to a Tensor which does not exist. The "
                              "operation, '" + std::string(op) + "', exists but only has 1 outputs.");
    throw not_found_error("The name '" + std::string(name) + "' refers to a Tensor which does not exist. The "
                          "operation, '" + std::string(op) + "', does not exist in the graph.");
  }

  /// sess.run([names], feed_dict={name: value}) with tensor names: each fetch's path,
  /// evaluated with the placeholders it needs fed by name. Feeds go to placeholders.
  std::vector<tensor> run_by_name(const std::vector<std::string>& fetches, const tensor_map_t& feeds) const {
    const auto& t = table();
    std::vector<const entry*> fetched;
    for (const auto& f : fetches) {
      const auto& e = t[get_tensor_by_name(f).index];
      if (!e.fetch)
        throw invalid_argument_error("Cannot fetch '" + f + "' through a const session: its path changes state "
                                     "(an assign, an optimizer update, print); run it through the session");
      fetched.push_back(&e);
    }
    std::vector<const entry*> fed;
    for (const auto& [name, value] : feeds) {
      const auto& e = t[get_tensor_by_name(name).index];
      if (!e.is_placeholder)
        throw invalid_argument_error("Cannot feed '" + name + "' by name: by-name feeds go to placeholders, and '" +
                                     name + "' is a " + e.op);
      fed.push_back(&e);
      e.check(value);
    }
    std::vector<tensor> out;
    out.reserve(fetched.size());
    for (const auto* e : fetched) out.push_back(e->fetch(sess_.get(), feeds));
    return out;
  }

  /// Every node that can be fetched by name, in graph order.
  std::vector<tensor_handle> tensors() const {
    std::vector<tensor_handle> out;
    for (const auto& e : table())
      if (e.fetch) out.push_back(e.handle);
    return out;
  }

 private:
  using graph_nodes = typename Session::graph_nodes;

  struct entry {
    tensor_handle handle;
    std::string op;
    bool is_placeholder = false;
    tensor (*fetch)(const Session&, const tensor_map_t&) = nullptr;
    void (*check)(const tensor&) = [](const tensor&) {};
  };

  static constexpr auto first_signature_name() {
    if constexpr (sizeof...(Sigs) == 0)
      return fixed_string<1>{};
    else
      return mp::mp_front<mp::mp_list<Sigs...>>::name;
  }

  template <class... S>
  static constexpr void check_in_graph(mp::mp_list<S...>) {
    (check_sig<S>(), ...);
  }
  template <class S>
  static constexpr void check_sig() {
    mp::mp_for_each<mp::mp_append<typename S::inputs, typename S::outputs>>([](auto e) {
      using E = decltype(e);
      if constexpr (!contains_v<graph_nodes, typename E::node>) {
        static_assert(signature_tensor_is_not_in_the_sessions_graph<S::name, E::key>::value,
                      "every input and output of a signature must be a node of the session's graph: make "
                      "the session from the signature's outputs");
      }
    });
  }

  template <class N>
  static tensor fetch_one(const Session& sess, const tensor_map_t& feeds) {
    using path = graph::path_order<mp::mp_list<N>, mp::mp_list<>>;
    using placeholders = mp::mp_filter<graph::is_placeholder_node, path>;
    return fetch_with(sess, feeds, mp::mp_list<N>{}, placeholders{});
  }
  template <class N, class... P>
  static tensor fetch_with(const Session& sess, const tensor_map_t& feeds, mp::mp_list<N>, mp::mp_list<P...>) {
    auto value_of = [&](auto id) -> const tensor& {
      using Q = typename decltype(id)::type;
      const std::string name = std::string(Q::name.view()) + ":0";
      const auto it = feeds.find(name);
      if (it == feeds.end())
        throw invalid_argument_error("You must feed a value for placeholder tensor '" + std::string(Q::name.view()) +
                                     "' with dtype " + std::string(dtype_name_of<value_type_of<Q>>) + " and shape " +
                                     shape_string<shape_of<Q>>());
      return it->second;
    };
    (void)value_of;  // a path without placeholders feeds nothing
    return detail::to_tensor(sess.run(
        N{}, feed(P{}, detail::checked_value<P>(value_of(mp::mp_identity<P>{}), "placeholder '" + std::string(P::name.view()) + "'"))...));
  }

  static std::vector<entry> build_table() {
    const auto names = detail::node_names<graph_nodes>();
    std::vector<entry> t;
    std::size_t i = 0;
    mp::mp_for_each<mp::mp_transform<mp::mp_identity, graph_nodes>>([&](auto id) {
      using N = typename decltype(id)::type;
      entry e;
      e.handle.name = names[i] + ":0";
      e.handle.index = i++;
      e.op = std::string(op_name_of<N>());
      if constexpr (element_type<value_type_of<N>>) {
        e.handle.dtype = dtype_of<value_type_of<N>>;
        for (auto d : shape_of<N>::dims) e.handle.shape.push_back(static_cast<std::int64_t>(d));
        if constexpr (detail::fetchable_by_name<N>()) e.fetch = &fetch_one<N>;
        if constexpr (graph::is_placeholder_node<N>::value) {
          e.is_placeholder = true;
          e.check = [](const tensor& v) {
            (void)detail::checked_value<N>(v, "placeholder '" + std::string(N::name.view()) + "'");
          };
        }
      }
      t.push_back(std::move(e));
    });
    return t;
  }
  static const std::vector<entry>& table() {
    static const std::vector<entry> t = build_table();
    return t;
  }

  template <class S>
  tensor_map_t run_signature(const tensor_map_t& inputs) const {
    const std::string sig = "signature '" + std::string(S::name.view()) + "'";
    std::vector<std::string> keys;
    mp::mp_for_each<typename S::inputs>([&](auto e) { keys.emplace_back(decltype(e)::key.view()); });
    for (const auto& [key, value] : inputs)
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        throw invalid_argument_error("The " + sig + " has no input '" + key + "'; its inputs are: " +
                                     detail::join_keys(keys));
    return run_entries<S>(inputs, typename S::inputs{}, typename S::outputs{});
  }

  template <class S, class... I, class... O>
  tensor_map_t run_entries(const tensor_map_t& inputs, mp::mp_list<I...>, mp::mp_list<O...>) const {
    auto input = [&](auto e) -> const auto& {
      using E = decltype(e);
      using N = typename E::node;
      const std::string what = "input '" + std::string(E::key.view()) + "' of signature '" +
                               std::string(S::name.view()) + "'";
      const auto it = inputs.find(E::key.view());
      if (it == inputs.end())
        throw invalid_argument_error("Missing " + what + " (" + std::string(dtype_name_of<value_type_of<N>>) + " " +
                                     shape_string<shape_of<N>>() + ")");
      return detail::checked_value<N>(it->second, what);
    };
    auto values = sess_.get().run(fetch(typename O::node{}...), feed(typename I::node{}, input(I{}))...);
    tensor_map_t out;
    std::size_t k = 0;
    std::apply([&](auto&... v) { ((out.emplace(std::string(O::key.view()), detail::to_tensor(std::move(v))), ++k), ...); },
               values);
    return out;
  }

  session_ref<Session> sess_;
};

template <class Session, class... Sigs>
servable(const Session&, Sigs...) -> servable<Session, Sigs...>;

}  // namespace typeflow::saved_model
