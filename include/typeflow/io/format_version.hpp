// typeflow/io/format_version.hpp — the rule every reader of a typeflow file format follows:
// read every version of its own major version and older, refuse a newer major version.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace typeflow::io {

/// Throws Error ("<what> <path> has format version 2.0, newer than this typeflow reads (1.x):
/// upgrade typeflow to read it") when the file's major version is newer than `readable_major`;
/// a newer minor version is read (it only adds what older readers may ignore).
template <class Error>
void refuse_newer_major_version(std::string_view what, const std::string& path, std::uint32_t major,
                                std::uint32_t minor, std::uint32_t readable_major) {
  if (major > readable_major)
    throw Error(std::string(what) + " " + path + " has format version " + std::to_string(major) + "." +
                std::to_string(minor) + ", newer than this typeflow reads (" + std::to_string(readable_major) +
                ".x): upgrade typeflow to read it");
}

}  // namespace typeflow::io
