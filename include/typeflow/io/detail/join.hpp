// typeflow/io/detail/join.hpp — a list of names in a diagnostic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace typeflow::io::detail {

/// The strings of `v`, separated by `sep`.
inline std::string join(const std::vector<std::string>& v, std::string_view sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

}  // namespace typeflow::io::detail
