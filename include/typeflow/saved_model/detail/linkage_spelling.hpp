// typeflow/saved_model/detail/linkage_spelling.hpp — a type's mangled name as a translation
// unit of external linkage spells it, whether or not <typeflow/tu_local.hpp> was included:
// what node fingerprints hash (saved_model/signature.hpp), so that both modes agree on files.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace typeflow::saved_model {

namespace detail {
/// A type name mangled in a translation unit that includes <typeflow/tu_local.hpp>, spelled
/// as one that does not spells it, so that both agree on fingerprints: there, typeflow is
/// `(anonymous namespace)::typeflow` ("N12_GLOBAL__N_18typeflow..." for "N8typeflow..."),
/// and the unnamed namespace is the name's first substitution candidate, so each
/// substitution `S<seq-id>_` refers to the candidate one further on. Source names (length
/// and characters), literals of builtin types ("Lc65E"), arrays ("A5_") and template
/// parameters ("T0_") are copied as they are. Any other name is returned unchanged.
inline std::string default_linkage_spelling(std::string_view name) {
  constexpr std::string_view local = "N12_GLOBAL__N_18typeflow", global = "N8typeflow";
  if (!name.empty() && name.front() == '*') name.remove_prefix(1);
  if (!name.starts_with(local)) return std::string(name);
  constexpr std::string_view base36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const auto is_seq_char = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); };
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string out(global);
  std::size_t i = local.size();
  const std::size_t n = name.size();
  while (i < n) {
    const char c = name[i];
    std::size_t j = i + 1;
    if (is_digit(c)) {  // a source name, or a number closed by 'E' (an enumerator's value)
      j = i;
      std::size_t length = 0;
      while (j < n && is_digit(name[j])) length = length * 10 + std::size_t(name[j++] - '0');
      if (j < n && name[j] != 'E') j = std::min(n, j + length);
    } else if (c == 'L' && j < n && name[j] >= 'a' && name[j] <= 'z') {  // a builtin type's literal
      while (j < n && name[j] != 'E') ++j;
      j = std::min(n, j + 1);
    } else if ((c == 'A' || c == 'T') && j < n) {  // an array bound, a template parameter
      std::size_t k = j;
      while (k < n && (c == 'A' ? is_digit(name[k]) : is_seq_char(name[k]))) ++k;
      if (k < n && name[k] == '_') j = k + 1;
    } else if (c == 'S' && j < n) {  // a substitution: its candidate's number, one less
      std::size_t k = j, index = 0;
      while (k < n && is_seq_char(name[k])) index = index * 36 + base36.find(name[k++]);
      if (k < n && name[k] == '_') {
        if (k > j) {  // "S_" is candidate 0, "S<id>_" candidate id + 1; 0 is the unnamed namespace
          out += 'S';
          if (index > 0) {
            std::string id;
            for (std::size_t v = index - 1;; v /= 36) {
              id.insert(id.begin(), base36[v % 36]);
              if (v < 36) break;
            }
            out += id;
          }
          out += '_';
          i = k + 1;
          continue;
        }
        j = k + 1;
      }
    }
    out.append(name.substr(i, j - i));
    i = j;
  }
  return out;
}
}  // namespace detail

}  // namespace typeflow::saved_model
