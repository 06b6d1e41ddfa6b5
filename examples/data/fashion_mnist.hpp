// examples/data/fashion_mnist.hpp — reads Fashion-MNIST's IDX files (gzip), as Debian's
// dataset-fashion-mnist package installs them in /usr/share/datasets/fashion-mnist.
// Shared by the examples and the benchmarks; not part of the library.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace fashion_mnist {

struct split {
  std::vector<float> images;          // n x 784, scaled to [0, 1]
  std::vector<std::int32_t> labels;   // n, in [0, 10)
  std::size_t size() const { return labels.size(); }
};

/// The dataset's directory: $FASHION_MNIST_DIR, or Debian's location.
inline std::string default_directory() {
  if (const char* d = std::getenv("FASHION_MNIST_DIR")) return d;
  return "/usr/share/datasets/fashion-mnist";
}

namespace detail {
inline std::vector<unsigned char> read_gz(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path + " (install the Debian package dataset-fashion-mnist)");
  std::vector<unsigned char> out;
  unsigned char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.insert(out.end(), buf, buf + n);
  const bool failed = n < 0;
  gzclose(f);
  if (failed) throw std::runtime_error("cannot decompress " + path);
  return out;
}
inline std::uint32_t be32(const std::vector<unsigned char>& b, std::size_t at) {
  if (at + 4 > b.size()) throw std::runtime_error("truncated IDX header");
  return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) | (std::uint32_t(b[at + 2]) << 8) | b[at + 3];
}
}  // namespace detail

/// Loads "train" or "t10k" images and labels, checking the IDX headers and sizes.
inline split load(const std::string& which, const std::string& dir = default_directory()) {
  const auto images = detail::read_gz(dir + "/" + which + "-images-idx3-ubyte.gz");
  const auto labels = detail::read_gz(dir + "/" + which + "-labels-idx1-ubyte.gz");
  if (detail::be32(images, 0) != 0x00000803 || detail::be32(labels, 0) != 0x00000801)
    throw std::runtime_error("not IDX image/label files in " + dir);
  const std::size_t n = detail::be32(images, 4);
  if (detail::be32(labels, 4) != n || detail::be32(images, 8) != 28 || detail::be32(images, 12) != 28 ||
      images.size() != 16 + n * 784 || labels.size() != 8 + n)
    throw std::runtime_error("inconsistent IDX sizes in " + dir);
  split s;
  s.images.resize(n * 784);
  s.labels.resize(n);
  for (std::size_t i = 0; i < n * 784; ++i) s.images[i] = images[16 + i] / 255.0f;
  for (std::size_t i = 0; i < n; ++i) {
    s.labels[i] = labels[8 + i];
    if (s.labels[i] > 9) throw std::runtime_error("label out of range in " + dir);
  }
  return s;
}

}  // namespace fashion_mnist
