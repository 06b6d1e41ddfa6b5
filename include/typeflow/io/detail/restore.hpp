// typeflow/io/detail/restore.hpp — the restore transaction over a table of variables
// (io/checkpoint/bindings.hpp), all or nothing: every key, dtype and shape is checked, every
// tensor needed is read and verified, and only then are the variables written.
//
// Saveables (io/checkpoint/bindings.hpp: a dataset iterator's position) ride along: their
// keys are checked with the variables', their tensors read and verified with them, then each
// saveable checks and stages its state, and only then is anything committed.
//
// restore_variables takes an observer called between verifying a mapped checkpoint and
// copying it into the variables: tests use it to change the file in that moment. The public
// entry, io::restore_variables (io/checkpoint/transaction.hpp), passes none.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint/bindings.hpp"
#include "typeflow/io/checkpoint/reader.hpp"
#include "typeflow/io/detail/join.hpp"
#include "typeflow/io/file.hpp"

namespace typeflow::io {

/// How a restore reads (the saver's options of the same names).
struct restore_options {
  /// Restore a tensor of another shape when the element counts agree.
  bool reshape = false;
  /// Restore over initialized variables through a read-only mapping of the checkpoint.
  bool map_file = true;
};

namespace detail {

/// Uninitialized memory for staged tensors; large arenas ask for transparent huge pages,
/// which makes first touching them several times cheaper.
struct free_deleter {
  void operator()(unsigned char* p) const noexcept { std::free(p); }
};
inline std::unique_ptr<unsigned char[], free_deleter> staging_arena(std::size_t bytes) {
  constexpr std::size_t huge = std::size_t{2} << 20;
  if (bytes == 0) return nullptr;
  if (bytes < huge) {
    auto* small = static_cast<unsigned char*>(std::malloc(bytes));
    if (!small) throw std::bad_alloc();
    return std::unique_ptr<unsigned char[], free_deleter>(small);
  }
  const std::size_t rounded = (bytes + huge - 1) / huge * huge;
  auto* p = static_cast<unsigned char*>(std::aligned_alloc(huge, rounded));
#ifdef MADV_HUGEPAGE
  if (p) ::madvise(p, rounded, MADV_HUGEPAGE);
#endif
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<unsigned char[], free_deleter>(p);
}

/// Step 1 of a restore: every key, dtype and shape, before reading any data (a saveable
/// without any tensor in the checkpoint is a missing key). Returns, per variable, the index
/// of its tensor in the checkpoint.
inline std::vector<std::size_t> match_variables(std::span<const restored_variable> vars, const checkpoint_reader& reader,
                                                bool reshape, std::span<const restored_saveable> saveables = {}) {
  const auto& header = reader.header();
  std::vector<std::string> missing, mismatches;
  std::vector<std::size_t> tensor_index(vars.size());
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const auto& v = vars[i];
    const auto found = std::find_if(header.tensors.begin(), header.tensors.end(),
                                    [&](const auto& t) { return t.name == v.key; });
    tensor_index[i] = static_cast<std::size_t>(found - header.tensors.begin());
    if (found == header.tensors.end()) {
      missing.push_back("Key " + std::string(v.key) + " not found in checkpoint " + reader.path());
      continue;
    }
    const std::string var = "variable " + std::string(v.variable) +
                            (v.key == v.variable ? std::string() : " (checkpoint key " + std::string(v.key) + ")");
    if (found->dtype != v.dtype)
      mismatches.push_back("Cannot restore " + var + " of dtype " + std::string(dtype_name(v.dtype)) +
                           " from a tensor of dtype " + std::string(dtype_name(found->dtype)) + " in checkpoint " +
                           reader.path());
    const bool same_shape = std::equal(found->shape.begin(), found->shape.end(), v.shape.begin(), v.shape.end());
    const auto elements = v.num_elements();
    if (!same_shape && !(reshape && found->num_elements() == elements))
      mismatches.push_back("Cannot restore " + var + " of shape " + dims_string(v.shape) + " from a tensor of shape " +
                           found->shape_string() + " in checkpoint " + reader.path() +
                           (found->num_elements() == elements ? " (the element counts agree: make the saver "
                                                                "with reshape = true to restore it)"
                                                              : ""));
  }
  for (const auto& s : saveables)
    if (std::none_of(header.tensors.begin(), header.tensors.end(), [&](const auto& t) { return s.owns(t.name); }))
      missing.push_back("Key " + std::string(s.prefix) + "/... not found in checkpoint " + reader.path() +
                        ": it holds no state of " + std::string(s.name));
  if (!missing.empty()) {
    for (auto& m : mismatches) missing.push_back(std::move(m));
    throw not_found_error(join(missing, "\n"));
  }
  if (!mismatches.empty()) throw invalid_argument_error(join(mismatches, "\n"));
  return tensor_index;
}

/// Step 2 for the saveables: each one's tensors (verified; `bytes_of(index)` gives where
/// they are) are handed to its stage, which checks them; returns the commits, in order.
template <class BytesOf>
std::vector<std::function<void()>> stage_saveables(std::span<const restored_saveable> saveables,
                                                   const checkpoint_reader& reader,
                                                   const std::vector<std::size_t>& owner_of, BytesOf&& bytes_of) {
  std::vector<std::function<void()>> commits;
  commits.reserve(saveables.size());
  const auto& tensors = reader.header().tensors;
  for (std::size_t s = 0; s < saveables.size(); ++s) {
    std::vector<loaded_tensor> loaded;
    for (std::size_t i = 0; i < tensors.size(); ++i)
      if (owner_of[i] == s) loaded.push_back({&tensors[i], bytes_of(i)});
    commits.push_back(saveables[s].stage(loaded));
  }
  return commits;
}

// Steps 2 and 3 over a mapped checkpoint: every tensor needed is verified where it lies, then
// copied into its variable. If the file's times say that another process wrote into it
// meanwhile, the variables may hold bytes nobody verified: they are marked uninitialized
// rather than left holding them.
inline void restore_mapped(std::span<const restored_variable> vars, const mapped_file& mapping,
                           checkpoint_reader& reader, const std::vector<std::size_t>& tensor_index,
                           const std::vector<std::size_t>& entry_of, const std::function<void()>& after_verify,
                           std::span<const restored_saveable> saveables, const std::vector<std::size_t>& owner_of) {
  const std::size_t n = vars.size();
  const std::size_t m = saveables.size();
  const auto where = reader.verify_in_place(
      [&](const tensor_info&, std::size_t index) { return entry_of[index] != n || owner_of[index] != m; });
  const auto commits = stage_saveables(saveables, reader, owner_of, [&](std::size_t index) {
    return std::span<const unsigned char>(where[index].data, static_cast<std::size_t>(where[index].bytes));
  });
  if (after_verify) after_verify();

  // 3. Commit: nothing below can fail, unless the file changed since it was mapped.
  for (std::size_t i = 0; i < n; ++i)
    std::memcpy(vars[i].data, where[tensor_index[i]].data, static_cast<std::size_t>(vars[i].num_bytes()));
  if (mapping.changed_since_mapped()) {
    std::vector<std::string> names;
    for (const auto& v : vars) {
      *v.initialized = false;
      if (std::find(names.begin(), names.end(), v.variable) == names.end()) names.emplace_back(v.variable);
    }
    throw data_loss_error("Checkpoint " + reader.path() +
                          " changed while it was being restored (another process wrote into it). The variables "
                          "being restored (" +
                          join(names) + ") may hold bytes that were not verified and are now uninitialized");
  }
  for (const auto& v : vars) *v.initialized = true;
  for (const auto& c : commits) c();
}

/// Restores `vars` from the checkpoint at `path`, all or nothing; `after_verify`, when set,
/// is called between verifying a mapped checkpoint and copying it (tests only).
inline void restore_variables(std::span<const restored_variable> vars, const std::filesystem::path& path,
                              const restore_options& options, const std::function<void()>& after_verify,
                              std::span<const restored_saveable> saveables = {}) {
  const std::size_t n = vars.size();
  const std::size_t m = saveables.size();
  // An initialized variable's current value must survive a failure, so its new value
  // cannot be read into it before every tensor is verified; so is a variable under two
  // keys (its tensors are copied in the saver's order).
  const bool any_staged = std::any_of(vars.begin(), vars.end(), [](const auto& v) { return *v.initialized || v.shared; });
  // Then the checkpoint is mapped, verified where it lies and copied once (when the file
  // can be mapped), or read into a staging buffer.
  std::optional<mapped_file> mapping;
  if (any_staged && options.map_file) mapping = mapped_file::map(path);
  std::optional<checkpoint_reader> opened;
  if (mapping) {
    opened.emplace(mapping->data(), mapping->size(), path.string());
  } else {
    opened.emplace(path);
  }
  checkpoint_reader& reader = *opened;

  // 1. Every key, dtype and shape, before reading any data.
  const auto tensor_index = match_variables(vars, reader, options.reshape, saveables);
  const auto& tensors = reader.header().tensors;
  std::vector<std::size_t> entry_of(tensors.size(), n);
  for (std::size_t e = 0; e < n; ++e) entry_of[tensor_index[e]] = e;
  std::vector<std::size_t> owner_of(tensors.size(), m);  // the saveable a tensor belongs to
  for (std::size_t i = 0; i < tensors.size(); ++i)
    for (std::size_t s = 0; s < m && owner_of[i] == m; ++s)
      if (entry_of[i] == n && saveables[s].owns(tensors[i].name)) owner_of[i] = s;
  if (reader.can_verify_in_place()) {
    restore_mapped(vars, *mapping, reader, tensor_index, entry_of, after_verify, saveables, owner_of);
    return;
  }

  // 2. Read and verify the data. An initialized variable's new value is staged (its
  // current value must survive a failure); an uninitialized variable is read in place:
  // it stays uninitialized until every tensor is verified, so a failure changes nothing
  // a program can observe through the session.
  std::vector<void*> dest(n);
  std::vector<std::size_t> offset(n);
  std::size_t staged_bytes = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (*vars[i].initialized || vars[i].shared) {
      offset[i] = staged_bytes;
      staged_bytes += static_cast<std::size_t>((vars[i].num_bytes() + 63) / 64 * 64);
    } else {
      dest[i] = vars[i].data;
    }
  }
  const auto arena = staging_arena(staged_bytes);
  for (std::size_t e = 0; e < n; ++e)
    if (!dest[e]) dest[e] = arena.get() + offset[e];
  std::vector<std::vector<unsigned char>> saveable_bytes(tensors.size());  // saveables' tensors
  reader.read_tensors([&](const tensor_info& t, std::size_t index) -> void* {
    if (owner_of[index] != m) {
      saveable_bytes[index].resize(static_cast<std::size_t>(t.num_bytes()));
      return saveable_bytes[index].data();
    }
    const auto e = entry_of[index];
    return e == n ? nullptr : dest[e];
  });
  const auto commits = stage_saveables(saveables, reader, owner_of, [&](std::size_t index) {
    return std::span<const unsigned char>(saveable_bytes[index]);
  });

  // 3. Commit: nothing below can fail.
  for (std::size_t i = 0; i < n; ++i)
    if (dest[i] != vars[i].data) std::memcpy(vars[i].data, dest[i], static_cast<std::size_t>(vars[i].num_bytes()));
  for (const auto& v : vars) *v.initialized = true;
  for (const auto& c : commits) c();
}

}  // namespace detail

}  // namespace typeflow::io
