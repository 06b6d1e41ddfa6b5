// The chief's duties on 2 ranks: only rank 0 writes checkpoints and exports saved models,
// every rank learning the outcome (the path, or the chief's error); a restore on the chief
// is broadcast, leaving the ranks bit-identical; a restore that fails on the chief (missing
// or corrupt file) throws the same error on every rank and changes no variable on any.
//
// CHECK, not REQUIRE: a test case that stops early on one rank would leave the other
// waiting in a collective call.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <typeflow/distributed/chief.hpp>
#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/saved_model/builder.hpp>
#include <typeflow/typeflow.hpp>

#include "mpi_main.hpp"
#include "small_model.hpp"

namespace tf = typeflow;
namespace fs = std::filesystem;

namespace {
// A directory for the job, made by the chief and named on every rank (run_on_chief returns
// the chief's result to all); removed by the chief.
struct job_directory {
  explicit job_directory(const tf::distributed::communicator& comm) : comm_(comm) {
    path = tf::distributed::run_on_chief(comm, [] {
      std::string name = (fs::temp_directory_path() / "typeflow_chief_XXXXXX").string();
      if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
      return name;
    });
  }
  ~job_directory() {
    try {
      comm_.barrier();  // every rank is done with it
    } catch (const tf::error&) {
      // The job is failing; the directory is left for inspection.
      return;
    }
    if (comm_.is_chief()) fs::remove_all(path);
  }
  const tf::distributed::communicator& comm_;
  fs::path path;
};

// Every file under dir, relative to it.
std::vector<std::string> files_under(const fs::path& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
  return out;
}
}  // namespace

TEST_CASE("only the chief writes checkpoints and exports saved models; every rank learns the outcome") {
  tf::distributed::communicator comm(MPI_COMM_WORLD, std::chrono::seconds(10));
  job_directory job(comm);
  auto [x, y, w, b, loss] = typeflow_test::small_model();
  auto probs = tf::softmax(tf::matmul(x, w) + b);
  auto step = tf::train::global_step();
  tf::session sess(loss, probs, step);
  sess.run(tf::global_variables_initializer());
  sess.slot<decltype(step)>().value = 3;
  tf::train::saver saver{};

  // Each rank names a directory of its own: only the chief's gets a checkpoint.
  const fs::path mine = job.path / ("rank" + std::to_string(comm.rank()));
  fs::create_directories(mine);
  // [snippet save_on_chief]
  const std::string path = tf::distributed::save_on_chief(saver, sess, comm, mine / "model.ckpt", step);
  // [/snippet save_on_chief]
  CHECK(path == (job.path / "rank0" / "model.ckpt-3").string());  // the chief's path, on every rank
  if (comm.is_chief()) {
    CHECK(fs::is_regular_file(path));
    CHECK(fs::is_regular_file(mine / "checkpoint"));
  } else {
    CHECK(files_under(mine).empty());
    CHECK(saver.last_checkpoints().empty());
  }

  // [snippet export_on_chief]
  tf::distributed::run_on_chief(comm, [&] {
    tf::saved_model::simple_save(sess, mine / "export", tf::saved_model::inputs<"features">(x),
                                 tf::saved_model::outputs<"probs">(probs));
  });
  // [/snippet export_on_chief]
  CHECK(fs::exists(mine / "export") == comm.is_chief());

  // The chief's failure, on every rank: its parent directory is missing.
  std::string message;
  try {
    tf::distributed::save_on_chief(saver, sess, comm, mine / "missing" / "model.ckpt", 4);
  } catch (const tf::not_found_error& e) {
    message = e.message();
  }
  CHECK(message == "Parent directory of " + (job.path / "rank0" / "missing" / "model.ckpt-4").string() +
                       " doesn't exist, can't save");
}

TEST_CASE("run_on_chief runs on rank 0 only and raises the chief's error everywhere") {
  tf::distributed::communicator comm(MPI_COMM_WORLD, std::chrono::seconds(10));
  int runs = 0;
  tf::distributed::run_on_chief(comm, [&] { ++runs; });
  CHECK(runs == (comm.is_chief() ? 1 : 0));
  CHECK_THROWS_WITH_AS(tf::distributed::run_on_chief(comm, [] { throw tf::out_of_range_error("past the end"); }),
                       "OutOfRange: past the end", tf::out_of_range_error);
  // Another exception: the chief's own, the others' an Unknown error with its what().
  if (comm.is_chief()) {
    CHECK_THROWS_WITH_AS(tf::distributed::run_on_chief(comm, [] { throw std::runtime_error("disk full"); }),
                         "disk full", std::runtime_error);
  } else {
    CHECK_THROWS_WITH_AS(tf::distributed::run_on_chief(comm, [] { throw std::runtime_error("disk full"); }),
                         "Unknown: disk full", tf::unknown_error);
  }
  CHECK(tf::distributed::run_on_chief(comm, [&] { return "rank " + std::to_string(comm.rank()); }) == "rank 0");
}

TEST_CASE("a restore on the chief is broadcast; a failed one throws everywhere and changes nothing") {
  tf::distributed::communicator comm(MPI_COMM_WORLD, std::chrono::seconds(10));
  job_directory job(comm);
  auto [x, y, w, b, loss] = typeflow_test::small_model();
  tf::session sess(loss);
  sess.run(tf::global_variables_initializer());
  tf::train::saver saver{};
  const std::string path = tf::distributed::save_on_chief(saver, sess, comm, job.path / "model.ckpt");
  const auto saved = tf::distributed::variables_checksum(sess);

  // The ranks drift apart; the restore on the chief brings every rank back to the file.
  sess.slot<decltype(w)>().value += static_cast<float>(1 + comm.rank());
  sess.slot<decltype(b)>().value -= static_cast<float>(comm.rank());
  // [snippet restore_on_chief]
  tf::distributed::restore(saver, sess, comm, path);
  // [/snippet restore_on_chief]
  CHECK(tf::distributed::check_replicas_identical(sess, comm) == saved);

  // Failures: the ranks differ first, so that a broadcast would show.
  sess.slot<decltype(w)>().value += static_cast<float>(comm.rank());
  const auto before = tf::distributed::variables_checksum(sess);
  const std::string absent = (job.path / "absent.ckpt").string();
  CHECK_THROWS_WITH_AS(tf::distributed::restore(saver, sess, comm, absent), doctest::Contains(absent.c_str()),
                       tf::not_found_error);
  CHECK(tf::distributed::variables_checksum(sess) == before);

  const fs::path corrupt = job.path / "corrupt.ckpt";
  if (comm.is_chief()) {
    fs::copy_file(path, corrupt);
    std::fstream f(corrupt, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(corrupt) - 5));
    f.put('\x55');
  }
  std::string messages[2];
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      tf::distributed::restore(saver, sess, comm, corrupt);
    } catch (const tf::data_loss_error& e) {
      messages[attempt] = e.message();
    }
  }
  CHECK(messages[0].find(corrupt.string()) != std::string::npos);
  CHECK(messages[0] == messages[1]);
  // The chief's message, on every rank.
  CHECK(tf::distributed::run_on_chief(comm, [&] { return messages[0]; }) == messages[0]);
  CHECK(tf::distributed::variables_checksum(sess) == before);
}

int main(int argc, char** argv) { return typeflow_test::run_tests_on_every_rank(argc, argv); }
