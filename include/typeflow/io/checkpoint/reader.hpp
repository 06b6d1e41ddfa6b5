// typeflow/io/checkpoint/reader.hpp — opens a checkpoint (a file or bytes in memory), tells
// its form by its first byte, reads and validates its header, and hands out its tensors'
// data, each checked against its CRC32C; list_tensors and load_all on top of it.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include <cereal/cereal.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint/binary.hpp"
#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/io/checkpoint/json.hpp"
#include "typeflow/io/file.hpp"

namespace typeflow::io {

/// Reads a checkpoint: the header when constructed, the tensors' data on request.
class checkpoint_reader {
 public:
  /// Opens the checkpoint file at `path` and reads its header. A path that is not a
  /// regular file (a directory, a FIFO, ...) is FailedPrecondition at once, naming it.
  explicit checkpoint_reader(const std::filesystem::path& path) : path_(path.string()) {
    struct ::stat st {};
    const int fd = open_regular_file(path, "Checkpoint", &st);
    file_ = std::make_unique<fd_input_buffer>(fd);
    init(*file_, static_cast<std::uint64_t>(st.st_size));
  }

  /// Reads a checkpoint held in memory; the bytes must outlive the reader.
  checkpoint_reader(const void* data, std::size_t size, std::string name = "<memory>") : path_(std::move(name)) {
    memory_ = std::make_unique<memory_input_buffer>(data, size);
    memory_data_ = static_cast<const unsigned char*>(data);
    memory_size_ = size;
    init(*memory_, size);
  }

  checkpoint_reader(const checkpoint_reader&) = delete;
  checkpoint_reader& operator=(const checkpoint_reader&) = delete;

  const checkpoint_header& header() const noexcept { return header_; }
  const std::string& path() const noexcept { return path_; }

  /// Reads the tensors' data, in header order: `dest(info, index)` returns where to put
  /// info.num_bytes() bytes (native-endian elements), or nullptr to skip the tensor.
  /// Every tensor read is checked against its CRC32C (DataLoss naming it on mismatch);
  /// bool tensors must hold only 0 and 1. Can be called once.
  template <class Dest>
  void read_tensors(Dest&& dest) {
    if (data_read_) throw failed_precondition_error("The tensors of checkpoint " + path_ + " were read already");
    data_read_ = true;
    try {
      if (header_.format == archive_format::json) {
        read_json_tensors(dest);
      } else {
        read_binary_tensors(dest);
      }
    } catch (const cereal::Exception& e) {
      detail::throw_corrupt(path_, std::string("unexpected end of data (") + e.what() + ")");
    }
  }

  /// Whether verify_in_place can be used: a binary checkpoint held in memory (or a
  /// mapping) on a little-endian machine, whose tensors have not been read.
  bool can_verify_in_place() const noexcept {
    return memory_data_ != nullptr && header_.format == archive_format::portable_binary && detail::little_endian_host &&
           !data_read_;
  }

  /// Where one tensor's data lies in the reader's memory, checked against its CRC32C.
  using tensor_in_place = io::tensor_in_place;

  /// Checks, without copying, the data of every tensor for which `select(info, index)` is
  /// true, where it lies in memory: its byte count, its CRC32C (DataLoss naming it on
  /// mismatch) and, for bool tensors, that it holds only 0 and 1; the whole data section is
  /// walked (bounded by the bytes left, as read_tensors does). Returns, in header order,
  /// where each selected tensor's bytes are (little-endian elements, which are native
  /// here). Needs can_verify_in_place(); counts as reading the tensors (once).
  template <class Select>
  std::vector<tensor_in_place> verify_in_place(Select&& select) {
    if (!can_verify_in_place())
      throw failed_precondition_error("The tensors of checkpoint " + path_ + " cannot be verified in place");
    data_read_ = true;
    return binary_->verify_in_place(header_, memory_data_, memory_size_, select);
  }

 private:
  void init(std::streambuf& sb, std::uint64_t size) {
    try {
      // The first non-blank byte tells the archive: '{' is JSON, 1 the binary format.
      int first = sb.sgetc();
      if (first == '{' || first == ' ' || first == '\n' || first == '\t' || first == '\r') {
        json_ = detail::json_checkpoint_reader(path_).read(sb, size);
        header_ = std::move(json_.header);
        stored_step_ = json_.stored_step;
      } else {
        binary_ = std::make_unique<detail::binary_checkpoint_reader>(sb, size, path_);
        binary_->read_header(header_, stored_step_);
      }
    } catch (const cereal::Exception& e) {
      detail::throw_corrupt(path_, std::string("bad header (") + e.what() + ")");
    }
  }

  template <class Dest>
  void read_binary_tensors(Dest& dest) {
    binary_->read_tensors(header_, dest);
  }

  template <class Dest>
  void read_json_tensors(Dest& dest) {
    for (std::size_t i = 0; i < header_.tensors.size(); ++i) {
      const auto& t = header_.tensors[i];
      void* out = dest(static_cast<const tensor_info&>(t), i);
      if (out == nullptr) continue;
      const auto& data = json_.data[i];
      const auto crc = detail::crc_of_native(data.data(), data.size(), t.dtype);
      if (crc != json_.crcs[i])
        throw data_loss_error("Checksum does not match for tensor " + t.name + " in checkpoint " + path_ +
                              ": stored " + std::to_string(json_.crcs[i]) + ", computed " + std::to_string(crc));
      if (!data.empty()) std::memcpy(out, data.data(), data.size());
      detail::check_bools(path_, t, data.data());
    }
  }

  std::string path_;
  checkpoint_header header_;
  std::int64_t stored_step_ = 0;  // the global-step field as stored, also when unused
  std::unique_ptr<fd_input_buffer> file_;
  std::unique_ptr<memory_input_buffer> memory_;
  const unsigned char* memory_data_ = nullptr;
  std::size_t memory_size_ = 0;
  std::unique_ptr<detail::binary_checkpoint_reader> binary_;
  bool data_read_ = false;
  detail::json_checkpoint json_;  // the JSON form's data, read with the header
};

/// The manifest of the checkpoint at `path`: every tensor's name, dtype and shape, in
/// file order (tf.train.list_variables). Reads the header only.
inline std::vector<tensor_info> list_tensors(const std::filesystem::path& path) {
  return checkpoint_reader(path).header().tensors;
}

/// Reads and verifies every tensor of a checkpoint into memory (for tools and tests):
/// the header and each tensor's native-endian bytes.
struct loaded_checkpoint {
  checkpoint_header header;
  std::vector<std::vector<unsigned char>> data;
};
inline loaded_checkpoint load_all(checkpoint_reader& reader) {
  loaded_checkpoint out;
  out.header = reader.header();
  out.data.resize(out.header.tensors.size());
  reader.read_tensors([&](const tensor_info& t, std::size_t i) -> void* {
    out.data[i].resize(static_cast<std::size_t>(t.num_bytes()));
    return out.data[i].data();
  });
  return out;
}

}  // namespace typeflow::io
