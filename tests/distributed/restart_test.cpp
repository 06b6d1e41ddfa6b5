// Exact restart on 2 ranks: a job trained 12 steps without interruption, and a job trained
// 5 steps, checkpointed by the chief, "restarted" (new sessions on every rank, initialized
// differently on each), restored from the chief's checkpoint with the broadcast, and trained
// the remaining 7 steps, end bit-identical: variables, Adam's slots and powers, global step.
// Each rank's batch is chosen from the global step, so the data's position is part of the
// checkpoint.
//
// CHECK, not REQUIRE: a test case that stops early on one rank would leave the other
// waiting in a collective call.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include <typeflow/distributed/chief.hpp>
#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

#include "mpi_main.hpp"
#include "small_model.hpp"

namespace tf = typeflow;
namespace fs = std::filesystem;

TEST_CASE("a job restarted from the chief's checkpoint ends as the uninterrupted job") {
  constexpr std::int64_t total_steps = 12;
  constexpr std::int64_t steps_before_restart = 5;
  tf::distributed::communicator comm(MPI_COMM_WORLD, std::chrono::seconds(10));
  const fs::path dir = tf::distributed::run_on_chief(comm, [] {
    std::string name = (fs::temp_directory_path() / "typeflow_restart_XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    return name;
  });

  auto [x, y, w, b, loss] = typeflow_test::small_model();
  auto global_step = tf::train::global_step();
  auto train_op = tf::distributed::sync_replicas(tf::train::adam(0.05), comm).minimize(loss, global_step);
  // A new job's sessions on every rank: initialized, made different on rank 1 (a restart
  // need not reproduce the first start), bound to comm.
  auto start = [&] {
    auto sess = std::make_unique<decltype(tf::session(train_op, global_step))>(train_op, global_step);
    tf::distributed::bind(*sess, comm);
    sess->run(tf::global_variables_initializer());
    sess->template slot<decltype(w)>().value += static_cast<float>(comm.rank());
    return sess;
  };
  // Trains until the global step reaches `until`, each rank feeding its batch of that step.
  auto train = [&](auto& sess, std::int64_t until) {
    for (std::int64_t s = sess.run(global_step); s < until; s = sess.run(global_step)) {
      const auto [xs, ys] = typeflow_test::small_batch(s, comm.rank());
      sess.run(train_op, tf::feed(x, xs), tf::feed(y, ys));
      tf::distributed::check_replicas_identical(sess, comm);
    }
  };

  auto uninterrupted = start();
  tf::distributed::broadcast_variables(*uninterrupted, comm);
  train(*uninterrupted, total_steps);

  tf::train::saver saver{};
  std::string checkpoint;
  {
    auto first = start();
    tf::distributed::broadcast_variables(*first, comm);
    train(*first, steps_before_restart);
    checkpoint = tf::distributed::save_on_chief(saver, *first, comm, dir / "model.ckpt", global_step);
    train(*first, steps_before_restart + 2);  // steps lost with the job
  }
  // [snippet restart]
  auto restarted = start();
  tf::distributed::restore(saver, *restarted, comm, *tf::train::latest_checkpoint(dir));
  // [/snippet restart]
  CHECK(checkpoint == (dir / "model.ckpt-5").string());
  CHECK(restarted->run(global_step) == steps_before_restart);
  train(*restarted, total_steps);

  CHECK(restarted->run(global_step) == total_steps);
  CHECK(restarted->run(w) == uninterrupted->run(w));
  CHECK(restarted->run(b) == uninterrupted->run(b));
  // Every variable of the sessions, Adam's slots (sw/Adam, sw/Adam_1, ...) and powers
  // included, bit for bit.
  CHECK(tf::distributed::variables_checksum(*restarted) == tf::distributed::variables_checksum(*uninterrupted));
  CHECK(tf::distributed::check_replicas_identical(*restarted, comm) ==
        tf::distributed::variables_checksum(*uninterrupted));

  comm.barrier();
  if (comm.is_chief()) fs::remove_all(dir);
}

int main(int argc, char** argv) { return typeflow_test::run_tests_on_every_rank(argc, argv); }
