// typeflow/train/saver.hpp — tf.train.Saver: saving and restoring a session's variables.
//
//   train::saver saver{};                          // every variable of the session
//   train::saver some(w, b);                       // these variables, under their names
//   train::saver renamed(train::saved_as<"a">(d)); // d, under the checkpoint key "a"
//   train::saver opts({.max_to_keep = 3}, w, b);   // with options
//   train::saver with_data(data::make_saveable_from_iterator(it), w, b);   // and its position
//   train::saver everything(train::all_variables_and(data::make_saveable_from_iterator(it)));
//
//   auto path = saver.save(sess, "/tmp/run/model.ckpt", step);  // "/tmp/run/model.ckpt-<step>"
//   saver.restore(sess, *train::latest_checkpoint("/tmp/run"));
//
// Keys known at compile time must be unique in one saver: a duplicate does not compile.
// save() writes one archive atomically and durably (io/file.hpp), then the directory's
// "checkpoint" state file, then deletes the checkpoints beyond max_to_keep, the ones of a
// previous run of the program included (the saver rebuilds its list from the state file and
// a scan of the directory when it first saves there, unless set_last_checkpoints or
// recover_last_checkpoints gave it one). If the state file cannot be written, the save
// throws, saying that its checkpoint is complete but unlisted, and the checkpoints taken off
// the list are deleted after the next successful state write instead (as TensorFlow). One
// saver per directory at a time.
//
// restore() is all-or-nothing: it checks every key, dtype and shape, reads and verifies
// every tensor it needs, and only then writes the session's variables; any failure leaves
// the session unchanged and lists every problem. Over initialized variables it maps the
// file, verifies the tensors where they lie and copies them once (saver_options::map_file;
// a file that cannot be mapped is read into a staging buffer). With a mapping, another
// process truncating the file during the restore raises SIGBUS, and one writing into it is
// noticed by the file's times: the restore then fails with DataLoss and its variables are
// left uninitialized (docs/reference/checkpoints.md, "Restoring over initialized variables").
//
// A saveable (train/saveable.hpp; a dataset iterator's position) is written into the same
// archive under the keys "<its name>_STATE/...", and restored in the same transaction: its
// state is read, verified and checked with the variables, and committed only with them.
//
// The saver is split by concern: train/saver_entries.hpp decides at compile time which
// variables go under which keys and makes the run-time table of them; the work on that table
// (writing, reading, verifying, committing) is io/checkpoint/transaction.hpp, compiled once
// and not per saver type; the list of kept checkpoints and the state file are
// train/checkpoint_state.hpp (checkpoint_retention).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/io/checkpoint/transaction.hpp"
#include "typeflow/io/checkpoint_format.hpp"
#include "typeflow/io/file.hpp"
#include "typeflow/io/manifest.hpp"
#include "typeflow/train/checkpoint_state.hpp"
#include "typeflow/train/saver_entries.hpp"
#include "typeflow/train/snapshot.hpp"

namespace typeflow::train {

using io::archive_format;

/// The manifest of the checkpoint at `path`: (name, shape, dtype) of every tensor, sorted
/// by name as tf.train.list_variables sorts them (io::list_tensors gives the file order).
/// Reads the header only.
inline std::vector<variable_info> list_variables(const std::filesystem::path& path) {
  auto out = io::list_tensors(path);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

/// Options of a saver (tf.train.Saver's keyword arguments).
struct saver_options {
  /// Checkpoints kept; older ones are deleted. 0 or nullopt (TensorFlow's None) keeps
  /// every checkpoint, and the saver then lists none (last_checkpoints() is empty, the
  /// state file lists the latest only), as TensorFlow.
  std::optional<std::size_t> max_to_keep = 5;
  /// Besides the newest max_to_keep, keep one checkpoint per this many hours.
  double keep_checkpoint_every_n_hours = 10000.0;
  /// Restore a tensor of another shape when the element counts agree.
  bool reshape = false;
  /// The archive written (restore reads both).
  archive_format format = archive_format::portable_binary;
  /// The name of the state file.
  std::string latest_filename = "checkpoint";
  /// Seconds since the epoch; the system clock when empty (tests pass their own). Read
  /// when the saver is made (the first keep_checkpoint_every_n_hours period starts then)
  /// and at each save (the checkpoint's timestamp).
  std::function<double()> clock{};
  /// Restore over initialized variables through a read-only mapping of the checkpoint
  /// (verified where it lies, then copied once) rather than read(2) into a staging buffer.
  /// A process that truncates the file during such a restore kills this one with SIGBUS;
  /// false reads instead. See docs/reference/checkpoints.md, "Restoring over initialized
  /// variables".
  bool map_file = true;
};

/// What differs between the variables a saver (or a session) expects and a checkpoint:
/// missing, extra, shape and dtype differences.
using io::checkpoint_diff;
/// Compares an expected manifest with a checkpoint's.
using io::diff_manifests;
/// A manifest as text ("name<TAB>dtype<TAB>[dims]" per line), for tools/inspect_checkpoint --diff.
using io::format_manifest;
using io::parse_manifest;

namespace detail {

template <class... A>
struct guided_entries {
  using type = entries_t<A...>;
};
template <class... A>
struct guided_entries<saver_options, A...> {
  using type = entries_t<A...>;
};

inline retention_policy retention_of(const saver_options& o) {
  return {o.max_to_keep, o.keep_checkpoint_every_n_hours, o.latest_filename, o.clock};
}

/// save() on the run-time table: checks, takes over the directory's checkpoints on the
/// first save there, writes the checkpoint, then the state file and the rotation.
inline std::string save_variables(std::span<const io::saved_variable> vars, const saver_options& options,
                                  checkpoint_retention& retention, const std::filesystem::path& prefix,
                                  std::optional<std::int64_t> global_step) {
  const auto path = io::checkpoint_path(prefix, global_step);
  const auto dir = io::check_save(vars, path);
  retention.recover(dir, prefix.filename().string());
  io::write_variables(vars, path, options.format, global_step);
  retention.after_save(dir, path);
  return path.string();
}

}  // namespace detail

/// The expected manifest of a saver over Entries used with Session: its variables (the
/// tensors of a saveable depend on its state, not on types).
template <class Entries, class Session>
std::vector<variable_info> expected_manifest() {
  std::vector<variable_info> out;
  mp::mp_for_each<mp::mp_transform<mp::mp_identity, saver_variable_entries_t<Entries, Session>>>([&](auto id) {
    using E = typename decltype(id)::type;
    out.push_back(detail::variable_meta<typename E::variable>::info(E::key.view()));
  });
  return out;
}

/// The manifest of a session's variables, under their names (write it to a file with
/// format_manifest for tools/inspect_checkpoint --diff).
template <class Session>
std::vector<variable_info> manifest_of(const Session&) {
  return expected_manifest<all_variables, Session>();
}

/// How a checkpoint differs from a session's variables: missing, extra, shape and dtype.
template <class Session>
checkpoint_diff diff_checkpoint(const Session& sess, const std::filesystem::path& path) {
  return diff_manifests(manifest_of(sess), io::list_tensors(path));
}

/// tf.train.Saver over Entries: `all_variables` (the default) or an mp_list of saved_as_t.
template <class Entries = all_variables>
class saver {
  // One error, then stop: the check reports a duplicate itself (naming the key).
  static_assert(detail::keys_are_unique<Entries>() || true);

 public:
  /// A saver over every variable of the session it is used with.
  saver() requires std::is_same_v<Entries, all_variables> = default;
  explicit saver(saver_options options) requires std::is_same_v<Entries, all_variables>
      : options_(std::move(options)) {}
  /// A saver over these variables (and saved_as / var_map entries).
  template <class... A>
    requires(sizeof...(A) > 0)
  explicit saver(A...) {}
  template <class... A>
    requires(sizeof...(A) > 0)
  saver(saver_options options, A...) : options_(std::move(options)) {}

  const saver_options& options() const noexcept { return options_; }

  /// The checkpoints this saver keeps, oldest first (tf.train.Saver.last_checkpoints).
  /// Empty when max_to_keep is 0 or nullopt.
  std::vector<std::string> last_checkpoints() const {
    std::vector<std::string> out;
    for (auto& c : retention_.kept_with_time()) out.push_back(std::move(c.first));
    return out;
  }

  /// The checkpoints this saver kept, oldest first, with the time each was saved (seconds
  /// since the epoch).
  std::vector<std::pair<std::string, double>> last_checkpoints_with_time() const { return retention_.kept_with_time(); }

  /// tf.train.Saver.set_last_checkpoints: the list of kept checkpoints, oldest first. Their
  /// timestamps are +infinity (as TensorFlow), so that keep_checkpoint_every_n_hours
  /// preserves rather than deletes them when they rotate out. The saver then takes this
  /// list as it is: its next save does not take over the directory's other checkpoints.
  void set_last_checkpoints(const std::vector<std::string>& paths) {
    std::vector<std::pair<std::string, double>> with_time;
    for (const auto& p : paths) with_time.emplace_back(p, std::numeric_limits<double>::infinity());
    set_last_checkpoints_with_time(with_time);
  }

  /// tf.train.Saver.set_last_checkpoints_with_time: the kept checkpoints, oldest first,
  /// with the time each was saved; as set_last_checkpoints otherwise.
  void set_last_checkpoints_with_time(const std::vector<std::pair<std::string, double>>& paths) {
    retention_.set_kept(paths);
  }

  /// Writes the saver's variables to `prefix`-`global_step` (or `prefix` without a step),
  /// updates the state file and deletes checkpoints beyond max_to_keep; returns the path.
  template <class Session>
  std::string save(const Session& sess, const std::filesystem::path& prefix,
                   std::optional<std::int64_t> global_step = std::nullopt) {
    using entries = saver_entries_t<Entries, Session>;
    if constexpr (!detail::check_held<Session, entries>::value) {
      return {};
    } else {
      auto vars = detail::saved_variables<saver_variable_entries_t<Entries, Session>>(sess);
      using saveables = saver_saveables_t<Entries, Session>;
      detail::saveable_states states;
      states.states.reserve(mp::mp_size<saveables>::value);
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, saveables>>([&](auto id) {
        using R = typename decltype(id)::type::resource;
        sess.template resource<R>().save_state(states.states.emplace_back(), state_prefix<R>(), R::name.view());
        detail::append_state(states.states.back(), states.shapes, vars);
      });
      return detail::save_variables(vars, options_, retention_, prefix, global_step);
    }
  }

  /// save() with the step read from a scalar integer variable of the session (global_step).
  template <class Session, node Step>
    requires variable_node_type<Step>
  std::string save(const Session& sess, const std::filesystem::path& prefix, Step) {
    static_assert(std::is_integral_v<value_type_of<Step>> && shape_of<Step>::rank == 0,
                  "saver.save(sess, prefix, step): step must be a scalar integer variable");
    if (!sess.template slot<Step>().initialized)
      throw failed_precondition_error("Attempting to use uninitialized value " + std::string(Step::name.view()));
    return save(sess, prefix, static_cast<std::int64_t>(sess.template slot<Step>().value));
  }

  /// Restores the saver's variables from the checkpoint at `path`, all or nothing.
  template <class Session>
  void restore(Session& sess, const std::filesystem::path& path) const {
    using entries = saver_entries_t<Entries, Session>;
    if constexpr (detail::check_held<Session, entries>::value) {
      const auto vars = detail::restored_variables<saver_variable_entries_t<Entries, Session>>(sess);
      using saveables = saver_saveables_t<Entries, Session>;
      std::vector<std::string> prefixes;
      prefixes.reserve(mp::mp_size<saveables>::value);  // the table's views point into it
      std::vector<io::restored_saveable> states;
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, saveables>>([&](auto id) {
        using R = typename decltype(id)::type::resource;
        states.push_back(detail::restored_saveable_of<R>(sess.template resource<R>(), prefixes.emplace_back(state_prefix<R>())));
      });
      io::restore_variables(vars, path, {.reshape = options_.reshape, .map_file = options_.map_file}, states);
    }
  }

  /// How the checkpoint at `path` differs from what this saver would restore into Session.
  template <class Session>
  checkpoint_diff diff(const Session&, const std::filesystem::path& path) const {
    return diff_manifests(expected_manifest<Entries, Session>(), io::list_tensors(path));
  }

  /// tf.train.Saver.recover_last_checkpoints: sets the list of kept checkpoints to those of
  /// `paths` that exist, in the order given, each with its file's modification time (a
  /// checkpoint deleted meanwhile is left out); as set_last_checkpoints otherwise.
  void recover_last_checkpoints(const std::vector<std::string>& paths) {
    std::vector<std::pair<std::string, double>> with_time;
    for (const auto& p : paths)
      if (const auto t = detail::mtime_of(p)) with_time.emplace_back(p, *t);
    set_last_checkpoints_with_time(with_time);
  }

  /// Checkpoints that rotation took off the list but could not delete yet, because the
  /// state file could not be written (they are deleted after the next state write).
  std::vector<std::string> pending_deletions() const { return retention_.pending_deletions(); }

 private:
  saver_options options_{};
  checkpoint_retention retention_{detail::retention_of(options_)};
};

// With <typeflow/tu_local.hpp> these guides have internal linkage, and g++ 12 reports a
// guide that is not a template as a static function declared but never defined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
saver() -> saver<all_variables>;
saver(saver_options) -> saver<all_variables>;
#pragma GCC diagnostic pop
// The general guide: leading options (a saver_options value) are skipped by a partial specialization,
// not by a constraint, because clang substitutes a guide's result before checking its
// constraints and would meet the options in entries_of_arg's static_assert.
template <class A0, class... A>
saver(A0, A...) -> saver<typename detail::guided_entries<A0, A...>::type>;
// Options given as a braced list ({.reshape = true}), which the guide above cannot deduce A0
// from: without this guide the constructor's implicit guide would make a saver over every
// variable and drop the variables given.
template <class... A>
saver(saver_options, A...) -> saver<detail::entries_t<A...>>;

}  // namespace typeflow::train
