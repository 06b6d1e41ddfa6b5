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
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "typeflow/core/errors.hpp"
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

}  // namespace typeflow::train
