// Helpers of the checkpoint format tests: small checkpoints built in memory.
#pragma once

#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <typeflow/io/checkpoint_format.hpp>

namespace ckpt_testing {

namespace io = typeflow::io;

/// A checkpoint of a few tensors of every dtype, written with `format`.
inline std::string small_checkpoint(io::archive_format format = io::archive_format::portable_binary) {
  static const float w[6] = {1.5f, -2.25f, 0.0f, std::numeric_limits<float>::infinity(), 3.0f, 1e-30f};
  static const double b[2] = {0.125, -7.0};
  static const std::int32_t step = 42;
  static const std::int64_t big[3] = {std::numeric_limits<std::int64_t>::min(), 0, std::numeric_limits<std::int64_t>::max()};
  static const bool flags[2] = {true, false};
  static const std::uint64_t w_shape[2] = {2, 3}, b_shape[1] = {2}, big_shape[1] = {3}, flags_shape[1] = {2};
  const io::tensor_data_view tensors[] = {
      {"layer1/w", typeflow::dtype::float32, w_shape, w},
      {"layer1/b", typeflow::dtype::float64, b_shape, b},
      {"global_step", typeflow::dtype::int32, {}, &step},
      {"big", typeflow::dtype::int64, big_shape, big},
      {"flags", typeflow::dtype::boolean, flags_shape, flags},
  };
  std::ostringstream out;
  io::write_checkpoint(out, format, 42, tensors);
  return out.str();
}

/// Loads every tensor of an in-memory checkpoint (throws what the reader throws).
inline io::loaded_checkpoint load(const std::string& bytes) {
  io::checkpoint_reader r(bytes.data(), bytes.size(), "mem");
  return io::load_all(r);
}

/// Verifies every tensor of an in-memory binary checkpoint where it lies (as a mapped
/// restore does) and returns copies of their bytes (throws what the reader throws).
inline std::vector<std::vector<unsigned char>> load_in_place(const std::string& bytes) {
  io::checkpoint_reader r(bytes.data(), bytes.size(), "mem");
  if (!r.can_verify_in_place()) throw std::logic_error("not a binary checkpoint");
  const auto where = r.verify_in_place([](const io::tensor_info&, std::size_t) { return true; });
  std::vector<std::vector<unsigned char>> out;
  for (const auto& t : where) out.emplace_back(t.data, t.data + t.bytes);
  return out;
}

}  // namespace ckpt_testing
