// typeflow/io/checkpoint/bindings.hpp — the run-time table that a saver hands to the checkpoint
// transaction (io/checkpoint/transaction.hpp): per variable, its checkpoint key, its name,
// dtype and shape, and where its value and its initialized flag live in the session. A
// saver's type decides which variables go under which keys (train/saver.hpp); everything
// done with the table is compiled once, not once per saver type.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "typeflow/core/dtype.hpp"
#include "typeflow/io/checkpoint/format.hpp"

namespace typeflow::io {

/// A variable to save: the tensor written under its key, the variable's name and whether it
/// is initialized (saving an uninitialized variable is an error naming it).
struct saved_variable {
  tensor_data_view tensor;
  std::string_view variable;
  bool initialized = false;
};

/// A variable to restore, under the checkpoint key `key`.
struct restored_variable {
  std::string_view key;
  std::string_view variable;  // its name, in diagnostics
  typeflow::dtype dtype = typeflow::dtype::float32;
  std::span<const std::uint64_t> shape;
  void* data = nullptr;         // num_bytes() native-endian bytes: the variable's value
  bool* initialized = nullptr;  // the variable's initialized flag
  bool shared = false;          // the variable is restored under another key of the table too

  std::uint64_t num_elements() const noexcept {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
  std::uint64_t num_bytes() const noexcept { return num_elements() * dtype_size(dtype); }
};

/// A tensor of a saveable's state as the restore read and verified it: its manifest entry
/// and its native-endian bytes.
struct loaded_tensor {
  const tensor_info* info = nullptr;
  std::span<const unsigned char> bytes;
};

/// State other than a variable restored with the variables, all or nothing (a dataset
/// iterator's position, train/saveable.hpp): every tensor of the checkpoint whose key starts
/// with `prefix` followed by '/'. `stage` gets them once they are read and verified, checks
/// them (throwing an error that names the key at fault) and returns the commit, which must
/// not throw: it runs after every variable and every other saveable is staged.
struct restored_saveable {
  std::string_view prefix;
  std::string_view name;  // the saveable's name, in diagnostics
  std::function<std::function<void()>(std::span<const loaded_tensor>)> stage;

  bool owns(std::string_view key) const noexcept {
    return key.size() > prefix.size() && key.starts_with(prefix) && key[prefix.size()] == '/';
  }
};

}  // namespace typeflow::io
