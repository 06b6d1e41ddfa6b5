// tests/distributed/mpi_main.hpp — the main() of a doctest test run on every rank: MPI for
// the program's scope, doctest on each rank, and the job's result, failed when any rank
// failed, combined with a collective bounded by a communicator's timeout. A rank whose
// collective timed out (in a test or here) leaves through environment's MPI_Abort, so a
// test that fails on one rank ends the job in bounded time instead of hanging it.
#pragma once

#include <mpi.h>

#include <doctest/doctest.h>

#include <typeflow/distributed/communicator.hpp>

namespace typeflow_test {

inline int run_tests_on_every_rank(int argc, char** argv) {
  typeflow::distributed::environment env(&argc, &argv);
  doctest::Context context(argc, argv);
  int failed = context.run() != 0 ? 1 : 0;
  try {
    typeflow::distributed::communicator comm(MPI_COMM_WORLD);
    comm.collective("MPI_Allreduce of the ranks' test results", [&](MPI_Request* request) {
      return MPI_Iallreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm.native(), request);
    });
  } catch (const typeflow::error&) {
    failed = 1;
  }
  return failed;
}

}  // namespace typeflow_test
