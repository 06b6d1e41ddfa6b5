// typeflow/io/checkpoint/writer.hpp — writes one checkpoint, in either form.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>

#include "typeflow/io/checkpoint/binary.hpp"
#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/io/checkpoint/json.hpp"

namespace typeflow::io {

/// Writes one checkpoint to `out`. Names must be unique, non-empty, at most
/// max_name_length bytes and free of control characters; ranks at most max_rank.
inline void write_checkpoint(std::ostream& out, archive_format format, std::optional<std::int64_t> global_step,
                             std::span<const tensor_data_view> tensors) {
  detail::check_writable(tensors);
  const auto header = detail::header_of(global_step, tensors, format);
  if (format == archive_format::portable_binary) {
    detail::write_binary(out, header, tensors);
  } else {
    detail::write_json(out, header, tensors);
  }
}

}  // namespace typeflow::io
