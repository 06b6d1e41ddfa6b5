// Linked into bench_distributed_flagship beside examples/flagship_mpi.cpp: times the
// program's gradient allreduces through MPI's profiling interface. These definitions of
// MPI_Iallreduce, MPI_Test and MPI_Finalize take the place of the library's and forward
// to PMPI_Iallreduce, PMPI_Test and PMPI_Finalize.
//
// typeflow's collectives are non-blocking calls waited for by polling MPI_Test (the
// communicator's timeout, include/typeflow/distributed/communicator.hpp). An allreduce of
// more than 64 elements is sync_replicas' fused gradient buffer (the example's other
// allreduces, once an epoch, carry 1 value or 2 per variable): its calls and its seconds,
// from MPI_Iallreduce's start to the MPI_Test that finds it complete (MPI_Wtime), are
// summed. The time includes the wait for the slowest rank to arrive; with
// ALLREDUCE_SPLIT=1 in the environment a PMPI_Barrier precedes each gradient allreduce,
// timed apart, so that the allreduce's own time is the transfer and the barrier's the wait
// (the barrier costs a few microseconds a step, so the epochs of that mode are not the
// throughput figures).
//
// At MPI_Finalize, each rank prints one line:
//   allreduce {"rank": r, "ranks": p, "calls": n, "seconds": s, "wait_seconds": w, "elements": e}
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
struct {
  long calls = 0;
  double seconds = 0;
  double wait_seconds = 0;
  long elements = 0;
} gradient_allreduce;

bool split() {
  static const bool on = [] {
    const char* v = std::getenv("ALLREDUCE_SPLIT");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return on;
}
}  // namespace

namespace {
// The gradient allreduce in flight: its request and when it started.
MPI_Request pending = MPI_REQUEST_NULL;
double started = 0;
}  // namespace

extern "C" int MPI_Iallreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  if (count <= 64) return PMPI_Iallreduce(send, receive, count, type, op, comm, request);
  if (split()) {
    const double w = MPI_Wtime();
    PMPI_Barrier(comm);
    gradient_allreduce.wait_seconds += MPI_Wtime() - w;
  }
  started = MPI_Wtime();
  const int result = PMPI_Iallreduce(send, receive, count, type, op, comm, request);
  pending = *request;
  ++gradient_allreduce.calls;
  gradient_allreduce.elements = count;
  return result;
}

extern "C" int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  const bool gradients = pending != MPI_REQUEST_NULL && *request == pending;
  const int result = PMPI_Test(request, flag, status);
  if (gradients && *flag) {
    gradient_allreduce.seconds += MPI_Wtime() - started;
    pending = MPI_REQUEST_NULL;
  }
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
