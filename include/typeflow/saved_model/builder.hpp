// typeflow/saved_model/builder.hpp — tf.saved_model.builder.SavedModelBuilder and
// tf.saved_model.simple_save.
//
// An export directory holds
//   saved_model.json             the description (description.hpp): format version, the
//                                variable manifest, per meta graph its tags, signatures,
//                                nodes with their fingerprints, graph fingerprint, assets
//   variables/variables          every variable of the session (the checkpoint format)
//   graphs/meta_graph_K.dot      the graph of meta graph K, for Graphviz
//   assets/NAME                  copies of the asset files
// It is built in a sibling temporary directory and renamed into place by save(), after
// every file and the directory itself are synced: a crash leaves either no export or a
// whole one, never a partial directory under the export name.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include <cstdio>

#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint_format.hpp"
#include "typeflow/io/file.hpp"
#include "typeflow/saved_model/description.hpp"
#include "typeflow/saved_model/signature.hpp"
#include "typeflow/train/saver.hpp"

namespace typeflow::saved_model {

/// In a diagnostic: a signature exported with a session uses a node of another graph.
template <fixed_string Signature, fixed_string Key>
struct signature_tensor_is_not_in_the_exported_graph {
  static constexpr bool value = false;
};

namespace detail {

inline bool directory_is_empty_or_absent(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return true;
  return std::filesystem::is_directory(dir, ec) && std::filesystem::is_empty(dir, ec);
}

inline std::string export_dir_exists_message(const std::filesystem::path& dir) {
  return "Export directory already exists, and isn't empty. Please choose a different export directory, or "
         "delete all the contents of the specified directory: " + dir.string();
}

template <class Session, class... V>
void write_variables(const Session& sess, const std::filesystem::path& file, mp::mp_list<V...>) {
  std::vector<std::string> uninitialized;
  std::vector<io::tensor_data_view> tensors;
  auto add = [&](auto id) {
    using W = typename decltype(id)::type;
    using M = train::detail::variable_meta<W>;
    const auto& slot = sess.template slot<W>();
    if (!slot.initialized) uninitialized.emplace_back(W::name.view());
    tensors.push_back({W::name.view(), dtype_of<typename M::T>, M::dims, train::detail::storage_data(slot.value)});
  };
  (add(mp::mp_identity<V>{}), ...);
  if (!uninitialized.empty()) {
    std::string names;
    for (const auto& n : uninitialized) names += (names.empty() ? "" : ", ") + n;
    throw failed_precondition_error("Attempting to use uninitialized value " + names + " (exporting a SavedModel)");
  }
  io::atomic_file_writer writer(file);
  io::write_checkpoint(writer.stream(), io::archive_format::portable_binary, std::nullopt, tensors);
  writer.commit();
}

inline std::string read_whole_file(const std::filesystem::path& p, const std::string& what) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw not_found_error(what + " " + p.string() + " cannot be opened");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace detail

/// tf.saved_model.builder.SavedModelBuilder: add_meta_graph_and_variables once, then
/// add_meta_graph for further tag sets, then save().
class builder {
 public:
  /// InvalidArgument (TensorFlow's message) when `export_dir` exists and is not empty.
  explicit builder(std::filesystem::path export_dir) : dir_(std::move(export_dir)) {
    if (!detail::directory_is_empty_or_absent(dir_)) throw already_exists_error(detail::export_dir_exists_message(dir_));
  }
  builder(const builder&) = delete;
  builder& operator=(const builder&) = delete;
  ~builder() {
    if (!staging_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(staging_, ec);
    }
  }

  /// Saves every variable of `sess` and adds the first meta graph: `tags`, its signatures
  /// (every input and output a node of sess's graph) and asset files (copied into assets/).
  template <class Session, class... Sigs>
  void add_meta_graph_and_variables(const Session& sess, const std::vector<std::string>& tags,
                                    signature_map_t<Sigs...> = {}, const std::vector<std::filesystem::path>& assets = {}) {
    static_assert((check_in<typename Session::graph_nodes, Sigs>() && ...));
    if (variables_saved_)
      throw failed_precondition_error(
          "Graph state including variables and assets has already been saved. Please invoke "
          "`add_meta_graph()` instead.");
    check_tags(tags);
    graph_ = describe_graph_nodes<typename Session::graph_nodes>();
    graph_text_ = describe_graph_text<typename Session::graph_nodes>();
    std::vector<signature_description> sigs{describe_signature<Sigs>(graph_)...};

    make_staging();
    std::filesystem::create_directories(staging_ / "variables");
    detail::write_variables(sess, staging_ / variables_filename, typename Session::variables{});
    description_.variables = train::manifest_of(sess);
    variables_saved_ = true;
    add(tags, std::move(sigs), assets);
  }

  /// Adds a meta graph with other tags and signatures over the graph saved by
  /// add_meta_graph_and_variables (whose nodes the signatures must use).
  template <class... Sigs>
  void add_meta_graph(const std::vector<std::string>& tags, signature_map_t<Sigs...> = {},
                      const std::vector<std::filesystem::path>& assets = {}) {
    if (!variables_saved_)
      throw failed_precondition_error(
          "Graph state including variables and assets has not been saved yet. Please invoke "
          "`add_meta_graph_and_variables()` first.");
    check_tags(tags);
    add(tags, std::vector<signature_description>{describe_signature<Sigs>(graph_)...}, assets);
  }

  /// Writes saved_model.json and moves the whole export into place; returns its path.
  std::filesystem::path save() {
    if (!variables_saved_)
      throw failed_precondition_error(
          "Graph state including variables and assets has not been saved yet. Please invoke "
          "`add_meta_graph_and_variables()` first.");
    if (saved_) throw failed_precondition_error("The SavedModel at " + dir_.string() + " has been saved already");
    io::write_file_atomically(staging_ / saved_model_filename, to_json_text(description_));
    io::sync_directory(staging_ / "graphs");
    if (std::filesystem::exists(staging_ / "assets")) io::sync_directory(staging_ / "assets");
    io::sync_directory(staging_);
    if (!detail::directory_is_empty_or_absent(dir_)) throw already_exists_error(detail::export_dir_exists_message(dir_));
    // rename(2) replaces an empty directory, so an empty export directory made beforehand is fine.
    if (std::rename(staging_.c_str(), dir_.c_str()) != 0)
      throw unknown_error("Cannot move the SavedModel into " + dir_.string() + ": " + io::detail::errno_text(errno));
    staging_.clear();
    saved_ = true;
    io::sync_directory(dir_.parent_path().empty() ? std::filesystem::path(".") : dir_.parent_path());
    return dir_;
  }

  const saved_model_description& description() const noexcept { return description_; }

 private:
  template <class Order, class S>
  static constexpr bool check_in() {
    bool ok = true;
    mp::mp_for_each<mp::mp_append<typename S::inputs, typename S::outputs>>([&](auto e) {
      using E = decltype(e);
      if constexpr (!contains_v<Order, typename E::node>) {
        static_assert(signature_tensor_is_not_in_the_exported_graph<S::name, E::key>::value,
                      "every input and output of an exported signature must be a node of the session's graph");
        ok = false;
      }
    });
    return ok || true;  // one error: the one above
  }

  template <class Order>
  static std::string describe_graph_text() {
    return graph::describe<Order>().to_dot();
  }

  void check_tags(const std::vector<std::string>& tags) const {
    for (const auto& t : tags)
      if (!io::detail::name_problem(t).empty())
        throw invalid_argument_error("Bad tag '" + t + "': a tag is a non-empty string of at most " +
                                     std::to_string(io::max_name_length) + " bytes without control characters");
    const std::set<std::string> wanted(tags.begin(), tags.end());
    for (const auto& m : description_.meta_graphs)
      if (std::set<std::string>(m.tags.begin(), m.tags.end()) == wanted)
        throw already_exists_error("A meta graph with tags " + m.tags_string() + " has been added already");
  }

  void make_staging() {
    const auto parent = dir_.parent_path().empty() ? std::filesystem::path(".") : dir_.parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(parent, ec))
      throw not_found_error("Parent directory of " + dir_.string() + " doesn't exist, can't export");
    staging_ = io::detail::temp_name_for(dir_.lexically_normal().string());
    if (!std::filesystem::create_directory(staging_, ec) || ec)
      throw unknown_error("Cannot create " + staging_.string() + ": " + ec.message());
    std::filesystem::create_directories(staging_ / "graphs");
  }

  void add(const std::vector<std::string>& tags, std::vector<signature_description> sigs,
           const std::vector<std::filesystem::path>& assets) {
    meta_graph_description m;
    m.tags = tags;
    m.signatures = std::move(sigs);
    m.nodes = graph_;
    m.graph_fingerprint = graph_fingerprint(graph_);
    m.graph_dot = "graphs/meta_graph_" + std::to_string(description_.meta_graphs.size()) + ".dot";
    for (const auto& a : assets) {
      const std::string name = a.filename().string();
      if (!detail::is_plain_file_name(name)) throw invalid_argument_error("Asset " + a.string() + " has no file name");
      std::error_code ec;
      if (!std::filesystem::is_regular_file(a, ec)) throw not_found_error("Asset file " + a.string() + " does not exist");
      const auto contents = detail::read_whole_file(a, "Asset file");
      const auto target = staging_ / "assets" / name;
      if (std::filesystem::exists(target, ec)) {
        if (detail::read_whole_file(target, "Asset file") != contents)
          throw already_exists_error("Two different assets are named " + name);
      } else {
        std::filesystem::create_directories(staging_ / "assets");
        io::write_file_atomically(target, contents);
      }
      if (std::find(m.assets.begin(), m.assets.end(), name) == m.assets.end()) m.assets.push_back(name);
    }
    io::write_file_atomically(staging_ / m.graph_dot, graph_text_);
    description_.meta_graphs.push_back(std::move(m));
  }

  std::filesystem::path dir_;
  std::filesystem::path staging_;
  bool variables_saved_ = false;
  bool saved_ = false;
  std::vector<graph_node_description> graph_;
  std::string graph_text_;
  saved_model_description description_;
};

/// tf.saved_model.simple_save: one meta graph tagged "serve" with the signature
/// "serving_default" from `inputs` to `outputs`, and every variable of `sess`.
template <class Session, class... I, class... O>
std::filesystem::path simple_save(const Session& sess, const std::filesystem::path& export_dir, tensor_map<I...> in,
                                  tensor_map<O...> out) {
  builder b(export_dir);
  b.add_meta_graph_and_variables(sess, {std::string(serving_tag)},
                                 signature_map(signature<"serving_default">(in, out)));
  return b.save();
}

}  // namespace typeflow::saved_model
