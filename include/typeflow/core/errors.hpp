// typeflow/core/errors.hpp — run-time errors, one class per TensorFlow status code.
//
// Every message names the node, variable or file concerned. Catch `typeflow::error`
// for all of them, or the code you can handle.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace typeflow {

enum class error_code {
  cancelled = 1,
  unknown = 2,
  invalid_argument = 3,
  deadline_exceeded = 4,
  not_found = 5,
  already_exists = 6,
  failed_precondition = 9,
  aborted = 10,
  out_of_range = 11,
  unimplemented = 12,
  internal = 13,
  data_loss = 15,
};

constexpr std::string_view error_code_name(error_code c) noexcept {
  switch (c) {
    case error_code::cancelled: return "Cancelled";
    case error_code::unknown: return "Unknown";
    case error_code::invalid_argument: return "InvalidArgument";
    case error_code::deadline_exceeded: return "DeadlineExceeded";
    case error_code::not_found: return "NotFound";
    case error_code::already_exists: return "AlreadyExists";
    case error_code::failed_precondition: return "FailedPrecondition";
    case error_code::aborted: return "Aborted";
    case error_code::out_of_range: return "OutOfRange";
    case error_code::unimplemented: return "Unimplemented";
    case error_code::internal: return "Internal";
    case error_code::data_loss: return "DataLoss";
  }
  return "Unknown";
}

namespace core::detail {
/// "Code: message". Appended rather than `std::string(...) + ": " + message`: g++ 12 at -O2
/// reports a false -Warray-bounds in the moved temporaries of that chain (its libstdc++
/// `char_traits::copy`) in some translation units, among them those with a precompiled
/// <typeflow/typeflow.hpp>.
inline std::string what_of(error_code code, const std::string& message) {
  std::string what(error_code_name(code));
  what.append(": ").append(message);
  return what;
}
}  // namespace core::detail

/// Base of every typeflow run-time error; `what()` reads "Code: message".
class error : public std::runtime_error {
 public:
  error(error_code code, const std::string& message)
      : std::runtime_error(core::detail::what_of(code, message)),
        code_(code),
        message_(message) {}
  error_code code() const noexcept { return code_; }
  /// The message without the code prefix.
  const std::string& message() const noexcept { return message_; }

 private:
  error_code code_;
  std::string message_;
};

#define TYPEFLOW_DEFINE_ERROR(cls, code_value)                                  \
  class cls : public error {                                                    \
   public:                                                                      \
    explicit cls(const std::string& message) : error(code_value, message) {}    \
  };

TYPEFLOW_DEFINE_ERROR(cancelled_error, error_code::cancelled)
TYPEFLOW_DEFINE_ERROR(unknown_error, error_code::unknown)
TYPEFLOW_DEFINE_ERROR(invalid_argument_error, error_code::invalid_argument)
TYPEFLOW_DEFINE_ERROR(deadline_exceeded_error, error_code::deadline_exceeded)
TYPEFLOW_DEFINE_ERROR(not_found_error, error_code::not_found)
TYPEFLOW_DEFINE_ERROR(already_exists_error, error_code::already_exists)
TYPEFLOW_DEFINE_ERROR(failed_precondition_error, error_code::failed_precondition)
TYPEFLOW_DEFINE_ERROR(aborted_error, error_code::aborted)
TYPEFLOW_DEFINE_ERROR(out_of_range_error, error_code::out_of_range)
TYPEFLOW_DEFINE_ERROR(unimplemented_error, error_code::unimplemented)
TYPEFLOW_DEFINE_ERROR(internal_error, error_code::internal)
TYPEFLOW_DEFINE_ERROR(data_loss_error, error_code::data_loss)

#undef TYPEFLOW_DEFINE_ERROR

/// Throws the error class of `code` with `message` (an unknown code: unknown_error), e.g. to
/// raise in one process the error another one reported as its code and message.
[[noreturn]] inline void throw_error(error_code code, const std::string& message) {
  switch (code) {
    case error_code::cancelled: throw cancelled_error(message);
    case error_code::unknown: throw unknown_error(message);
    case error_code::invalid_argument: throw invalid_argument_error(message);
    case error_code::deadline_exceeded: throw deadline_exceeded_error(message);
    case error_code::not_found: throw not_found_error(message);
    case error_code::already_exists: throw already_exists_error(message);
    case error_code::failed_precondition: throw failed_precondition_error(message);
    case error_code::aborted: throw aborted_error(message);
    case error_code::out_of_range: throw out_of_range_error(message);
    case error_code::unimplemented: throw unimplemented_error(message);
    case error_code::internal: throw internal_error(message);
    case error_code::data_loss: throw data_loss_error(message);
  }
  throw unknown_error(message);
}

}  // namespace typeflow
