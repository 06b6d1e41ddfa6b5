// typeflow/distributed/replicas.hpp — keeping the ranks' copies of a model identical: the
// chief's variables broadcast to every rank (Horovod's broadcast_global_variables), and a
// check that every rank holds bit-identical variables (a hash of each variable's bytes,
// compared over the ranks with one allreduce).
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/distributed/communicator.hpp"
#include "typeflow/train/optimizer.hpp"

namespace typeflow::distributed {

namespace detail {
// FNV-1a, 64 bits, over a variable's initialized flag and the bytes of its value.
inline std::uint64_t hash_bytes(std::uint64_t h, const void* data, std::size_t n) noexcept {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}
constexpr std::uint64_t fnv_offset = 14695981039346656037ull;

template <class Session, class V>
std::uint64_t variable_hash(const Session& sess) {
  const auto& slot = sess.template slot<V>();
  const unsigned char initialized = slot.initialized ? 1 : 0;
  std::uint64_t h = hash_bytes(fnv_offset, &initialized, 1);
  const auto* data = train::detail::data_of(slot.value);
  return hash_bytes(h, data, train::detail::size_of(slot.value) * sizeof(*data));
}

template <class Session>
using variable_count = mp::mp_size<typename Session::variables>;

template <class Session>
std::array<std::uint64_t, variable_count<Session>::value> variable_hashes(const Session& sess) {
  std::array<std::uint64_t, variable_count<Session>::value> hashes{};
  mp::mp_for_each<mp::mp_iota<variable_count<Session>>>([&](auto i) {
    hashes[i] = variable_hash<Session, mp::mp_at_c<typename Session::variables, decltype(i)::value>>(sess);
  });
  return hashes;
}

template <class Session>
std::string variable_name(std::size_t index) {
  std::string name;
  mp::mp_for_each<mp::mp_iota<variable_count<Session>>>([&](auto i) {
    if (i == index) name = std::string(mp::mp_at_c<typename Session::variables, decltype(i)::value>::name.view());
  });
  return name;
}
}  // namespace detail

/// Copies every variable of the session (value and initialized flag) from rank `root` to
/// every rank of comm (Horovod's broadcast_global_variables(root_rank)), each broadcast
/// bounded by the communicator's timeout (communicator::collective). Every rank calls
/// it with a session of the same graph; run it after the chief initializes or restores,
/// before the first step.
template <class Session>
void broadcast_variables(Session& sess, const communicator& comm, int root = 0) {
  if (root < 0 || root >= comm.size())
    throw invalid_argument_error("broadcast_variables: root " + std::to_string(root) + " is not a rank of the " +
                                 std::to_string(comm.size()) + " ranks of the communicator");
  mp::mp_for_each<typename Session::variables>([&](auto v) {
    auto& slot = sess.template slot<decltype(v)>();
    const std::string what = "MPI_Bcast of variable " + std::string(decltype(v)::name.view());
    unsigned char initialized = slot.initialized ? 1 : 0;
    comm.collective(what + "'s initialized flag", [&](MPI_Request* request) {
      return MPI_Ibcast(&initialized, 1, MPI_UNSIGNED_CHAR, root, comm.native(), request);
    });
    auto* data = train::detail::data_of(slot.value);
    const std::size_t bytes = train::detail::size_of(slot.value) * sizeof(*data);
    comm.collective(what, [&](MPI_Request* request) {
      return MPI_Ibcast(static_cast<void*>(data), static_cast<int>(bytes), MPI_BYTE, root, comm.native(), request);
    });
    slot.initialized = initialized != 0;
  });
}

/// A hash of this rank's variables: their initialized flags and the bytes of their values,
/// in the session's variable order. Equal on two ranks when their variables are
/// bit-identical (up to hash collisions).
template <class Session>
std::uint64_t variables_checksum(const Session& sess) {
  std::uint64_t h = detail::fnv_offset;
  for (std::uint64_t v : detail::variable_hashes(sess)) h = detail::hash_bytes(h, &v, sizeof v);
  return h;
}

/// Checks that every rank of comm holds bit-identical variables (one allreduce of each
/// variable's hash); returns the common variables_checksum. If they differ, every rank
/// throws internal_error naming the first variable, in the session's order, that differs.
template <class Session>
std::uint64_t check_replicas_identical(const Session& sess, const communicator& comm) {
  constexpr std::size_t n = detail::variable_count<Session>::value;
  const auto hashes = detail::variable_hashes(sess);
  // The maximum of each hash and of its complement: the two agree on every rank when the
  // hash is the same on all of them, i.e. max(h) == min(h) == ~max(~h).
  std::array<std::uint64_t, 2 * n + 1> both{};
  for (std::size_t i = 0; i < n; ++i) {
    both[i] = hashes[i];
    both[n + i] = ~hashes[i];
  }
  comm.collective("MPI_Allreduce of the variables' hashes", [&](MPI_Request* request) {
    return MPI_Iallreduce(MPI_IN_PLACE, both.data(), static_cast<int>(2 * n), MPI_UINT64_T, MPI_MAX, comm.native(),
                          request);
  });
  for (std::size_t i = 0; i < n; ++i) {
    if (both[i] != ~both[n + i])
      throw internal_error("Replicas differ: variable " + detail::variable_name<Session>(i) +
                           " is not bit-identical on the " + std::to_string(comm.size()) +
                           " ranks (broadcast_variables after initializing or restoring on the chief)");
  }
  return variables_checksum(sess);
}

}  // namespace typeflow::distributed
