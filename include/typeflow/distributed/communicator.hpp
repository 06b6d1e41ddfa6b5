// typeflow/distributed/communicator.hpp — the MPI process group that data-parallel training
// runs over (Open MPI or any MPI-3 implementation; CMake target typeflow::mpi).
//
// Nothing here is program-wide: the user starts MPI (MPI_Init, or an `environment` guard
// for the scope of main) and creates a `communicator` over a group of processes
// (MPI_COMM_WORLD, or any sub-communicator); the optimizers and checks of this folder take
// it as an argument. A communicator owns its own duplicate of the MPI communicator it is
// built from, so typeflow's collective calls never match a user's messages, and reports
// failures as typeflow errors (MPI_ERRORS_RETURN on the duplicate) instead of aborting.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "typeflow/core/errors.hpp"

namespace typeflow::distributed {

namespace detail {
/// Throws internal_error naming the MPI call `what` and MPI's text for `code`, unless the
/// call succeeded.
inline void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw internal_error(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

/// The MPI datatype of element type T.
template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) {
    return MPI_FLOAT;
  } else if constexpr (std::is_same_v<T, double>) {
    return MPI_DOUBLE;
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return MPI_INT32_T;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return MPI_INT64_T;
  } else {
    static_assert(std::is_same_v<T, std::uint64_t>, "distributed: no MPI datatype for this element type");
    return MPI_UINT64_T;
  }
}
}  // namespace detail

/// MPI_Init / MPI_Finalize for the scope of an object (Horovod's hvd.init()): build one at
/// the top of main, before any communicator, when nothing else initializes MPI. It
/// initializes MPI unless already initialized, and finalizes it only if it initialized it.
class environment {
 public:
  environment() : environment(nullptr, nullptr) {}
  environment(int* argc, char*** argv) {
    int initialized = 0;
    detail::check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
    if (!initialized) {
      detail::check_mpi(MPI_Init(argc, argv), "MPI_Init");
      owns_ = true;
    }
  }
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;
  ~environment() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owns_ && !finalized) MPI_Finalize();
  }

 private:
  bool owns_ = false;
};

/// A group of processes (ranks) that train one model together: an RAII owner of a
/// duplicate of the MPI communicator it is built from (`communicator comm(MPI_COMM_WORLD)`),
/// freed with the object. Movable, not copyable. Build it after MPI_Init, destroy it
/// before MPI_Finalize; every rank of the group builds it (MPI_Comm_dup is collective).
class communicator {
 public:
  explicit communicator(MPI_Comm comm) {
    detail::check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    detail::check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    detail::check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    detail::check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  }
  communicator(const communicator&) = delete;
  communicator& operator=(const communicator&) = delete;
  communicator(communicator&& other) noexcept
      : comm_(std::exchange(other.comm_, MPI_COMM_NULL)), rank_(other.rank_), size_(other.size_) {}
  communicator& operator=(communicator&& other) noexcept {
    if (this != &other) {
      release();
      comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
      rank_ = other.rank_;
      size_ = other.size_;
    }
    return *this;
  }
  ~communicator() { release(); }

  /// This process's rank in the group, 0 to size() - 1; rank 0 is the chief.
  int rank() const noexcept { return rank_; }
  /// The number of ranks.
  int size() const noexcept { return size_; }
  bool is_chief() const noexcept { return rank_ == 0; }
  /// The owned MPI communicator, for the user's own MPI calls.
  MPI_Comm native() const noexcept { return comm_; }

  /// Waits until every rank has called it.
  void barrier() const { detail::check_mpi(MPI_Barrier(comm_), "MPI_Barrier"); }

 private:
  void release() noexcept {
    if (comm_ == MPI_COMM_NULL) return;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace typeflow::distributed
