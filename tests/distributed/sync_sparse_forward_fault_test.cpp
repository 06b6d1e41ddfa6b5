// An out-of-range id fed to one rank's embedding_lookup in a model: the forward gather
// checks the ids before the update runs (TensorFlow's InvalidArgument "indices[1] = 12 is
// not in [0, 12)"), so that rank throws without reaching the update's collectives, which
// cannot tell the others. The other rank's update waits in its first collective, the
// allgather of the sparse gradients' sizes, and throws DeadlineExceeded naming it within the
// communicator's timeout (2 s here): bounded, never forever. Neither rank changed a variable.
// The communicator is broken, and `environment` ends the job with MPI_Abort: run_fault_test.sh
// checks mpiexec's status 1, both ranks' reports and that no process is left.
// (An id that only the update reads fails on every rank alike: sync_sparse_checks_test.cpp.)
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <iostream>

#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
using seconds = std::chrono::duration<double>;

TEST_CASE("an id out of range in one rank's forward pass makes the other fail within the timeout") {
  tf::distributed::communicator comm(MPI_COMM_WORLD, std::chrono::seconds(2));
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<4>>();
  auto emb = tf::variable<"emb", float, tf::shape<12, 3>>(tf::init::random_uniform(-1, 1, 5));
  auto w = tf::variable<"w", float, tf::shape<3, 1>>(tf::init::glorot_uniform(6));
  auto loss = tf::reduce_mean(tf::square(tf::matmul(tf::embedding_lookup(emb, ids), w)));
  auto train_op = tf::distributed::sync_replicas(tf::train::adagrad(0.5), comm).minimize(loss);
  tf::session sess(train_op);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());

  const bool rank1 = comm.rank() == 1;
  using id_batch = xt::xtensor_fixed<std::int32_t, xt::xshape<4>>;
  const id_batch good = rank1 ? id_batch{5, 6, 7, 5} : id_batch{0, 1, 5, 1};
  sess.run(train_op, tf::feed(ids, good));
  CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
  const std::uint64_t before = tf::distributed::variables_checksum(sess);

  if (rank1) {
    CHECK_THROWS_WITH_AS(sess.run(train_op, tf::feed(ids, id_batch{5, 12, 7, 5})),
                         "InvalidArgument: indices[1] = 12 is not in [0, 12)", tf::invalid_argument_error);
    CHECK_FALSE(comm.broken());
    CHECK(tf::distributed::variables_checksum(sess) == before);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH_AS(sess.run(train_op, tf::feed(ids, good)),
                       "DeadlineExceeded: MPI_Allgather of the sparse gradients' sizes did not complete within 2 s on "
                       "rank 0 of 2: another rank has failed, stopped, or is not running the same collectives (the "
                       "communicator's timeout; the communicator is now broken)",
                       tf::deadline_exceeded_error);
  const double waited = seconds(std::chrono::steady_clock::now() - start).count();
  CHECK(waited >= 2.0);
  CHECK(waited < 4.0);
  CHECK(comm.broken());
  CHECK(tf::distributed::variables_checksum(sess) == before);
}

// No collective after the test: rank 1 has stopped taking part (see faults_timeout_test.cpp).
int main(int argc, char** argv) {
  tf::distributed::environment env(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  doctest::Context context(argc, argv);
  const int failed = context.run();
  std::cout << "sync_sparse_forward_fault: rank " << rank << (failed ? " FAILED" : " passed") << std::endl;
  return failed ? 2 : 0;
}
