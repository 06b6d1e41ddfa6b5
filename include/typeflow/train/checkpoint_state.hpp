// typeflow/train/checkpoint_state.hpp — the "checkpoint" state file of a directory:
// tf.train.get_checkpoint_state, update_checkpoint_state and latest_checkpoint.
//
// The file is TensorFlow's text format, one field per line:
//
//   model_checkpoint_path: "model.ckpt-20"
//   all_model_checkpoint_paths: "model.ckpt-10"
//   all_model_checkpoint_paths: "model.ckpt-20"
//   all_model_checkpoint_timestamps: 1700000000.5
//   all_model_checkpoint_timestamps: 1700000060.25
//   last_preserved_timestamp: 1700000000
//
// Unlike TensorFlow, every path is a plain file name in the state file's directory: a state
// file naming "../x", "/etc/passwd" or "a/b" is refused as corrupt, so a state file cannot
// point a program outside its directory. It is written atomically and durably (temp file,
// fsync, rename, fsync of the directory), so a crash leaves the old or the new state.
//
// checkpoint_retention is the list of checkpoints a saver keeps, written to the state file
// after each save: max_to_keep, keep_checkpoint_every_n_hours, the deletions pending after a
// failed state write, and the list taken over from a previous run (recover_last_checkpoints,
// set_last_checkpoints, or the state file and a scan of the directory).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iterator>
#include <list>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "typeflow/core/errors.hpp"
#include "typeflow/io/detail/join.hpp"
#include "typeflow/io/file.hpp"

namespace typeflow::train {

/// The largest state file read (TensorFlow's are a few hundred bytes).
inline constexpr std::size_t max_checkpoint_state_bytes = std::size_t{1} << 20;
/// The longest file name a state file may name.
inline constexpr std::size_t max_checkpoint_file_name = 255;

/// TensorFlow's CheckpointState: the latest checkpoint and the ones kept, as file names
/// in the directory of the state file.
struct checkpoint_state {
  std::string model_checkpoint_path;
  std::vector<std::string> all_model_checkpoint_paths;
  /// Seconds since the epoch when each of all_model_checkpoint_paths was saved (may be empty).
  std::vector<double> all_model_checkpoint_timestamps;
  std::optional<double> last_preserved_timestamp;
  friend bool operator==(const checkpoint_state&, const checkpoint_state&) = default;
};

/// Whether `name` is a plain file name: not empty, not "." or "..", no '/', no '\\', no
/// quote and no control character, at most max_checkpoint_file_name bytes.
inline bool is_plain_file_name(std::string_view name) noexcept {
  if (name.empty() || name == "." || name == ".." || name.size() > max_checkpoint_file_name) return false;
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7F || c == '/' || c == '\\' || c == '"') return false;
  return true;
}

namespace detail {

inline std::string format_timestamp(double t) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, t);
  return std::string(buf, r.ptr);
}

}  // namespace detail

/// The text of a state file.
inline std::string format_checkpoint_state(const checkpoint_state& s) {
  std::string out = "model_checkpoint_path: \"" + s.model_checkpoint_path + "\"\n";
  for (const auto& p : s.all_model_checkpoint_paths) out += "all_model_checkpoint_paths: \"" + p + "\"\n";
  for (double t : s.all_model_checkpoint_timestamps)
    out += "all_model_checkpoint_timestamps: " + detail::format_timestamp(t) + "\n";
  if (s.last_preserved_timestamp)
    out += "last_preserved_timestamp: " + detail::format_timestamp(*s.last_preserved_timestamp) + "\n";
  return out;
}

/// Parses the text of a state file; `where` names it in errors (DataLoss).
inline checkpoint_state parse_checkpoint_state(std::string_view text, const std::string& where) {
  auto fail = [&](const std::string& why) -> void {
    throw data_loss_error("Checkpoint state file " + where + " is corrupt: " + why);
  };
  if (text.size() > max_checkpoint_state_bytes) fail("larger than " + std::to_string(max_checkpoint_state_bytes) + " bytes");
  checkpoint_state s;
  bool has_model = false;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) fail("line " + std::to_string(line_no) + " is not 'field: value'");
    const auto key = line.substr(0, colon);
    auto value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    auto string_value = [&]() -> std::string {
      if (value.size() < 2 || value.front() != '"' || value.back() != '"')
        fail("line " + std::to_string(line_no) + ": " + std::string(key) + " must be a quoted file name");
      const auto name = value.substr(1, value.size() - 2);
      if (!is_plain_file_name(name))
        fail("line " + std::to_string(line_no) + ": '" + std::string(name.substr(0, 64)) +
             "' is not a plain file name in the state file's directory");
      return std::string(name);
    };
    auto number_value = [&]() -> double {
      double v = 0;
      const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
      if (r.ec != std::errc{} || r.ptr != value.data() + value.size() || !(v == v))
        fail("line " + std::to_string(line_no) + ": " + std::string(key) + " must be a number");
      return v;
    };
    if (key == "model_checkpoint_path") {
      if (has_model) fail("model_checkpoint_path is given twice");
      s.model_checkpoint_path = string_value();
      has_model = true;
    } else if (key == "all_model_checkpoint_paths") {
      s.all_model_checkpoint_paths.push_back(string_value());
    } else if (key == "all_model_checkpoint_timestamps") {
      s.all_model_checkpoint_timestamps.push_back(number_value());
    } else if (key == "last_preserved_timestamp") {
      s.last_preserved_timestamp = number_value();
    } else {
      fail("line " + std::to_string(line_no) + ": unknown field '" + std::string(key.substr(0, 64)) + "'");
    }
  }
  if (!has_model) fail("no model_checkpoint_path");
  if (!s.all_model_checkpoint_timestamps.empty() &&
      s.all_model_checkpoint_timestamps.size() != s.all_model_checkpoint_paths.size())
    fail("all_model_checkpoint_timestamps does not match all_model_checkpoint_paths");
  return s;
}

/// The state file of `dir`, or nothing when there is none (tf.train.get_checkpoint_state).
/// A state file that cannot be parsed is DataLoss; one that is not a regular file (a
/// directory, a FIFO) is FailedPrecondition naming it, at once.
inline std::optional<checkpoint_state> get_checkpoint_state(const std::filesystem::path& dir,
                                                            std::string_view latest_filename = "checkpoint") {
  const auto file = dir / std::string(latest_filename);
  int fd;
  try {
    fd = io::open_regular_file(file, "Checkpoint state file");
  } catch (const not_found_error&) {
    return std::nullopt;
  }
  io::fd_input_buffer in(fd);
  std::string text(max_checkpoint_state_bytes + 1, '\0');
  const auto n = in.sgetn(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(n < 0 ? 0 : n));
  return parse_checkpoint_state(text, file.string());
}

/// Writes the state file of `dir`, atomically and durably.
inline void update_checkpoint_state(const std::filesystem::path& dir, const checkpoint_state& s,
                                    std::string_view latest_filename = "checkpoint") {
  if (!is_plain_file_name(s.model_checkpoint_path))
    throw invalid_argument_error("Checkpoint state: '" + s.model_checkpoint_path + "' is not a plain file name");
  for (const auto& p : s.all_model_checkpoint_paths)
    if (!is_plain_file_name(p)) throw invalid_argument_error("Checkpoint state: '" + p + "' is not a plain file name");
  io::write_file_atomically(dir / std::string(latest_filename), format_checkpoint_state(s));
}

/// The path of the newest checkpoint of `dir` (tf.train.latest_checkpoint), or nothing when
/// the directory has no state file or its latest checkpoint does not exist.
inline std::optional<std::string> latest_checkpoint(const std::filesystem::path& dir,
                                                    std::string_view latest_filename = "checkpoint") {
  const auto state = get_checkpoint_state(dir, latest_filename);
  if (!state) return std::nullopt;
  const auto path = dir / state->model_checkpoint_path;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  return path.string();
}

// --- the checkpoints a saver keeps -----------------------------------------------------------------

/// How many checkpoints a saver keeps, and where it lists them (saver_options' fields).
struct retention_policy {
  std::optional<std::size_t> max_to_keep = 5;
  double keep_checkpoint_every_n_hours = 10000.0;
  std::string latest_filename = "checkpoint";
  std::function<double()> clock{};
};

namespace detail {

inline double system_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// "<base>-<digits>" or "<base>": a checkpoint that a saver with prefix base writes.
inline bool is_checkpoint_of(std::string_view file, std::string_view base) {
  if (file == base) return true;
  if (file.size() < base.size() + 2 || file.substr(0, base.size()) != base || file[base.size()] != '-') return false;
  const auto digits = file.substr(base.size() + 1);
  const auto start = digits.front() == '-' ? 1u : 0u;
  if (digits.size() <= start) return false;
  return std::all_of(digits.begin() + start, digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

inline std::optional<double> mtime_of(const std::filesystem::path& p) {
  struct ::stat st {};
  if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return static_cast<double>(st.st_mtim.tv_sec) + 1e-9 * static_cast<double>(st.st_mtim.tv_nsec);
}

// Throws an error of e's code with another message.
[[noreturn]] inline void rethrow_as(const error& e, const std::string& message) {
  switch (e.code()) {
    case error_code::invalid_argument: throw invalid_argument_error(message);
    case error_code::not_found: throw not_found_error(message);
    case error_code::failed_precondition: throw failed_precondition_error(message);
    case error_code::data_loss: throw data_loss_error(message);
    default: throw unknown_error(message);
  }
}

}  // namespace detail

/// The checkpoints a saver keeps, oldest first, and the state file written after each save.
class checkpoint_retention {
 public:
  explicit checkpoint_retention(retention_policy policy = {}) : policy_(std::move(policy)) {}

  /// The kept checkpoints, oldest first, with the time each was saved.
  std::vector<std::pair<std::string, double>> kept_with_time() const {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& c : kept_) out.emplace_back(c.path, c.timestamp);
    return out;
  }
  /// Sets the kept checkpoints; the next save takes this list as it is.
  void set_kept(const std::vector<std::pair<std::string, double>>& paths) {
    kept_.clear();
    for (const auto& [p, t] : paths) kept_.push_back({p, t});
    list_given_ = true;
  }
  /// Checkpoints taken off the list whose deletion waits for the next state write.
  std::vector<std::string> pending_deletions() const { return pending_delete_; }

  /// On the first save into `dir`: takes over the checkpoints of a previous run (the
  /// state file's list and the files "<base>-<step>" the directory holds) and removes the
  /// temporary files that a killed save left behind.
  void recover(const std::filesystem::path& dir, const std::string& base) {
    if (recovered_dir_ && *recovered_dir_ == dir) return;
    recovered_dir_ = dir;
    // A list given by set_last_checkpoints / recover_last_checkpoints is taken as it is.
    if (std::exchange(list_given_, false)) return;
    std::vector<kept_checkpoint> found;
    std::optional<checkpoint_state> state;
    try {
      state = get_checkpoint_state(dir, policy_.latest_filename);
    } catch (const data_loss_error&) {
      // A corrupt state file is rebuilt from the directory below and replaced by this save.
    } catch (const failed_precondition_error&) {
      // Neither is a state file that is not a regular file; this save then says that it
      // could not list its checkpoint.
    }
    if (state) {
      if (state->last_preserved_timestamp) next_keep_time_ = *state->last_preserved_timestamp + keep_period();
      for (std::size_t i = 0; i < state->all_model_checkpoint_paths.size(); ++i) {
        const auto& name = state->all_model_checkpoint_paths[i];
        if (!detail::is_checkpoint_of(name, base)) continue;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(dir / name, ec)) continue;
        const double t = i < state->all_model_checkpoint_timestamps.size() ? state->all_model_checkpoint_timestamps[i]
                                                                            : detail::mtime_of(dir / name).value_or(0);
        found.push_back({(dir / name).string(), t});
      }
    }
    std::vector<kept_checkpoint> scanned;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const auto name = entry.path().filename().string();
      std::error_code ec2;
      if (!entry.is_regular_file(ec2)) continue;
      const auto dash = name.rfind(".tmp.");
      if (dash != std::string::npos && (detail::is_checkpoint_of(name.substr(0, dash), base) ||
                                        name.substr(0, dash) == policy_.latest_filename)) {
        if (io::is_temp_file_of(name, name.substr(0, dash))) ::unlink(entry.path().c_str());
        continue;
      }
      if (!detail::is_checkpoint_of(name, base) || name == base) continue;
      const auto full = (dir / name).string();
      if (std::none_of(found.begin(), found.end(), [&](const auto& k) { return k.path == full; }))
        scanned.push_back({full, detail::mtime_of(entry.path()).value_or(0)});
    }
    for (auto& s : scanned) found.push_back(std::move(s));
    // Oldest first, ties in the order found: std::list's merge sort is stable, and unlike
    // std::stable_sort it takes no std::get_temporary_buffer (deprecated; an error under clang 19).
    std::list<kept_checkpoint> by_time(std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
    by_time.sort([](const auto& a, const auto& b) { return a.timestamp < b.timestamp; });
    found.assign(std::make_move_iterator(by_time.begin()), std::make_move_iterator(by_time.end()));
    // A saver that moves to another directory rotates that directory's checkpoints only;
    // a saver that keeps every checkpoint lists none.
    if (rotating()) kept_ = std::move(found);
  }

  // TensorFlow's order (Saver.save): record the new checkpoint (rotation moves the oldest
  // beyond max_to_keep to the deletions pending), write the state file, and only then
  // delete. A failed state write leaves the deletions pending for the next successful one,
  // and says that the checkpoint, complete on disk, is not listed.
  void after_save(const std::filesystem::path& dir, const std::filesystem::path& path) {
    const auto p = path.string();
    const double saved_at = now();
    if (rotating()) {
      std::erase_if(kept_, [&](const auto& k) { return k.path == p; });
      kept_.push_back({p, saved_at});
      while (kept_.size() > *policy_.max_to_keep) {
        const auto oldest = kept_.front();
        kept_.erase(kept_.begin());
        if (oldest.timestamp > next_keep_time_) {
          next_keep_time_ += keep_period();
          continue;  // preserved: it leaves the list, not the disk
        }
        pending_delete_.push_back(oldest.path);
      }
    }
    std::erase(pending_delete_, p);  // saved again under a name that was to be deleted
    checkpoint_state state;
    state.model_checkpoint_path = path.filename().string();
    // Checkpoints in the directory of the state file, oldest first; the latest is the last
    // (TensorFlow adds it when the saver lists none).
    for (const auto& k : kept_) {
      const std::filesystem::path kp(k.path);
      if (kp.parent_path() != path.parent_path() || k.path == p) continue;
      state.all_model_checkpoint_paths.push_back(kp.filename().string());
      state.all_model_checkpoint_timestamps.push_back(k.timestamp);
    }
    state.all_model_checkpoint_paths.push_back(state.model_checkpoint_path);
    state.all_model_checkpoint_timestamps.push_back(saved_at);
    state.last_preserved_timestamp = next_keep_time_ - keep_period();
    try {
      update_checkpoint_state(dir, state, policy_.latest_filename);
    } catch (const error& e) {
      detail::rethrow_as(e, "Checkpoint " + p + " was written, but it is not listed in the state file " +
                                (dir / policy_.latest_filename).string() +
                                " (latest_checkpoint does not return it), which could not be written: " + e.message() +
                                (pending_delete_.empty() ? std::string()
                                                         : ". The checkpoints that rotation removes from the list (" +
                                                               io::detail::join(pending_delete_) +
                                                               ") are deleted after the next state file is written"));
    }
    // Deleting needs no fsync: the durable state file no longer lists these files, and a
    // deletion a crash undoes is redone by the next run's scan of the directory.
    for (const auto& d : std::exchange(pending_delete_, {})) ::unlink(d.c_str());
  }

 private:
  struct kept_checkpoint {
    std::string path;
    double timestamp;
  };

  double now() const { return policy_.clock ? policy_.clock() : detail::system_seconds(); }
  bool rotating() const noexcept { return policy_.max_to_keep.value_or(0) > 0; }
  double keep_period() const noexcept { return policy_.keep_checkpoint_every_n_hours * 3600.0; }
  double first_keep_time() const { return now() + keep_period(); }

  retention_policy policy_;
  std::vector<kept_checkpoint> kept_;
  std::vector<std::string> pending_delete_;
  std::optional<std::filesystem::path> recovered_dir_;
  bool list_given_ = false;
  // The first checkpoint saved after this time is preserved (keep_checkpoint_every_n_hours);
  // one period after the saver is made, as TensorFlow.
  double next_keep_time_ = first_keep_time();
};

}  // namespace typeflow::train
