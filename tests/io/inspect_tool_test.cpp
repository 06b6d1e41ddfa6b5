// tools/inspect_checkpoint: the manifest, tensor values, diffs, and its exit statuses, run
// on the fuzz corpus's checkpoints (tests/fuzz/corpus/).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "../support/checkpoint_testing.hpp"

namespace {

struct result {
  int status;
  std::string out;
};

result inspect(const std::string& args) {
  // Appended piece by piece: g++ 12 at -O2 warns falsely (-Warray-bounds) on a + b + c.
  std::string cmd = TYPEFLOW_INSPECT_TOOL;
  cmd += ' ';
  cmd += args;
  cmd += " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

const std::string corpus = TYPEFLOW_FUZZ_CORPUS;

}  // namespace

TEST_CASE("inspect_checkpoint: prints the manifest, which is a manifest file") {
  const auto r = inspect(corpus + "/valid_binary");
  CHECK(r.status == 0);
  CHECK(r.out.find("format 1.0, portable binary, global step 42, 5 tensors\n") != std::string::npos);
  CHECK(r.out.find("\nlayer1/w\tfloat32\t[2, 3]\nlayer1/b\tfloat64\t[2]\nglobal_step\tint32\t[]\nbig\tint64\t[3]\n"
                   "flags\tbool\t[2]\n") != std::string::npos);
  CHECK(inspect("--file_name=" + corpus + "/valid_json").out.find("JSON, global step 42") != std::string::npos);
}

TEST_CASE("inspect_checkpoint: prints a tensor's values, or every tensor's") {
  auto r = inspect(corpus + "/valid_binary --tensor_name=layer1/w");
  CHECK(r.status == 0);
  CHECK(r.out == "tensor_name:  layer1/w (float32, [2, 3])\n[[1.5, -2.25, 0],\n [inf, 3, 1e-30]]\n");
  r = inspect(corpus + "/valid_json --all_tensors");
  CHECK(r.out.find("tensor_name:  flags (bool, [2])\n[true, false]\n") != std::string::npos);
  CHECK(r.out.find("tensor_name:  global_step (int32, [])\n42\n") != std::string::npos);
  CHECK(inspect(corpus + "/valid_binary --tensor_name=nope").status == 2);
}

TEST_CASE("inspect_checkpoint: diffs a checkpoint against another checkpoint or a manifest file") {
  CHECK(inspect(corpus + "/valid_binary --diff=" + corpus + "/valid_json").status == 0);
  auto r = inspect(corpus + "/valid_binary_nans --diff=" + corpus + "/valid_binary");
  CHECK(r.status == 1);
  CHECK(r.out == "extra nans\n");
  ckpt_testing::temp_dir dir;
  ckpt_testing::write_file(dir / "model.manifest",
                           "# expected by the model\nlayer1/w\tfloat32\t[3, 2]\nlayer1/b\tfloat32\t[2]\nnew/v\tint64\t[]\n");
  r = inspect(corpus + "/valid_binary --diff=" + dir / "model.manifest");
  CHECK(r.status == 1);
  CHECK(r.out ==
        "missing new/v\nextra global_step\nextra big\nextra flags\nshape layer1/w: expected [3, 2], checkpoint [2, 3]\n"
        "dtype layer1/b: expected float32, checkpoint float64\n");
}

TEST_CASE("inspect_checkpoint: a corrupt file, a missing file or bad arguments exit with status 2") {
  CHECK(inspect(corpus + "/bitflip_data --all_tensors").status == 2);
  CHECK(inspect(corpus + "/truncated_header").status == 2);
  CHECK(inspect("/nonexistent/ckpt").status == 2);
  CHECK(inspect("").status == 2);
  CHECK(inspect(corpus + "/valid_binary --bogus").status == 2);
  CHECK(inspect("--help").status == 0);
}

TEST_CASE("inspect_checkpoint: a directory or a FIFO, as the checkpoint or the manifest, exits with status 2 at once") {
  ::alarm(20);  // a FIFO opened for reading without O_NONBLOCK would block: fail instead
  ckpt_testing::temp_dir dir;
  std::filesystem::create_directory(dir / "directory");
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
  CHECK(inspect(dir / "directory").status == 2);
  CHECK(inspect(dir / "fifo").status == 2);
  CHECK(inspect(corpus + "/valid_binary --diff=" + dir / "fifo").status == 2);
  CHECK(inspect(corpus + "/valid_binary --diff=" + dir / "directory").status == 2);
  ::alarm(0);
}
