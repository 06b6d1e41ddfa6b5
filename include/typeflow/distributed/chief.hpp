// typeflow/distributed/chief.hpp — the chief's duties, TensorFlow's
// MonitoredTrainingSession(is_chief=...): what one process does for the whole job (write a
// checkpoint, export a saved model, read the checkpoint a restart begins from) is done on
// rank 0 only, and its outcome, success or error, reaches every rank, so that no rank goes
// on alone or waits for a rank that has stopped.
//
//   tf::distributed::save_on_chief(saver, sess, comm, "/ckpt/model.ckpt", tf::train::global_step());
//   tf::distributed::restore(saver, sess, comm, *tf::train::latest_checkpoint("/ckpt"));
//   tf::distributed::run_on_chief(comm, [&] { tf::saved_model::simple_save(sess, dir, in, out); });
//
// Each is a collective: every rank calls it, in the same order as the other collectives,
// and the ranks other than the chief wait for the chief's work within the communicator's
// timeout.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/distributed/communicator.hpp"
#include "typeflow/distributed/replicas.hpp"
#include "typeflow/train/saver.hpp"

namespace typeflow::distributed {

namespace detail {
/// The outcome of the chief's work: 0 or the code of the error it threw, and a text: the
/// error's message, or the work's result.
struct chief_outcome {
  std::int64_t code = 0;
  std::string text;
};

/// The chief's outcome, on every rank (two broadcasts from rank 0: the code and the text's
/// length, then the text).
inline chief_outcome broadcast_outcome(const communicator& comm, chief_outcome outcome) {
  std::array<std::int64_t, 2> header{outcome.code, static_cast<std::int64_t>(outcome.text.size())};
  comm.collective("MPI_Bcast of the chief's outcome", [&](MPI_Request* request) {
    return MPI_Ibcast(header.data(), 2, MPI_INT64_T, 0, comm.native(), request);
  });
  outcome.code = header[0];
  outcome.text.resize(static_cast<std::size_t>(header[1]));
  if (header[1] > 0)
    comm.collective("MPI_Bcast of the chief's outcome", [&](MPI_Request* request) {
      return MPI_Ibcast(outcome.text.data(), static_cast<int>(header[1]), MPI_CHAR, 0, comm.native(), request);
    });
  return outcome;
}
}  // namespace detail

/// Runs fn() on the chief (rank 0) only, then tells every rank how it went. If fn throws,
/// the chief rethrows its exception and every other rank throws the error of the same code
/// with the same message (an exception that is not a typeflow error: unknown_error with its
/// what()), so that every rank stops at the same point. If fn returns, every rank returns
/// what it returned, converted to std::string (a path), or nothing when fn returns void.
/// A collective: every rank calls it.
template <class F>
auto run_on_chief(const communicator& comm, F&& fn) {
  using result = std::invoke_result_t<F&>;
  static_assert(std::is_void_v<result> || std::is_convertible_v<result, std::string>,
                "run_on_chief(comm, fn): fn must return void or what converts to std::string (a path)");
  detail::chief_outcome outcome;
  std::exception_ptr failure;
  if (comm.is_chief()) {
    try {
      if constexpr (std::is_void_v<result>) {
        fn();
      } else {
        outcome.text = std::string(fn());
      }
    } catch (const error& e) {
      outcome = {static_cast<std::int64_t>(e.code()), e.message()};
      failure = std::current_exception();
    } catch (const std::exception& e) {
      outcome = {static_cast<std::int64_t>(error_code::unknown), e.what()};
      failure = std::current_exception();
    } catch (...) {
      outcome = {static_cast<std::int64_t>(error_code::unknown), "the chief's work threw a non-standard exception"};
      failure = std::current_exception();
    }
  }
  outcome = detail::broadcast_outcome(comm, std::move(outcome));
  if (failure) std::rethrow_exception(failure);
  if (outcome.code != 0) throw_error(static_cast<error_code>(outcome.code), outcome.text);
  if constexpr (!std::is_void_v<result>) return std::move(outcome.text);
}

/// saver.save(sess, prefix[, step]) on the chief only (tf.train.MonitoredTrainingSession's
/// chief-only CheckpointSaverHook): returns the checkpoint's path on every rank, or throws
/// the chief's error on every rank. `step` is a number or the global_step variable, as for
/// saver.save. The other ranks' savers write nothing and keep no list of checkpoints.
template <class Saver, class Session, class... Step>
  requires(sizeof...(Step) <= 1)
std::string save_on_chief(Saver& saver, const Session& sess, const communicator& comm,
                          const std::filesystem::path& prefix, const Step&... step) {
  return run_on_chief(comm, [&] { return saver.save(sess, prefix, step...); });
}

/// Restores a job from the checkpoint at `path` (a path on the chief's file system): the
/// chief restores it, all or nothing, as saver.restore; then, if it succeeded, every
/// variable of the session (those the saver does not hold included) is broadcast from the
/// chief. A failed restore throws the chief's error on every rank and changes no variable
/// on any rank. A saver that also holds saveables (a dataset iterator's position) is
/// refused at compile time: each rank reads its own shard, so one iterator's position
/// cannot be broadcast; restore those with each rank's own saver.
template <class Entries, class Session>
void restore(const train::saver<Entries>& saver, Session& sess, const communicator& comm,
             const std::filesystem::path& path) {
  static_assert(mp::mp_empty<train::saver_saveables_t<Entries, Session>>::value,
                "distributed::restore(saver, sess, comm, path): the saver holds saveables (a dataset iterator's "
                "position), which differ between ranks and cannot be broadcast: restore the variables with a saver "
                "of variables only, and each rank's iterator with its own saver");
  run_on_chief(comm, [&] { saver.restore(sess, path); });
  broadcast_variables(sess, comm);
}

}  // namespace typeflow::distributed
