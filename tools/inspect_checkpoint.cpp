// typeflow-inspect-checkpoint: TensorFlow's inspect_checkpoint for typeflow checkpoints.
//
//   typeflow-inspect-checkpoint CHECKPOINT                   the manifest: name, dtype, shape
//   typeflow-inspect-checkpoint CHECKPOINT --tensor_name=W   W's values (verified by CRC32C)
//   typeflow-inspect-checkpoint CHECKPOINT --all_tensors     every tensor's values
//   typeflow-inspect-checkpoint CHECKPOINT --diff=OTHER      how CHECKPOINT differs from OTHER,
//                                                            a checkpoint or a manifest file
//
// The manifest is printed as "name<TAB>dtype<TAB>[dims]" lines after a '#' comment line, which
// is the manifest file format (io/manifest.hpp): `typeflow-inspect-checkpoint ckpt > model.manifest`
// writes one, and a program writes its session's with train::format_manifest(train::manifest_of(sess)).
// `--file_name=PATH` may replace the positional CHECKPOINT, as in TensorFlow.
//
// Exit status: 0 on success (and no difference for --diff), 1 when --diff finds differences,
// 2 on a usage error or an unreadable or corrupt file (the message is on stderr).
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <typeflow/io/checkpoint_format.hpp>
#include <typeflow/io/manifest.hpp>

namespace io = typeflow::io;

namespace {

constexpr std::string_view usage =
    "usage: typeflow-inspect-checkpoint CHECKPOINT [--tensor_name=NAME | --all_tensors | --diff=OTHER]\n"
    "  CHECKPOINT         a typeflow checkpoint (binary or JSON); or --file_name=CHECKPOINT\n"
    "  (no option)        print the manifest: name<TAB>dtype<TAB>[dims] per tensor\n"
    "  --tensor_name=NAME print the values of tensor NAME\n"
    "  --all_tensors      print the values of every tensor\n"
    "  --diff=OTHER       print how CHECKPOINT differs from OTHER (a checkpoint or a manifest\n"
    "                     file): 'missing' (in OTHER only), 'extra' (in CHECKPOINT only), 'shape',\n"
    "                     'dtype'; exit status 1 when they differ\n";

template <class T>
void print_value(std::ostream& out, T v) {
  if constexpr (std::is_same_v<T, bool>) {
    out << (v ? "true" : "false");
  } else if constexpr (std::is_floating_point_v<T>) {
    if (v != v) {
      out << "nan";
    } else {
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, v);
      out << std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
    }
  } else {
    out << static_cast<std::int64_t>(v);
  }
}

// Nested brackets by shape, as numpy prints arrays.
template <class T>
void print_nested(std::ostream& out, const unsigned char* data, const std::vector<std::uint64_t>& shape, std::size_t dim,
                  std::uint64_t& index) {
  if (dim == shape.size()) {
    T v;
    std::memcpy(&v, data + index * sizeof(T), sizeof(T));
    ++index;
    print_value(out, v);
    return;
  }
  out << "[";
  for (std::uint64_t i = 0; i < shape[dim]; ++i) {
    if (i) out << (dim + 1 == shape.size() ? ", " : ",\n" + std::string(dim + 1, ' '));
    print_nested<T>(out, data, shape, dim + 1, index);
  }
  out << "]";
}

void print_tensor(std::ostream& out, const io::tensor_info& t, const std::vector<unsigned char>& data) {
  out << "tensor_name:  " << t.name << " (" << typeflow::dtype_name(t.dtype) << ", " << t.shape_string() << ")\n";
  std::uint64_t index = 0;
  switch (t.dtype) {
    case typeflow::dtype::float32: print_nested<float>(out, data.data(), t.shape, 0, index); break;
    case typeflow::dtype::float64: print_nested<double>(out, data.data(), t.shape, 0, index); break;
    case typeflow::dtype::int32: print_nested<std::int32_t>(out, data.data(), t.shape, 0, index); break;
    case typeflow::dtype::int64: print_nested<std::int64_t>(out, data.data(), t.shape, 0, index); break;
    case typeflow::dtype::boolean: print_nested<bool>(out, data.data(), t.shape, 0, index); break;
  }
  out << "\n";
}

/// The manifest of a checkpoint, or of a manifest file when `path` is not a checkpoint.
std::vector<io::tensor_info> manifest_of(const std::string& path) {
  // Not a regular file (a directory, a FIFO): FailedPrecondition at once, never blocking.
  io::fd_input_buffer in(io::open_regular_file(path, "Manifest"));
  const int first = in.sgetc();
  // A checkpoint starts with cereal's endianness byte (binary) or '{' (JSON).
  if (first == 1 || first == '{') return io::list_tensors(path);
  std::string text;
  char buf[4096];
  for (std::streamsize n; (n = in.sgetn(buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  return io::parse_manifest(text, path);
}

int run(int argc, char** argv) {
  std::optional<std::string> file, tensor, diff;
  bool all = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    } else if (a.rfind("--file_name=", 0) == 0) {
      file = std::string(a.substr(12));
    } else if (a.rfind("--tensor_name=", 0) == 0) {
      tensor = std::string(a.substr(14));
    } else if (a == "--all_tensors") {
      all = true;
    } else if (a.rfind("--diff=", 0) == 0) {
      diff = std::string(a.substr(7));
    } else if (!a.empty() && a.front() != '-' && !file) {
      file = std::string(a);
    } else {
      std::cerr << "typeflow-inspect-checkpoint: unknown argument '" << a << "'\n" << usage;
      return 2;
    }
  }
  if (!file || (int(all) + int(tensor.has_value()) + int(diff.has_value())) > 1) {
    std::cerr << usage;
    return 2;
  }

  if (diff) {
    const auto d = io::diff_manifests(manifest_of(*diff), io::list_tensors(*file));
    std::cout << d.to_string();
    return d.empty() ? 0 : 1;
  }

  io::checkpoint_reader reader(*file);
  const auto& h = reader.header();
  if (!tensor && !all) {
    std::cout << "# typeflow checkpoint " << *file << ": format " << h.format_major << "." << h.format_minor << ", "
              << (h.format == io::archive_format::json ? "JSON" : "portable binary") << ", "
              << (h.global_step ? "global step " + std::to_string(*h.global_step) : std::string("no global step"))
              << ", " << h.tensors.size() << " tensors\n"
              << io::format_manifest(h.tensors);
    return 0;
  }
  if (tensor && !h.find(*tensor)) {
    std::cerr << "typeflow-inspect-checkpoint: tensor " << *tensor << " not found in checkpoint " << *file << "\n";
    return 2;
  }
  std::vector<std::vector<unsigned char>> data(h.tensors.size());
  reader.read_tensors([&](const io::tensor_info& t, std::size_t i) -> void* {
    if (tensor && t.name != *tensor) return nullptr;
    data[i].resize(static_cast<std::size_t>(t.num_bytes()) + 1);
    return data[i].data();
  });
  for (std::size_t i = 0; i < h.tensors.size(); ++i)
    if (!tensor || h.tensors[i].name == *tensor) print_tensor(std::cout, h.tensors[i], data[i]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "typeflow-inspect-checkpoint: " << e.what() << "\n";
    return 2;
  }
}
