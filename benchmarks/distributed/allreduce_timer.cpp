// Linked into bench_distributed_flagship beside examples/flagship_mpi.cpp: times the
// program's gradient allreduces through MPI's profiling interface. These definitions of
// MPI_Allreduce, MPI_Ibarrier, MPI_Test and MPI_Finalize take the place of the library's and
// forward to the PMPI_ functions.
//
// sync_replicas sums the fused gradient buffer with a blocking MPI_Allreduce once every rank
// has passed an MPI_Ibarrier, which is waited for by polling MPI_Test within the
// communicator's timeout (communicator::collective_after_barrier,
// include/typeflow/distributed/communicator.hpp). An allreduce of more than 64 elements is
// that buffer (the example's other allreduces, once an epoch, are non-blocking and carry 1
// value or 2 per variable). For each, two times are summed (MPI_Wtime):
//   wait_seconds  from the start of the MPI_Ibarrier before it to the MPI_Test that finds
//                 the barrier complete: the wait for the slowest rank to arrive;
//   seconds       the MPI_Allreduce itself: the transfer and the sum.
//
// At MPI_Finalize, each rank prints one line:
//   allreduce {"rank": r, "ranks": p, "calls": n, "seconds": s, "wait_seconds": w, "elements": e}
#include <mpi.h>

#include <cstdio>

namespace {
struct {
  long calls = 0;
  double seconds = 0;
  double wait_seconds = 0;
  long elements = 0;
} gradient_allreduce;

// The last barrier: its request while in flight, when it started, how long it took.
MPI_Request barrier = MPI_REQUEST_NULL;
double barrier_started = 0;
double barrier_seconds = 0;
}  // namespace

extern "C" int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  barrier_started = MPI_Wtime();
  const int result = PMPI_Ibarrier(comm, request);
  barrier = *request;
  return result;
}

extern "C" int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  const bool is_barrier = barrier != MPI_REQUEST_NULL && *request == barrier;
  const int result = PMPI_Test(request, flag, status);
  if (is_barrier && *flag) {
    barrier_seconds = MPI_Wtime() - barrier_started;
    barrier = MPI_REQUEST_NULL;
  }
  return result;
}

extern "C" int MPI_Allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  if (count <= 64) return PMPI_Allreduce(send, receive, count, type, op, comm);
  const double started = MPI_Wtime();
  const int result = PMPI_Allreduce(send, receive, count, type, op, comm);
  gradient_allreduce.seconds += MPI_Wtime() - started;
  gradient_allreduce.wait_seconds += barrier_seconds;
  barrier_seconds = 0;
  ++gradient_allreduce.calls;
  gradient_allreduce.elements = count;
  return result;
}

extern "C" int MPI_Finalize() {
  int rank = 0, ranks = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::printf("allreduce {\"rank\": %d, \"ranks\": %d, \"calls\": %ld, \"seconds\": %.6f, \"wait_seconds\": %.6f, "
              "\"elements\": %ld}\n",
              rank, ranks, gradient_allreduce.calls, gradient_allreduce.seconds, gradient_allreduce.wait_seconds,
              gradient_allreduce.elements);
  std::fflush(stdout);
  return PMPI_Finalize();
}
