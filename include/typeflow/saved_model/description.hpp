// typeflow/saved_model/description.hpp — saved_model.json: what an export directory holds,
// for people to read and for loaders to check.
//
//   {
//     "format": "typeflow saved model", "version": [1, 0],
//     "variables": {"file": "variables/variables", "tensors": [{"name": "w", "dtype": "float32", "shape": [4, 3]}]},
//     "meta_graphs": [{
//       "tags": ["serve"], "graph_fingerprint": "…", "graph_dot": "graphs/meta_graph_0.dot",
//       "assets": ["vocab.txt"],
//       "signatures": [{"name": "serving_default", "method_name": "tensorflow/serving/predict",
//                       "fingerprint": "…", "inputs": [{"key": "images", "name": "x:0", "dtype": "float32",
//                       "shape": [-1, 784]}], "outputs": […]}],
//       "nodes": [{"name": "x", "op": "Placeholder", "dtype": "float32", "shape": "[?, 784]",
//                  "inputs": [], "writes": [], "fingerprint": "…"}]
//     }]
//   }
//
// The reader trusts nothing in the file: every field's kind is checked, names follow the
// checkpoint rules (no control characters, bounded length), asset names are plain file
// names, and any problem is a DataLoss error naming the file and the field.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "typeflow/core/detail/find_named.hpp"
#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint_format.hpp"
#include "typeflow/io/format_version.hpp"
#include "typeflow/io/json.hpp"
#include "typeflow/saved_model/signature.hpp"

namespace typeflow::saved_model {

/// Largest saved_model.json read.
inline constexpr std::uint64_t max_description_bytes = std::uint64_t{64} << 20;

/// A MetaGraphDef as data.
struct meta_graph_description {
  std::vector<std::string> tags;
  std::vector<signature_description> signatures;
  std::vector<graph_node_description> nodes;
  std::string graph_fingerprint;
  std::string graph_dot;            // file name relative to the export directory
  std::vector<std::string> assets;  // file names in assets/

  /// "{serve, gpu}"
  std::string tags_string() const {
    std::string s = "{";
    for (std::size_t i = 0; i < tags.size(); ++i) s += (i ? ", " : "") + tags[i];
    return s + "}";
  }
  const signature_description* find_signature(std::string_view name) const noexcept {
    return core::detail::find_named(signatures, name);
  }
};

/// The version written; a reader reads its major version and older (io/format_version.hpp).
inline constexpr std::uint32_t saved_model_format_major = 1;
inline constexpr std::uint32_t saved_model_format_minor = 0;
/// The description's "format" member, which tells it from any other JSON file.
inline constexpr std::string_view saved_model_format_name = "typeflow saved model";
/// The files of an export directory, as TensorFlow lays them out (saved_model.pb there).
inline constexpr std::string_view saved_model_filename = "saved_model.json";
inline constexpr std::string_view variables_filename = "variables/variables";

/// The whole of saved_model.json.
struct saved_model_description {
  std::uint32_t format_major = saved_model_format_major;
  std::uint32_t format_minor = saved_model_format_minor;
  std::string variables_file = std::string(variables_filename);
  std::vector<io::tensor_info> variables;
  std::vector<meta_graph_description> meta_graphs;
};

namespace detail {

inline io::json to_json(const tensor_spec& t) {
  io::json::array shape;
  for (auto d : t.shape) shape.emplace_back(d);
  return io::json::object{{"key", t.key}, {"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"shape", shape}};
}

inline io::json to_json(const signature_description& s) {
  io::json::array in, out;
  for (const auto& t : s.inputs) in.push_back(to_json(t));
  for (const auto& t : s.outputs) out.push_back(to_json(t));
  return io::json::object{{"name", s.name}, {"method_name", s.method_name}, {"fingerprint", s.fingerprint},
                          {"inputs", in}, {"outputs", out}};
}

inline io::json strings(const std::vector<std::string>& v) {
  io::json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

inline io::json to_json(const meta_graph_description& m) {
  io::json::array sigs, nodes;
  for (const auto& s : m.signatures) sigs.push_back(to_json(s));
  for (const auto& n : m.nodes)
    nodes.push_back(io::json::object{{"name", n.node.name}, {"op", n.node.op}, {"dtype", n.node.dtype},
                                     {"shape", n.node.shape}, {"inputs", strings(n.node.inputs)},
                                     {"writes", strings(n.node.writes)}, {"fingerprint", n.fingerprint}});
  return io::json::object{{"tags", strings(m.tags)}, {"graph_fingerprint", m.graph_fingerprint},
                          {"graph_dot", m.graph_dot}, {"assets", strings(m.assets)},
                          {"signatures", sigs}, {"nodes", nodes}};
}

/// Reads fields of a JSON value, naming the file and the field's path in errors.
class reader {
 public:
  explicit reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& why) const {
    throw data_loss_error("Bad SavedModel description " + file_ + ": " + field + " " + why);
  }
  const io::json& member(const io::json& obj, std::string_view key, const std::string& field) const {
    if (!obj.is_object()) fail(field, "is not an object");
    const auto* v = obj.find(key);
    if (!v) fail(field + "." + std::string(key), "is missing");
    return *v;
  }
  std::string string(const io::json& obj, std::string_view key, const std::string& field, bool is_name = false) const {
    const auto& v = member(obj, key, field);
    const std::string f = field + "." + std::string(key);
    if (!v.is_string()) fail(f, "is not a string");
    check_text(v.as_string(), f, is_name);
    return v.as_string();
  }
  const io::json::array& array(const io::json& obj, std::string_view key, const std::string& field) const {
    const auto& v = member(obj, key, field);
    if (!v.is_array()) fail(field + "." + std::string(key), "is not an array");
    return v.as_array();
  }
  std::vector<std::string> strings(const io::json& obj, std::string_view key, const std::string& field,
                                   bool are_names = false) const {
    std::vector<std::string> out;
    const auto& a = array(obj, key, field);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string f = field + "." + std::string(key) + "[" + std::to_string(i) + "]";
      if (!a[i].is_string()) fail(f, "is not a string");
      check_text(a[i].as_string(), f, are_names);
      out.push_back(a[i].as_string());
    }
    return out;
  }
  typeflow::dtype dtype(const io::json& obj, std::string_view key, const std::string& field) const {
    const auto name = string(obj, key, field);
    const auto d = io::detail::dtype_from_name(name);
    if (!d) fail(field + "." + std::string(key), "names no dtype ('" + name + "')");
    return *d;
  }

 private:
  void check_text(const std::string& s, const std::string& field, bool is_name) const {
    if (is_name) {
      if (auto p = io::detail::name_problem(s); !p.empty()) fail(field, p);
    } else if (s.size() > io::max_name_length * 64) {
      fail(field, "is too long");
    }
  }
  std::string file_;
};

inline tensor_spec spec_from_json(const reader& r, const io::json& j, const std::string& field) {
  tensor_spec t;
  t.key = r.string(j, "key", field, true);
  t.name = r.string(j, "name", field, true);
  t.dtype = r.dtype(j, "dtype", field);
  const auto& shape = r.array(j, "shape", field);
  if (shape.size() > io::max_rank) r.fail(field + ".shape", "has a rank above " + std::to_string(io::max_rank));
  for (const auto& d : shape) {
    if (!d.is_int() || d.as_int() < -1) r.fail(field + ".shape", "holds a dimension that is not -1 or a size");
    t.shape.push_back(d.as_int());
  }
  return t;
}

/// A plain file name: no directory part, not "." or "..", no control characters.
inline bool is_plain_file_name(const std::string& s) {
  if (s.empty() || s == "." || s == ".." || s.size() > 255) return false;
  for (const unsigned char c : s)
    if (c == '/' || c == '\\' || c < 0x20 || c == 0x7F) return false;
  return true;
}

}  // namespace detail

/// saved_model.json's text.
inline std::string to_json_text(const saved_model_description& d) {
  io::json::array tensors, metas;
  for (const auto& t : d.variables) {
    io::json::array shape;
    for (auto x : t.shape) shape.emplace_back(static_cast<std::int64_t>(x));
    tensors.push_back(io::json::object{{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"shape", shape}});
  }
  for (const auto& m : d.meta_graphs) metas.push_back(detail::to_json(m));
  const io::json root = io::json::object{
      {"format", saved_model_format_name},
      {"version", io::json::array{static_cast<std::int64_t>(d.format_major), static_cast<std::int64_t>(d.format_minor)}},
      {"variables", io::json::object{{"file", d.variables_file}, {"tensors", tensors}}},
      {"meta_graphs", metas}};
  return root.dump();
}

/// Parses saved_model.json's text; `file` is named in errors (DataLoss for anything
/// malformed, FailedPrecondition for a newer major format version).
inline saved_model_description parse_description(std::string_view text, const std::string& file) {
  const io::json root = io::parse_json(text, file);
  const detail::reader r(file);
  saved_model_description d;
  if (r.string(root, "format", "") != saved_model_format_name) r.fail("format", "is not \"typeflow saved model\"");
  const auto& version = r.array(root, "version", "");
  if (version.size() != 2 || !version[0].is_int() || !version[1].is_int() || version[0].as_int() < 0 ||
      version[1].as_int() < 0 || version[0].as_int() > 0xFFFF || version[1].as_int() > 0xFFFF)
    r.fail("version", "is not [major, minor]");
  d.format_major = static_cast<std::uint32_t>(version[0].as_int());
  d.format_minor = static_cast<std::uint32_t>(version[1].as_int());
  io::refuse_newer_major_version<failed_precondition_error>("SavedModel", file, d.format_major, d.format_minor,
                                                            saved_model_format_major);

  const auto& vars = r.member(root, "variables", "");
  d.variables_file = r.string(vars, "file", "variables");
  if (d.variables_file != variables_filename) r.fail("variables.file", "is not \"variables/variables\"");
  const auto& tensors = r.array(vars, "tensors", "variables");
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const std::string f = "variables.tensors[" + std::to_string(i) + "]";
    io::tensor_info t;
    t.name = r.string(tensors[i], "name", f, true);
    t.dtype = r.dtype(tensors[i], "dtype", f);
    for (const auto& x : r.array(tensors[i], "shape", f)) {
      if (!x.is_int() || x.as_int() < 0) r.fail(f + ".shape", "holds a dimension that is not a size");
      t.shape.push_back(static_cast<std::uint64_t>(x.as_int()));
    }
    if (t.shape.size() > io::max_rank) r.fail(f + ".shape", "has a rank above " + std::to_string(io::max_rank));
    d.variables.push_back(std::move(t));
  }

  const auto& metas = r.array(root, "meta_graphs", "");
  for (std::size_t i = 0; i < metas.size(); ++i) {
    const std::string f = "meta_graphs[" + std::to_string(i) + "]";
    const auto& mj = metas[i];
    meta_graph_description m;
    m.tags = r.strings(mj, "tags", f, true);
    m.graph_fingerprint = r.string(mj, "graph_fingerprint", f);
    m.graph_dot = r.string(mj, "graph_dot", f);
    m.assets = r.strings(mj, "assets", f);
    for (const auto& a : m.assets)
      if (!detail::is_plain_file_name(a)) r.fail(f + ".assets", "holds '" + a + "', which is not a plain file name");
    const auto& sigs = r.array(mj, "signatures", f);
    for (std::size_t k = 0; k < sigs.size(); ++k) {
      const std::string sf = f + ".signatures[" + std::to_string(k) + "]";
      signature_description s;
      s.name = r.string(sigs[k], "name", sf, true);
      s.method_name = r.string(sigs[k], "method_name", sf);
      s.fingerprint = r.string(sigs[k], "fingerprint", sf);
      const auto& in = r.array(sigs[k], "inputs", sf);
      for (std::size_t j = 0; j < in.size(); ++j)
        s.inputs.push_back(detail::spec_from_json(r, in[j], sf + ".inputs[" + std::to_string(j) + "]"));
      const auto& out = r.array(sigs[k], "outputs", sf);
      for (std::size_t j = 0; j < out.size(); ++j)
        s.outputs.push_back(detail::spec_from_json(r, out[j], sf + ".outputs[" + std::to_string(j) + "]"));
      m.signatures.push_back(std::move(s));
    }
    const auto& nodes = r.array(mj, "nodes", f);
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const std::string nf = f + ".nodes[" + std::to_string(k) + "]";
      graph_node_description n;
      n.node.name = r.string(nodes[k], "name", nf, true);
      n.node.op = r.string(nodes[k], "op", nf);
      n.node.dtype = r.string(nodes[k], "dtype", nf);
      if (!n.node.dtype.empty() && !io::detail::dtype_from_name(n.node.dtype))
        r.fail(nf + ".dtype", "names no dtype ('" + n.node.dtype + "')");
      n.node.shape = r.string(nodes[k], "shape", nf);
      n.node.inputs = r.strings(nodes[k], "inputs", nf, true);
      n.node.writes = r.strings(nodes[k], "writes", nf, true);
      n.fingerprint = r.string(nodes[k], "fingerprint", nf);
      m.nodes.push_back(std::move(n));
    }
    d.meta_graphs.push_back(std::move(m));
  }
  return d;
}

}  // namespace typeflow::saved_model
