// typeflow/saved_model/loader.hpp — tf.saved_model.loader.load.
//
// `load(sess, {"serve"}, dir, signatures...)` restores a saved model's variables into a
// session whose graph the export holds, and returns a loaded_model: the meta graph's
// description, its assets, and a servable that runs the signatures by name. Before any
// variable changes it checks, and reports precisely what differs:
//   - the description file (format, newer major version refused, every field);
//   - a meta graph with exactly these tags;
//   - the session's graph: every node of it (by structural fingerprint, signature.hpp) is a
//     node of the meta graph's graph; the first that is not is named, with the export's
//     node of that name when there is one;
//   - each signature the loading program declares: present, and the same (keys, nodes);
//   - the variables: each of the session's is in the export with its dtype and shape;
//   - the assets the meta graph lists are present.
// A file of the export that is not a regular file (a directory or a FIFO where
// saved_model.json or variables/variables should be) is FailedPrecondition at once.
// The restore itself is the saver's, all or nothing.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "typeflow/core/errors.hpp"
#include "typeflow/io/file.hpp"
#include "typeflow/saved_model/description.hpp"
#include "typeflow/saved_model/servable.hpp"
#include "typeflow/saved_model/signature.hpp"
#include "typeflow/train/saver.hpp"

namespace typeflow::saved_model {

/// Whether `dir` holds a saved model (tf.saved_model.contains_saved_model).
inline bool contains_saved_model(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / saved_model_filename, ec);
}

/// Reads and checks dir/saved_model.json (NotFound when absent, DataLoss when malformed).
inline saved_model_description read_description(const std::filesystem::path& dir) {
  const auto file = dir / saved_model_filename;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw not_found_error("SavedModel file does not exist at: " + file.string());
  // Not a regular file (a directory, a FIFO): FailedPrecondition naming it, without blocking.
  struct ::stat st {};
  io::fd_input_buffer buffer(io::open_regular_file(file, "SavedModel file", &st));
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_description_bytes)
    throw data_loss_error("SavedModel file " + file.string() + " is " + std::to_string(size) + " bytes, more than the " +
                          std::to_string(max_description_bytes) + " a description may have");
  std::string text(static_cast<std::size_t>(size), '\0');
  if (static_cast<std::uint64_t>(buffer.sgetn(text.data(), static_cast<std::streamsize>(size))) != size)
    throw data_loss_error("SavedModel file " + file.string() + " ended early");
  return parse_description(text, file.string());
}

/// A loaded meta graph: its description, where its assets are, and a servable over the
/// session the variables were restored into.
template <class Session, class... Sigs>
class loaded_model : public servable<Session, Sigs...> {
 public:
  loaded_model(const Session& sess, meta_graph_description meta, std::filesystem::path dir, Sigs... sigs)
      : servable<Session, Sigs...>(sess, sigs...), meta_(std::move(meta)), dir_(std::move(dir)) {}

  /// The meta graph's description (tags, signatures as exported, nodes, fingerprint).
  const meta_graph_description& meta_graph() const noexcept { return meta_; }
  const std::filesystem::path& export_dir() const noexcept { return dir_; }
  /// Paths of the meta graph's assets in the export directory.
  std::vector<std::filesystem::path> asset_paths() const {
    std::vector<std::filesystem::path> out;
    for (const auto& a : meta_.assets) out.push_back(dir_ / "assets" / a);
    return out;
  }

 private:
  meta_graph_description meta_;
  std::filesystem::path dir_;
};

namespace detail {

inline const meta_graph_description& find_meta_graph(const saved_model_description& d,
                                                     const std::vector<std::string>& tags,
                                                     const std::filesystem::path& dir) {
  const std::set<std::string> wanted(tags.begin(), tags.end());
  std::string available;
  for (const auto& m : d.meta_graphs) {
    if (std::set<std::string>(m.tags.begin(), m.tags.end()) == wanted) return m;
    available += (available.empty() ? "" : ", ") + m.tags_string();
  }
  meta_graph_description asked;
  asked.tags = tags;
  throw not_found_error("MetaGraphDef associated with tags " + asked.tags_string() +
                        " could not be found in SavedModel " + dir.string() + "; available tag-sets: " +
                        (available.empty() ? "(none)" : available));
}

inline std::string join(const std::vector<std::string>& v, std::string_view sep = ", ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : std::string(sep)) + x;
  return s;
}

/// What differs between our node and the SavedModel's node of the same name: the fields
/// that differ, each as here / in the SavedModel; when every described field agrees, the
/// inputs that are new constants (another value), or else the attribute the description
/// does not show (an axis, a permutation, a literal: the node's type), by fingerprint.
inline std::string node_difference(const graph_node_description& ours, const graph_node_description& theirs,
                                   const std::vector<std::string>& new_constant_inputs) {
  const auto& a = ours.node;
  const auto& b = theirs.node;
  std::vector<std::string> fields;
  auto field = [&](const char* what, const std::string& here, const std::string& there) {
    if (here != there)
      fields.push_back(std::string(what) + " " + (here.empty() ? "(none)" : here) + " here, " +
                       (there.empty() ? "(none)" : there) + " in the SavedModel");
  };
  field("op", a.op, b.op);
  field("dtype", a.dtype, b.dtype);
  field("shape", a.shape, b.shape);
  field("inputs", "(" + join(a.inputs) + ")", "(" + join(b.inputs) + ")");
  field("writes", join(a.writes), join(b.writes));
  if (!fields.empty())
    return "the SavedModel's node of that name is " + node_line(b) + ": they differ in " + join(fields, "; ");
  std::string same = "the SavedModel's node of that name has the same op, dtype, shape and inputs";
  if (!new_constant_inputs.empty())
    return same + ", but its input " + join(new_constant_inputs) + " is a constant of another value there";
  return same + ", and differs in an attribute the description does not show (an axis, a permutation, a literal "
                "value: the node's type); fingerprint " +
         ours.fingerprint + " here, " + theirs.fingerprint + " in the SavedModel";
}

inline void check_graph(const std::vector<graph_node_description>& ours, const meta_graph_description& m) {
  const std::set<std::string> theirs = [&] {
    std::set<std::string> s;
    for (const auto& n : m.nodes) s.insert(n.fingerprint);
    return s;
  }();
  // In topological order, the first node not in the export is where the graphs part; an
  // anonymous constant says little on its own, so its first new consumer is named with it.
  std::vector<std::string> new_constants;
  for (const auto& n : ours) {
    if (theirs.count(n.fingerprint)) continue;
    if (n.node.op == "Const" && n.node.inputs.empty()) {
      new_constants.push_back(n.node.name);
      continue;
    }
    std::string msg = "The session's graph differs from the SavedModel's meta graph " + m.tags_string() + ": node " +
                      node_line(n.node) + " is not in it";
    std::vector<std::string> constants;
    for (const auto& in : n.node.inputs)
      if (std::find(new_constants.begin(), new_constants.end(), in) != new_constants.end()) constants.push_back(in);
    if (!constants.empty()) msg += " (nor its input " + join(constants) + ")";
    for (const auto& t : m.nodes)
      if (t.node.name == n.node.name) msg += "; " + node_difference(n, t, constants);
    throw invalid_argument_error(msg);
  }
  if (!new_constants.empty())
    throw invalid_argument_error("The session's graph differs from the SavedModel's meta graph " + m.tags_string() +
                                 ": constant " + new_constants.front() + " is not in it");
}

inline std::string spec_text(const tensor_spec& t) { return t.name + ", " + t.description(); }

/// The fingerprint of the node of tensor `name` ("x:0") among `nodes`, or "".
inline std::string fingerprint_of_tensor(const std::vector<graph_node_description>& nodes, const std::string& name) {
  for (const auto& n : nodes)
    if (n.node.name + ":0" == name) return n.fingerprint;
  return {};
}

/// What differs between two lists of a signature's tensors (`kind`: "input", "output"):
/// keys on one side only, and for a key on both sides its tensor's name, dtype and shape,
/// or else its node (same name, another node).
inline void spec_differences(std::vector<std::string>& out, const char* kind, const std::vector<tensor_spec>& ours,
                             const std::vector<tensor_spec>& theirs, const std::vector<graph_node_description>& graph,
                             const meta_graph_description& m) {
  for (const auto& a : ours) {
    const auto b = std::find_if(theirs.begin(), theirs.end(), [&](const auto& t) { return t.key == a.key; });
    if (b == theirs.end()) {
      out.push_back(std::string(kind) + " '" + a.key + "' (" + spec_text(a) + ") is only here");
    } else if (spec_text(a) != spec_text(*b)) {
      out.push_back(std::string(kind) + " '" + a.key + "' is " + spec_text(a) + " here, " + spec_text(*b) +
                    " in the SavedModel");
    } else if (const auto fa = fingerprint_of_tensor(graph, a.name), fb = fingerprint_of_tensor(m.nodes, b->name);
               fa != fb) {
      out.push_back(std::string(kind) + " '" + a.key + "' is " + spec_text(a) +
                    " on both sides, but another node of that name (fingerprint " + (fa.empty() ? "?" : fa) +
                    " here, " + (fb.empty() ? "?" : fb) + " in the SavedModel)");
    }
  }
  for (const auto& b : theirs)
    if (std::none_of(ours.begin(), ours.end(), [&](const auto& t) { return t.key == b.key; }))
      out.push_back(std::string(kind) + " '" + b.key + "' (" + spec_text(b) + ") is only in the SavedModel's");
}

inline void check_signature(const signature_description& ours, const std::vector<graph_node_description>& graph,
                            const meta_graph_description& m) {
  const auto* theirs = m.find_signature(ours.name);
  if (!theirs) {
    std::string names;
    for (const auto& s : m.signatures) names += (names.empty() ? "" : ", ") + s.name;
    throw not_found_error("Signature '" + ours.name + "' not found in the SavedModel's meta graph " + m.tags_string() +
                          "; its signatures are: " + (names.empty() ? "(none)" : names));
  }
  if (theirs->fingerprint == ours.fingerprint) return;
  std::vector<std::string> what;
  spec_differences(what, "input", ours.inputs, theirs->inputs, graph, m);
  spec_differences(what, "output", ours.outputs, theirs->outputs, graph, m);
  if (ours.method_name != theirs->method_name)
    what.push_back("method name " + ours.method_name + " here, " + theirs->method_name + " in the SavedModel");
  if (what.empty())
    what.push_back("the same keys and tensors, in another order (fingerprint " + ours.fingerprint + " here, " +
                   theirs->fingerprint + " in the SavedModel)");
  throw invalid_argument_error("Signature '" + ours.name + "' differs from the SavedModel's: " + join(what, "; "));
}

}  // namespace detail

/// tf.saved_model.loader.load: restores the variables of the meta graph tagged `tags` in
/// `export_dir` into `sess`, after checking everything listed at the top of this header;
/// on any error nothing in `sess` changes. The signatures declared here are checked
/// against the export's and can be run through the returned model.
template <class Session, class... Sigs>
loaded_model<Session, Sigs...> load(Session& sess, const std::vector<std::string>& tags,
                                    const std::filesystem::path& export_dir, Sigs... sigs) {
  const auto description = read_description(export_dir);
  const auto& meta = detail::find_meta_graph(description, tags, export_dir);

  const auto ours = describe_graph_nodes<typename Session::graph_nodes>();
  detail::check_graph(ours, meta);
  (detail::check_signature(describe_signature<Sigs>(ours), ours, meta), ...);

  const auto variables = export_dir / variables_filename;
  // In file order, as the description lists them. DataLoss / NotFound naming the file, and
  // FailedPrecondition when it is not a regular file (a directory, a FIFO).
  const auto in_file = io::list_tensors(variables);
  if (in_file != description.variables)
    throw data_loss_error("SavedModel " + export_dir.string() + ": the variables file and saved_model.json list "
                          "different variables");
  const auto diff = train::diff_manifests(train::manifest_of(sess), in_file);
  if (!diff.missing.empty() || !diff.shape_mismatches.empty() || !diff.dtype_mismatches.empty()) {
    std::string what;
    for (const auto& m : diff.missing) what += "; missing " + m;
    for (const auto& s : diff.shape_mismatches) what += "; shape of " + s;
    for (const auto& d : diff.dtype_mismatches) what += "; dtype of " + d;
    throw invalid_argument_error("The session's variables differ from the SavedModel's " + export_dir.string() + what);
  }
  for (const auto& a : meta.assets) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(export_dir / "assets" / a, ec))
      throw not_found_error("Asset " + a + " of the SavedModel " + export_dir.string() + " is missing");
  }

  train::saver<>{}.restore(sess, variables);
  return loaded_model<Session, Sigs...>(sess, meta, export_dir, sigs...);
}

}  // namespace typeflow::saved_model
