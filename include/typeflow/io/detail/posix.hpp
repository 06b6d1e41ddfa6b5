// typeflow/io/detail/posix.hpp — errno as text, fsync retried on EINTR.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace typeflow::io {

namespace detail {

inline std::string errno_text(int e) { return std::strerror(e); }

inline int retry_fsync(int fd) {
  int r;
  do {
    r = ::fsync(fd);
  } while (r != 0 && errno == EINTR);
  return r;
}

}  // namespace detail

}  // namespace typeflow::io
