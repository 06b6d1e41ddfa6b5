// A rank that stops calling collectives mid-training (it threw, and its program went on
// without training) makes the other rank's next collective throw DeadlineExceeded within
// the communicator's timeout (2 s here), naming the operation, the rank and the timeout;
// the communicator is then broken, so the next collective throws Aborted at once; the
// failed step changed no variable. Then `environment` ends the job with MPI_Abort instead
// of waiting in MPI_Finalize: run_fault_test.sh checks that mpiexec exits with status 1 in
// bounded time, that both ranks report their checks passed, and that no process is left.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <chrono>
#include <iostream>
#include <stdexcept>

#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

#include "small_model.hpp"

namespace tf = typeflow;
using seconds = std::chrono::duration<double>;

TEST_CASE("a rank that stops calling collectives makes the others fail within the timeout") {
  // [snippet timeout]
  tf::distributed::communicator comm(MPI_COMM_WORLD, std::chrono::seconds(2));  // 60 s unless given
  // [/snippet timeout]
  CHECK(comm.timeout() == std::chrono::seconds(2));
  auto [x, y, w, b, loss] = typeflow_test::small_model();
  auto train_op = tf::distributed::sync_replicas(tf::train::adam(0.01), comm).minimize(loss);
  tf::session sess(train_op);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  tf::distributed::broadcast_variables(sess, comm);

  // Rank 1 fails at step 3; rank 0 goes on.
  auto train = [&](int steps) {
    for (int s = 0; s < steps; ++s) {
      if (comm.rank() == 1 && s == 3) throw std::runtime_error("rank 1 fails at step 3");
      const auto [xs, ys] = typeflow_test::small_batch(s, comm.rank());
      sess.run(train_op, tf::feed(x, xs), tf::feed(y, ys));
    }
  };
  if (comm.rank() == 1) {
    CHECK_THROWS_WITH_AS(train(10), "rank 1 fails at step 3", std::runtime_error);
    CHECK_FALSE(comm.broken());
    return;
  }
  std::uint64_t before = 0;
  try {
    train(3);
    before = tf::distributed::variables_checksum(sess);
  } catch (...) {
    FAIL("the first three steps failed");
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH_AS(train(10),
                       "DeadlineExceeded: MPI_Allreduce of the gradients did not complete within 2 s on rank 0 of 2: "
                       "another rank has failed, stopped, or is not running the same collectives (the "
                       "communicator's timeout; the communicator is now broken)",
                       tf::deadline_exceeded_error);
  const double waited = seconds(std::chrono::steady_clock::now() - start).count();
  CHECK(waited >= 2.0);
  CHECK(waited < 4.0);
  CHECK(comm.broken());
  CHECK(tf::distributed::variables_checksum(sess) == before);  // the failed step applied nothing

  const auto again = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH_AS(tf::distributed::check_replicas_identical(sess, comm),
                       "Aborted: MPI_Allreduce of the variables' hashes on rank 0 of 2: the communicator is broken "
                       "(MPI_Allreduce of the gradients did not complete within 2 s on rank 0 of 2); end the job and "
                       "restart it from the chief's last checkpoint",
                       tf::aborted_error);
  CHECK_THROWS_AS(comm.barrier(), tf::aborted_error);
  CHECK(seconds(std::chrono::steady_clock::now() - again).count() < 0.1);
}

TEST_CASE("a communicator's timeout must be positive") {
  CHECK_THROWS_WITH_AS(tf::distributed::communicator(MPI_COMM_WORLD, std::chrono::milliseconds(0)),
                       "InvalidArgument: communicator: the collectives' timeout must be positive, not 0 ms",
                       tf::invalid_argument_error);
  CHECK(tf::distributed::communicator(MPI_COMM_SELF).timeout() == std::chrono::seconds(60));
}

// No collective after the tests: rank 1 has stopped taking part. Each rank prints its own
// result (run_fault_test.sh looks for both lines), then leaves `environment`, which aborts
// the job on rank 0, whose communicator broke: mpiexec's status 1 is MPI_Abort's (a failed
// test returns 2, a finalized job 0). Open MPI's own report of the abort is not looked
// for: it sometimes fails to print it ("ORTE_ERROR_LOG: Out of resource in show_help.c").
int main(int argc, char** argv) {
  tf::distributed::environment env(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  doctest::Context context(argc, argv);
  const int failed = context.run();
  std::cout << "faults_timeout: rank " << rank << (failed ? " FAILED" : " passed") << std::endl;
  return failed ? 2 : 0;
}
