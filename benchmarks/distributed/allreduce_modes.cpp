// The three ways to sum the flagship's fused gradient buffer (101,770 floats) over the ranks
// that sync_replicas could use, each run `iterations` times after an MPI_Barrier, timed with
// MPI_Wtime on every rank; rank 0 prints the median, 10th and 90th percentile of each:
//   iallreduce          MPI_Iallreduce polled with MPI_Test (typeflow's collectives)
//   ibarrier+allreduce  MPI_Ibarrier polled with MPI_Test, then a blocking MPI_Allreduce
//                       (communicator::collective_after_barrier: the gradients' sum)
//   allreduce           a blocking MPI_Allreduce alone (no timeout possible)
// Run by run.sh on 2 ranks; docs/distributed.md ("Faults") quotes it.
//
//   mpirun -np 2 bench_allreduce_modes [iterations]   (default 3000)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int n = 101770;
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 3000;
  std::vector<float> buf(n);
  for (int i = 0; i < n; ++i) buf[i] = 1e-3f * static_cast<float>(i);
  std::vector<double> us(static_cast<std::size_t>(iterations));
  const char* names[] = {"iallreduce", "ibarrier+allreduce", "allreduce"};
  for (int mode = 0; mode < 3; ++mode) {
    for (int it = 0; it < iterations; ++it) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      MPI_Request request = MPI_REQUEST_NULL;
      int done = 0;
      if (mode == 0) {
        MPI_Iallreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &request);
        while (!done) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      } else if (mode == 1) {
        MPI_Ibarrier(MPI_COMM_WORLD, &request);
        while (!done) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        MPI_Allreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      } else {
        MPI_Allreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      }
      us[static_cast<std::size_t>(it)] = 1e6 * (MPI_Wtime() - start);
      for (float& v : buf) v *= 1.f / static_cast<float>(ranks);  // keep the values bounded
    }
    std::sort(us.begin(), us.end());
    const auto at = [&](double q) { return us[static_cast<std::size_t>(q * (iterations - 1))]; };
    if (rank == 0)
      std::printf("allreduce_modes {\"mode\": \"%s\", \"ranks\": %d, \"elements\": %d, \"median_us\": %.1f, "
                  "\"p10_us\": %.1f, \"p90_us\": %.1f}\n",
                  names[mode], ranks, n, at(0.5), at(0.1), at(0.9));
  }
  MPI_Finalize();
}
