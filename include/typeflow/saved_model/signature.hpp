// typeflow/saved_model/signature.hpp — signatures (tf.saved_model.signature_def_utils) and
// the structural fingerprints a saved model is checked with.
//
//   auto serving = saved_model::signature<"serving_default">(
//       saved_model::inputs<"images">(x), saved_model::outputs<"scores", "classes">(probs, classes));
//
// A signature names the nodes a caller feeds and fetches, by keys chosen for callers
// ("images"), as TensorFlow's SignatureDef does. Keys are part of its type, so duplicate
// keys do not compile; the nodes are checked against a session's graph when exported.
//
// Fingerprints. A node's fingerprint is a 64-bit FNV-1a hash of its type's mangled name:
// the type holds the op, every attribute (axes, transposes, literal values, names, dtypes,
// shapes) and, recursively, the types of its inputs, so equal fingerprints mean the same
// computation. It identifies the graph as compiled: programs built from the same model code
// with the same typeflow and the same compiler family agree; a change of either may change
// it (the loader then refuses, naming the node).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/detail/first_duplicate.hpp"
#include "typeflow/saved_model/detail/linkage_spelling.hpp"
#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/graph/naming.hpp"
#include "typeflow/graph/traverse.hpp"

namespace typeflow::saved_model {

/// A tag of tf.saved_model.tag_constants: a string_view that also converts to std::string,
/// so that `load(sess, {sm::serving_tag}, dir)` reads as TensorFlow's
/// `loader.load(sess, [tag_constants.SERVING], dir)`.
struct tag_constant : std::string_view {
  using std::string_view::string_view;
  operator std::string() const { return std::string(data(), size()); }
};
/// tf.saved_model.tag_constants
inline constexpr tag_constant serving_tag{"serve"};
inline constexpr tag_constant training_tag{"train"};
inline constexpr tag_constant gpu_tag{"gpu"};
inline constexpr tag_constant tpu_tag{"tpu"};
/// tf.saved_model.signature_constants
inline constexpr std::string_view default_serving_signature_def_key = "serving_default";
inline constexpr std::string_view predict_method_name = "tensorflow/serving/predict";

// --- signatures as types ------------------------------------------------------------------

/// One named tensor of a signature: the caller's key and the graph node.
template <fixed_string Key, class Node>
struct tensor_entry {
  static constexpr auto key = Key;
  using node = Node;
};

/// The inputs or the outputs of a signature.
template <class... Entries>
struct tensor_map {
  using entries = mp::mp_list<Entries...>;
};

/// In a diagnostic: a signature's inputs or outputs use this key twice.
template <fixed_string Key>
struct signature_key_is_used_twice {
  static constexpr bool value = false;
};

/// In a diagnostic: a signature output that has no value (group, an initializer).
template <fixed_string Key>
struct signature_output_has_no_value {
  static constexpr bool value = false;
};

/// In a diagnostic: two signatures of one meta graph have this name.
template <fixed_string Name>
struct signature_name_is_used_twice {
  static constexpr bool value = false;
};

namespace detail {

template <class... E>
constexpr bool keys_unique() {
  constexpr std::size_t d = core::detail::first_duplicate_of<E::key...>;
  if constexpr (d < sizeof...(E)) {
    static_assert(signature_key_is_used_twice<mp::mp_at_c<mp::mp_list<E...>, d>::key>::value,
                  "the keys of a signature's inputs, and of its outputs, are unique: rename one");
    return false;
  } else {
    return true;
  }
}

template <class N>
constexpr bool has_value() {
  return element_type<value_type_of<N>>;
}

template <fixed_string Key, class N>
constexpr bool output_has_value() {
  if constexpr (!has_value<N>()) {
    static_assert(signature_output_has_no_value<Key>::value,
                  "saved_model::outputs<...>(nodes...): every output must be a node with a value "
                  "(not group or an initializer)");
  }
  return has_value<N>();
}

template <fixed_string... Keys, class... N>
constexpr auto make_map(N...) {
  static_assert(sizeof...(Keys) == sizeof...(N),
                "saved_model::inputs<\"key\"...>(nodes...) / outputs<...>(...): one key per node");
  if constexpr (sizeof...(Keys) == sizeof...(N)) {
    constexpr bool unique = keys_unique<tensor_entry<Keys, N>...>();
    (void)unique;
    return tensor_map<tensor_entry<Keys, N>...>{};
  } else {
    return tensor_map<>{};
  }
}

}  // namespace detail

/// `inputs<"images", "keep">(x, keep_prob)`: what a caller of the signature feeds.
template <fixed_string... Keys, node... N>
constexpr auto inputs(N... n) {
  return detail::make_map<Keys...>(n...);
}

/// `outputs<"scores">(probs)`: what a run of the signature fetches.
template <fixed_string... Keys, node... N>
constexpr auto outputs(N... n) {
  if constexpr (sizeof...(Keys) == sizeof...(N)) (void)(detail::output_has_value<Keys, N>() && ...);
  return detail::make_map<Keys...>(n...);
}

/// A SignatureDef: its key in the meta graph, its inputs and outputs, its method name.
template <fixed_string Name, class Inputs, class Outputs>
struct signature_def {
  static constexpr auto name = Name;
  using inputs = typename Inputs::entries;
  using outputs = typename Outputs::entries;
};

/// `signature<"serving_default">(inputs<...>(...), outputs<...>(...))`
/// (tf.saved_model.signature_def_utils.predict_signature_def).
template <fixed_string Name = "serving_default", class... I, class... O>
constexpr signature_def<Name, tensor_map<I...>, tensor_map<O...>> signature(tensor_map<I...>, tensor_map<O...>) {
  return {};
}

/// The signature_def_map of a meta graph.
template <class... Sigs>
struct signature_map_t {
  using signatures = mp::mp_list<Sigs...>;
};

template <fixed_string... N, class... I, class... O>
constexpr auto signature_map(signature_def<N, I, O>...) {
  constexpr std::size_t dup = core::detail::first_duplicate_of<N...>;
  if constexpr (dup < sizeof...(N)) {
    static_assert(signature_name_is_used_twice<mp::mp_at_c<mp::mp_list<signature_def<N, I, O>...>, dup>::name>::value,
                  "saved_model::signature_map(signatures...): every signature of a meta graph has its own name");
  }
  return signature_map_t<signature_def<N, I, O>...>{};
}

template <class S>
struct is_signature : std::false_type {};
template <fixed_string N, class I, class O>
struct is_signature<signature_def<N, I, O>> : std::true_type {};

// --- fingerprints -------------------------------------------------------------------------

namespace detail {

inline constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;
inline constexpr std::uint64_t fnv_prime = 0x100000001b3ull;

inline std::uint64_t fnv1a(std::uint64_t h, std::string_view s) noexcept {
  for (const unsigned char c : s) {
    h ^= c;
    h *= fnv_prime;
  }
  return h;
}
inline std::uint64_t fnv1a(std::uint64_t h, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xFF;
    h *= fnv_prime;
  }
  return h;
}

}  // namespace detail

/// "0123456789abcdef"
inline std::string fingerprint_string(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

/// The structural fingerprint of node N (and so of everything it depends on): the same in
/// translation units with and without <typeflow/tu_local.hpp>.
template <class N>
std::uint64_t node_fingerprint() {
  static const std::uint64_t h = detail::fnv1a(detail::fnv_offset, detail::default_linkage_spelling(typeid(N).name()));
  return h;
}

// --- descriptions: what an export writes and a loader compares ------------------------------

/// One input or output of a signature as data: key, the node's name ("x:0" as TensorFlow
/// names tensors), dtype and shape (-1 for a dynamic dim).
struct tensor_spec {
  std::string key;
  std::string name;
  typeflow::dtype dtype{};
  std::vector<std::int64_t> shape;

  /// "float32 [?, 784]"
  std::string description() const { return std::string(dtype_name(dtype)) + " " + shape_string(shape); }
  friend bool operator==(const tensor_spec&, const tensor_spec&) = default;
};

struct signature_description {
  std::string name;
  std::string method_name;
  std::vector<tensor_spec> inputs;
  std::vector<tensor_spec> outputs;
  std::string fingerprint;
};

/// A node of a meta graph's graph: its description and its fingerprint.
struct graph_node_description {
  node_description node;
  std::string fingerprint;
};

namespace detail {

/// The names a graph of these nodes gives them (automatic names numbered in this order).
template <class Order>
std::vector<std::string> node_names() {
  const auto g = graph::describe<Order>();
  std::vector<std::string> names;
  for (const auto& n : g.nodes) names.push_back(n.name);
  return names;
}

template <class E>
tensor_spec spec_of(const std::vector<graph_node_description>& graph, std::string_view signature) {
  using N = typename E::node;
  tensor_spec s;
  s.key = std::string(E::key.view());
  const auto fp = fingerprint_string(node_fingerprint<N>());
  for (const auto& n : graph)
    if (n.fingerprint == fp) s.name = n.node.name + ":0";
  if (s.name.empty())
    throw invalid_argument_error("Signature '" + std::string(signature) + "': the node of '" + s.key +
                                 "' is not in the meta graph's graph");
  s.dtype = dtype_of<value_type_of<N>>;
  for (auto d : shape_of<N>::dims) s.shape.push_back(static_cast<std::int64_t>(d));
  return s;
}

template <class Sig>
std::uint64_t signature_fingerprint() {
  std::uint64_t h = fnv1a(fnv_offset, Sig::name.view());
  mp::mp_for_each<typename Sig::inputs>([&](auto e) {
    using E = decltype(e);
    h = fnv1a(fnv1a(h, std::string_view("input:")), E::key.view());
    h = fnv1a(h, node_fingerprint<typename E::node>());
  });
  mp::mp_for_each<typename Sig::outputs>([&](auto e) {
    using E = decltype(e);
    h = fnv1a(fnv1a(h, std::string_view("output:")), E::key.view());
    h = fnv1a(h, node_fingerprint<typename E::node>());
  });
  return h;
}

}  // namespace detail

/// Signature Sig described within `graph` (which names its nodes); InvalidArgument when
/// one of its nodes is not in the graph.
template <class Sig>
signature_description describe_signature(const std::vector<graph_node_description>& graph) {
  signature_description d;
  d.name = std::string(Sig::name.view());
  d.method_name = std::string(predict_method_name);
  mp::mp_for_each<typename Sig::inputs>([&](auto e) { d.inputs.push_back(detail::spec_of<decltype(e)>(graph, d.name)); });
  mp::mp_for_each<typename Sig::outputs>([&](auto e) { d.outputs.push_back(detail::spec_of<decltype(e)>(graph, d.name)); });
  d.fingerprint = fingerprint_string(detail::signature_fingerprint<Sig>());
  return d;
}

/// Every node of the graph Order, described, with its fingerprint.
template <class Order>
std::vector<graph_node_description> describe_graph_nodes() {
  const auto g = graph::describe<Order>();
  std::vector<graph_node_description> out;
  out.reserve(g.nodes.size());
  std::size_t i = 0;
  mp::mp_for_each<mp::mp_transform<mp::mp_identity, Order>>([&](auto id) {
    using N = typename decltype(id)::type;
    out.push_back({g.nodes[i++], fingerprint_string(node_fingerprint<N>())});
  });
  return out;
}

/// The fingerprint of a whole graph: of its nodes' fingerprints, sorted (so the order in
/// which the graph was traversed does not matter).
inline std::string graph_fingerprint(const std::vector<graph_node_description>& nodes) {
  std::vector<std::string> fps;
  for (const auto& n : nodes) fps.push_back(n.fingerprint);
  std::sort(fps.begin(), fps.end());
  fps.erase(std::unique(fps.begin(), fps.end()), fps.end());
  std::uint64_t h = detail::fnv_offset;
  for (const auto& f : fps) h = detail::fnv1a(h, f);
  return fingerprint_string(h);
}

/// `name = Op(in1, in2) : float32 [2, 3]`, as graph_description::to_text spells a node.
inline std::string node_line(const node_description& n) {
  graph_description g;
  g.nodes.push_back(n);
  auto s = g.to_text();
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace typeflow::saved_model
