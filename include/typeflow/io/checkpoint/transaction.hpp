// typeflow/io/checkpoint/transaction.hpp — saving and restoring a table of variables
// (io/checkpoint/bindings.hpp), the work behind train::saver, compiled once for every saver.
//
// Saving: check_save refuses uninitialized variables, a missing parent directory and a
// non-file under the checkpoint's name; write_variables writes the checkpoint atomically and
// durably (io/file.hpp: temp file, fsync, rename, fsync of the directory). The state file and
// the rotation of old checkpoints are the saver's (train/checkpoint_state.hpp).
//
// Restoring is all or nothing (io/detail/restore.hpp): every key, dtype and shape is checked
// and every tensor needed is read and verified before any variable changes; any failure
// leaves the variables as they were and lists every problem.
#pragma once

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include <cereal/cereal.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint/bindings.hpp"
#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/io/checkpoint/writer.hpp"
#include "typeflow/io/detail/join.hpp"
#include "typeflow/io/detail/restore.hpp"
#include "typeflow/io/file.hpp"

namespace typeflow::io {

/// The path a checkpoint is saved to: `prefix`-`global_step`, or `prefix` without a step.
inline std::filesystem::path checkpoint_path(const std::filesystem::path& prefix, std::optional<std::int64_t> global_step) {
  std::filesystem::path path = prefix;
  if (global_step) path += "-" + std::to_string(*global_step);
  return path;
}

/// Checks that `vars` can be saved to `path` (every variable initialized, the parent
/// directory there, no non-file under that name); returns the directory.
inline std::filesystem::path check_save(std::span<const saved_variable> vars, const std::filesystem::path& path) {
  std::vector<std::string> uninitialized;
  for (const auto& v : vars)
    if (!v.initialized) uninitialized.emplace_back(v.variable);
  if (!uninitialized.empty())
    throw failed_precondition_error("Attempting to use uninitialized value " + detail::join(uninitialized) +
                                    " (saving checkpoint " + path.string() + ")");
  const auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw not_found_error("Parent directory of " + path.string() + " doesn't exist, can't save");
  if (!std::filesystem::is_regular_file(path, ec) && std::filesystem::exists(path, ec))
    throw invalid_argument_error("Cannot save checkpoint " + path.string() + ": a non-file exists under that name");
  return dir;
}

/// Writes `vars` to the checkpoint at `path`, atomically and durably.
inline void write_variables(std::span<const saved_variable> vars, const std::filesystem::path& path,
                            archive_format format, std::optional<std::int64_t> global_step) {
  std::vector<tensor_data_view> tensors;
  tensors.reserve(vars.size());
  for (const auto& v : vars) tensors.push_back(v.tensor);
  atomic_file_writer writer(path);
  try {
    write_checkpoint(writer.stream(), format, global_step, tensors);
  } catch (const cereal::Exception&) {
    writer.fail("write", writer.write_error() ? writer.write_error() : EIO);
  }
  writer.commit();
}

/// Restores `vars` from the checkpoint at `path`, all or nothing; with them the state of
/// `saveables` (a dataset iterator's position), committed only when every variable and
/// every saveable is read, verified and staged.
inline void restore_variables(std::span<const restored_variable> vars, const std::filesystem::path& path,
                              const restore_options& options, std::span<const restored_saveable> saveables = {}) {
  detail::restore_variables(vars, path, options, {}, saveables);
}

}  // namespace typeflow::io
