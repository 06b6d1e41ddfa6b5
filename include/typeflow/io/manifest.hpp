// typeflow/io/manifest.hpp — a checkpoint's manifest as text, and the difference of two
// manifests.
//
// A manifest file has one tensor per line, "name<TAB>dtype<TAB>shape", e.g.
//   layer1/w	float32	[784, 128]
// with '#' comment lines; tools/inspect_checkpoint prints a checkpoint's manifest in this
// format and diffs a checkpoint against a manifest file or another checkpoint.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/io/checkpoint_format.hpp"

namespace typeflow::io {

/// "name\tdtype\t[d0, d1]\n" per tensor.
inline std::string format_manifest(const std::vector<tensor_info>& tensors) {
  std::string out;
  for (const auto& t : tensors) out += t.name + "\t" + std::string(dtype_name(t.dtype)) + "\t" + t.shape_string() + "\n";
  return out;
}

/// Parses a manifest file's text; `where` names it in errors (InvalidArgument).
inline std::vector<tensor_info> parse_manifest(std::string_view text, const std::string& where) {
  std::vector<tensor_info> out;
  std::size_t line_no = 0;
  auto fail = [&](const std::string& why) {
    throw invalid_argument_error("Manifest " + where + ", line " + std::to_string(line_no) + ": " + why);
  };
  while (!text.empty()) {
    const auto eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto tab1 = line.find('\t');
    const auto tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string_view::npos) fail("expected 'name<TAB>dtype<TAB>[dims]'");
    tensor_info t;
    t.name = std::string(line.substr(0, tab1));
    if (auto p = detail::name_problem(t.name); !p.empty()) fail(p);
    const auto d = detail::dtype_from_name(line.substr(tab1 + 1, tab2 - tab1 - 1));
    if (!d) fail("unknown dtype '" + std::string(line.substr(tab1 + 1, tab2 - tab1 - 1)) + "'");
    t.dtype = *d;
    auto shape = line.substr(tab2 + 1);
    if (shape.size() < 2 || shape.front() != '[' || shape.back() != ']') fail("the shape must be written [d0, d1, ...]");
    shape = shape.substr(1, shape.size() - 2);
    while (!shape.empty()) {
      while (!shape.empty() && shape.front() == ' ') shape.remove_prefix(1);
      std::uint64_t dim = 0;
      const auto r = std::from_chars(shape.data(), shape.data() + shape.size(), dim);
      if (r.ec != std::errc{}) fail("bad dimension in the shape");
      t.shape.push_back(dim);
      if (t.shape.size() > max_rank) fail("rank above " + std::to_string(max_rank));
      shape.remove_prefix(static_cast<std::size_t>(r.ptr - shape.data()));
      while (!shape.empty() && shape.front() == ' ') shape.remove_prefix(1);
      if (!shape.empty()) {
        if (shape.front() != ',') fail("dimensions are separated by ','");
        shape.remove_prefix(1);
      }
    }
    if (std::any_of(out.begin(), out.end(), [&](const auto& o) { return o.name == t.name; }))
      fail("the tensor " + t.name + " is listed twice");
    out.push_back(std::move(t));
  }
  return out;
}

/// What differs between the tensors expected (a session's variables, a manifest) and
/// a checkpoint's.
struct checkpoint_diff {
  std::vector<std::string> missing;           // expected, not in the checkpoint
  std::vector<std::string> extra;             // in the checkpoint, not expected
  std::vector<std::string> shape_mismatches;  // "w: expected [3], checkpoint [2]"
  std::vector<std::string> dtype_mismatches;  // "w: expected float32, checkpoint int32"
  bool empty() const noexcept {
    return missing.empty() && extra.empty() && shape_mismatches.empty() && dtype_mismatches.empty();
  }
  /// One line per difference: "missing w", "extra v", "shape w: ...", "dtype w: ...".
  std::string to_string() const {
    std::string out;
    for (const auto& m : missing) out += "missing " + m + "\n";
    for (const auto& e : extra) out += "extra " + e + "\n";
    for (const auto& s : shape_mismatches) out += "shape " + s + "\n";
    for (const auto& d : dtype_mismatches) out += "dtype " + d + "\n";
    return out;
  }
};

/// Compares an expected manifest with a checkpoint's (`actual`).
inline checkpoint_diff diff_manifests(const std::vector<tensor_info>& expected, const std::vector<tensor_info>& actual) {
  checkpoint_diff d;
  for (const auto& e : expected) {
    const auto it = std::find_if(actual.begin(), actual.end(), [&](const auto& a) { return a.name == e.name; });
    if (it == actual.end()) {
      d.missing.push_back(e.name);
      continue;
    }
    if (it->shape != e.shape)
      d.shape_mismatches.push_back(e.name + ": expected " + e.shape_string() + ", checkpoint " + it->shape_string());
    if (it->dtype != e.dtype)
      d.dtype_mismatches.push_back(e.name + ": expected " + std::string(dtype_name(e.dtype)) + ", checkpoint " +
                                   std::string(dtype_name(it->dtype)));
  }
  for (const auto& a : actual)
    if (std::none_of(expected.begin(), expected.end(), [&](const auto& e) { return e.name == a.name; }))
      d.extra.push_back(a.name);
  return d;
}

}  // namespace typeflow::io
