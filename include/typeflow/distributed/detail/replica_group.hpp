// typeflow/distributed/detail/replica_group.hpp — the session resource through which a
// synchronous update reaches its communicator: the binding, the fused gradient buffer and
// the buffers of the sparse gradients' exchange.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "typeflow/core/detail/independent_loop.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/distributed/communicator.hpp"
#include "typeflow/train/sparse_update.hpp"

namespace typeflow::distributed::detail {

/// v with at least n elements: grown, never shrunk, so that a buffer sized by the largest
/// step seen is reused by every later one.
template <class U>
U* grow(std::vector<U>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

/// The buffers of a step's exchange of sparse gradients (sync_replicas.hpp): what this rank
/// sends and what it gathers from every rank (each sparse gradient's row count and a failure
/// record; the ids; the rows), the MPI counts and offsets of each rank's part, a cursor per
/// rank into the gathered ids and rows, and the scratch in which the rows are summed per id.
template <class T>
struct sparse_exchange {
  std::vector<std::int64_t> counts_send, counts_recv;
  std::vector<std::int64_t> ids_send, ids_recv;
  std::vector<T> values_send, values_recv;
  std::vector<int> ids_counts, ids_displs, values_counts, values_displs;
  std::vector<std::size_t> ids_cursor, values_cursor;
  train::detail::sparse_update_scratch scratch;
};

/// What a session holds for a replica-group resource (distributed/sync_replicas.hpp): the
/// communicator bound to it (not owned: it must outlive the runs) and the one buffer into
/// which every dense gradient of a step is packed for a single allreduce, and the buffers
/// of the sparse gradients' allgathers. They grow on the first steps and are reused after,
/// so a steady step allocates nothing.
template <class T>
class replica_group_state {
 public:
  void bind(const communicator& comm) noexcept { comm_ = &comm; }
  const communicator* bound() const noexcept { return comm_; }

  /// The communicator, or failed_precondition naming the update node `name` and the fix.
  const communicator& get(std::string_view name) const {
    if (comm_ == nullptr)
      throw failed_precondition_error("Update " + std::string(name) +
                                      " has no communicator: call typeflow::distributed::bind(session, "
                                      "communicator) before running it");
    return *comm_;
  }

  /// A buffer of at least n elements.
  T* buffer(std::size_t n) {
    return grow(buffer_, n);
  }

  /// The buffers of the sparse gradients' exchange.
  sparse_exchange<T>& sparse() noexcept { return sparse_; }

 private:
  const communicator* comm_ = nullptr;
  std::vector<T> buffer_;
  sparse_exchange<T> sparse_;
};

/// Sums buf[0, N) over the ranks of comm in place (one MPI_Allreduce once every rank has
/// arrived, the wait for them bounded by the communicator's timeout), then divides by the
/// number of ranks: the mean gradient. A power of two ranks multiplies by its reciprocal
/// instead, which is exact: the same values.
template <std::size_t N, class T>
void allreduce_mean(const communicator& comm, T* buf) {
  const int size = comm.size();
  if (size > 1) {
    comm.collective_after_barrier("MPI_Allreduce of the gradients", [&] {
      return MPI_Allreduce(MPI_IN_PLACE, buf, static_cast<int>(N), mpi_type<T>(), MPI_SUM, comm.native());
    });
    const T ranks = static_cast<T>(size);
    if ((size & (size - 1)) == 0) {
      const T reciprocal = T(1) / ranks;
      core::detail::independent_loop<N>([&](std::size_t i) { buf[i] *= reciprocal; });
    } else {
      core::detail::independent_loop<N>([&](std::size_t i) { buf[i] /= ranks; });
    }
  }
}

/// A gradient's averaged values in the fused buffer, read by an optimizer's update as it
/// reads a gradient's value (`data()`, `size()`).
template <class T>
struct buffer_view {
  const T* p;
  std::size_t n;
  const T* data() const noexcept { return p; }
  std::size_t size() const noexcept { return n; }
};

}  // namespace typeflow::distributed::detail
