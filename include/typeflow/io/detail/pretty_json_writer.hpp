// typeflow/io/detail/pretty_json_writer.hpp — JSON text laid out as cereal's JSON archive
// wrote it, for the JSON form of checkpoints (io/checkpoint/json.hpp).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/io/json.hpp"

namespace typeflow::io::detail {

/// JSON text in the layout cereal's JSON archive wrote (4 spaces a level, one value a line,
/// "[]" for an empty array), written to a stream a megabyte at a time.
class pretty_json_writer {
 public:
  explicit pretty_json_writer(std::ostream& out) : out_(out) {}

  void key(std::string_view k) {
    next_item();
    write_json_string(buf_, k);
    buf_ += ": ";
    after_key_ = true;
  }
  void open(char bracket) {
    next_item();
    buf_ += bracket;
    empty_.push_back(true);
  }
  void close(char bracket) {
    const bool empty = empty_.back();
    empty_.pop_back();
    if (!empty) {
      buf_ += '\n';
      buf_.append(4 * empty_.size(), ' ');
    }
    buf_ += bracket;
    if (buf_.size() >= io_chunk) flush();
  }
  void string(std::string_view v) {
    next_item();
    write_json_string(buf_, v);
  }
  void number(double v) {
    next_item();
    write_json_number(buf_, v);
  }
  template <class Int>
  void integer(Int v) {
    next_item();
    buf_ += std::to_string(v);
  }
  void boolean(bool v) {
    next_item();
    buf_ += v ? "true" : "false";
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  // Before a value or a key: a comma after the previous item, a new line, the indentation.
  void next_item() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (empty_.empty()) return;
    buf_ += empty_.back() ? "\n" : ",\n";
    empty_.back() = false;
    buf_.append(4 * empty_.size(), ' ');
  }

  std::ostream& out_;
  std::string buf_;
  std::vector<bool> empty_;  // per open object or array: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace typeflow::io::detail
