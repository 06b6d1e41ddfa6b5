// typeflow/distributed/communicator.hpp — the MPI process group that data-parallel training
// runs over (Open MPI or any MPI-3 implementation; CMake target typeflow::mpi).
//
// Nothing here is program-wide: the user starts MPI (MPI_Init, or an `environment` guard
// for the scope of main) and creates a `communicator` over a group of processes
// (MPI_COMM_WORLD, or any sub-communicator); the optimizers and checks of this folder take
// it as an argument. A communicator owns its own duplicate of the MPI communicator it is
// built from, so typeflow's collective calls never match a user's messages, and reports
// failures as typeflow errors (MPI_ERRORS_RETURN on the duplicate) instead of aborting.
//
// Every collective of this folder waits a bounded time (the communicator's timeout): it is
// started non-blocking and polled, and one that does not complete in time throws
// deadline_exceeded_error and breaks the communicator, after which its collectives throw
// aborted_error at once; `environment` then ends the job with MPI_Abort rather than wait in
// MPI_Finalize for a rank that may never come (docs/distributed.md, "Faults").
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
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

/// Whether a communicator of this process broke (a collective timed out or failed): read by
/// `environment`'s destructor, which then aborts the job instead of finalizing MPI. It is
/// process-wide because what it records is: MPI is initialized, finalized and aborted once
/// per process, and a collective left pending on any communicator keeps MPI_Finalize
/// waiting. It defines no node and holds no model state (DESIGN.md, rule 1).
inline std::atomic<bool> communicator_broke{false};

/// "2 s", "1500 ms": a timeout as the messages give it.
inline std::string duration_text(std::chrono::milliseconds d) {
  return d.count() % 1000 == 0 ? std::to_string(d.count() / 1000) + " s" : std::to_string(d.count()) + " ms";
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
///
/// If a communicator of this process broke (a collective timed out or failed), the
/// destructor calls MPI_Abort(MPI_COMM_WORLD, 1) instead of MPI_Finalize: MPI_Finalize
/// waits for every rank, and the rank that did not answer may be stopped for good; the
/// abort ends every rank of the job, and mpirun exits with status 1.
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
    if (!owns_ || finalized) return;
    if (detail::communicator_broke.load()) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Finalize();
  }

 private:
  bool owns_ = false;
};

/// How long a collective of typeflow's waits for the other ranks unless told otherwise: a
/// step's allreduce waits for the slowest rank's forward and backward pass, so the default
/// leaves minutes' worth of imbalance aside and still ends a hung job in a minute.
inline constexpr std::chrono::milliseconds default_collective_timeout{std::chrono::seconds(60)};

/// A group of processes (ranks) that train one model together: an RAII owner of a
/// duplicate of the MPI communicator it is built from (`communicator comm(MPI_COMM_WORLD)`),
/// freed with the object. Movable, not copyable. Build it after MPI_Init, destroy it
/// before MPI_Finalize; every rank of the group builds it (MPI_Comm_dup is collective).
///
/// `timeout` bounds each collective of typeflow's over it (collective()): one that has not
/// completed then throws deadline_exceeded_error naming the operation, the rank and the
/// timeout, and the communicator is broken: its later collectives throw aborted_error
/// without calling MPI.
class communicator {
 public:
  explicit communicator(MPI_Comm comm, std::chrono::milliseconds timeout = default_collective_timeout)
      : timeout_(timeout) {
    if (timeout <= std::chrono::milliseconds::zero())
      throw invalid_argument_error("communicator: the collectives' timeout must be positive, not " +
                                   std::to_string(timeout.count()) + " ms");
    detail::check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    detail::check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    detail::check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    detail::check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  }
  communicator(const communicator&) = delete;
  communicator& operator=(const communicator&) = delete;
  communicator(communicator&& other) noexcept
      : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
        rank_(other.rank_),
        size_(other.size_),
        timeout_(other.timeout_),
        broken_(std::move(other.broken_)) {}
  communicator& operator=(communicator&& other) noexcept {
    if (this != &other) {
      release();
      comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
      rank_ = other.rank_;
      size_ = other.size_;
      timeout_ = other.timeout_;
      broken_ = std::move(other.broken_);
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

  /// How long each collective waits (the constructor's `timeout`).
  std::chrono::milliseconds timeout() const noexcept { return timeout_; }
  /// Whether a collective timed out or failed: every later one throws aborted_error.
  bool broken() const noexcept { return !broken_.empty(); }

  /// Waits until every rank has called it, or throws as collective() does.
  void barrier() const {
    collective("MPI_Barrier", [&](MPI_Request* request) { return MPI_Ibarrier(comm_, request); });
  }

  /// Runs one non-blocking collective call over native(), `start(MPI_Request*)` returning
  /// its MPI status (`MPI_Iallreduce(..., native(), request)`), and waits for it within
  /// timeout(), polling MPI_Test: continuously for the first 20 ms, so that a collective
  /// completing within them is seen complete at once, then with sleeps growing from 50 us
  /// to 2 ms, so that a rank waiting for a slow one leaves its core to it. `what`
  /// names the operation in the errors:
  /// - deadline_exceeded_error when it has not completed in time ("MPI_Allreduce of the
  ///   gradients did not complete within 60 s on rank 0 of 2 ..."), internal_error when MPI
  ///   reports a failure; either breaks the communicator;
  /// - aborted_error, without calling MPI, when the communicator is already broken.
  /// A timed-out operation stays posted: MPI may still write its buffers if the missing
  /// rank joins it later, so the program should end (environment aborts the job) rather
  /// than go on with the data it gave to the operation.
  template <class Start>
  void collective(std::string_view what, Start&& start) const {
    if (broken())
      throw aborted_error(std::string(what) + " on rank " + where() + ": the communicator is broken (" + broken_ +
                          "); end the job and restart it from the chief's last checkpoint");
    MPI_Request request = MPI_REQUEST_NULL;
    fail_on_mpi_error(std::forward<Start>(start)(&request), what);
    using clock = std::chrono::steady_clock;
    const auto begin = clock::now();
    auto pause = std::chrono::microseconds(50);
    for (;;) {
      int done = 0;
      fail_on_mpi_error(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
      if (done) return;
      const auto elapsed = clock::now() - begin;
      if (elapsed >= timeout_) {
        const std::string reason = std::string(what) + " did not complete within " + detail::duration_text(timeout_) +
                                   " on rank " + where();
        mark_broken(reason);
        throw deadline_exceeded_error(reason +
                                      ": another rank has failed, stopped, or is not running the same collectives "
                                      "(the communicator's timeout; the communicator is now broken)");
      }
      if (elapsed >= std::chrono::milliseconds(20)) {
        std::this_thread::sleep_for(pause);
        pause = std::min(2 * pause, std::chrono::microseconds(2000));
      }
    }
  }

  /// Runs a blocking collective call, `call()` returning its MPI status
  /// (`MPI_Allreduce(..., native())`), once every rank has reached it: first an MPI_Ibarrier
  /// waited for as collective() waits (the timeout, the errors, `what` naming the operation),
  /// then the call. The wait for a missing or failed rank is the barrier's, bounded by the
  /// timeout; the call finds every rank there and only moves the data, which Open MPI's
  /// blocking collectives do faster than its non-blocking ones (a sum of 101,770 floats by 2
  /// ranks: 53-67 us against 107-130 us, benchmarks/RESULTS.md). A rank that dies between
  /// the two is the launcher's to end: mpirun ends the job when a rank dies.
  template <class Call>
  void collective_after_barrier(std::string_view what, Call&& call) const {
    collective(what, [&](MPI_Request* request) { return MPI_Ibarrier(comm_, request); });
    fail_on_mpi_error(std::forward<Call>(call)(), what);
  }

 private:
  std::string where() const { return std::to_string(rank_) + " of " + std::to_string(size_); }

  void mark_broken(const std::string& reason) const {
    if (broken_.empty()) broken_ = reason;
    detail::communicator_broke.store(true);
  }

  void fail_on_mpi_error(int code, std::string_view what) const {
    if (code == MPI_SUCCESS) return;
    try {
      detail::check_mpi(code, std::string(what).c_str());
    } catch (const error& e) {
      mark_broken(e.message() + " on rank " + where());
      throw;
    }
  }

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
  std::chrono::milliseconds timeout_ = default_collective_timeout;
  // Why the communicator broke (the first failure), empty while it works. Mutable: a
  // collective, a const operation on the group, records its failure.
  mutable std::string broken_;
};

}  // namespace typeflow::distributed
