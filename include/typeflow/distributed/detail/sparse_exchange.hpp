// typeflow/distributed/detail/sparse_exchange.hpp — how sync_replicas (distributed/
// sync_replicas.hpp) exchanges the sparse gradients of a step: each rank checks its rows and
// ids, the counts and any rank's failure are allgathered, then the ids and the rows; each
// gradient's gathered rows are summed per id in rank order, divided by the number of ranks,
// and applied with the optimizer's sparse rule, so the ranks stay bit-identical.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/distributed/communicator.hpp"
#include "typeflow/distributed/detail/replica_group.hpp"
#include "typeflow/train/optimizer.hpp"
#include "typeflow/train/sparse_update.hpp"

namespace typeflow::distributed::detail {

template <class V>
constexpr std::size_t width_of = shape_of<V>::size / train::detail::rows_of<V>();

// The per-rank record of the sizes exchange: the row count of each sparse gradient, then
// whether this rank found an error, in which sparse gradient, and the term_error's fields.
enum : std::size_t {
  record_failed,
  record_pair,
  record_kind,
  record_k,
  record_id,
  record_values,
  record_count,
  record_size
};

// The failure of a failing rank, as every rank throws it.
template <class... Sparse>
[[noreturn]] void throw_gathered_error(const std::int64_t* record, int rank, int ranks) {
  const train::detail::term_error e{record[record_kind], record[record_k], record[record_id], record[record_values],
                                    record[record_count]};
  const std::string where = " on rank " + std::to_string(rank) + " of " + std::to_string(ranks);
  std::size_t p = 0;
  mp::mp_for_each<mp::mp_list<mp::mp_identity<Sparse>...>>([&](auto id) {
    using V = typename decltype(id)::type::variable;
    if (static_cast<std::int64_t>(p++) == record[record_pair])
      throw train::detail::term_error_exception<V>(e, train::detail::rows_of<V>(), width_of<V>, where);
  });
  throw internal_error("sync_replicas: a rank reported an error in a sparse gradient it does not have");
}

inline int mpi_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw invalid_argument_error(std::string("sync_replicas: the sparse gradients' ") + what + " of one step (" +
                                 std::to_string(n) + ") exceed MPI's largest count, " +
                                 std::to_string(std::numeric_limits<int>::max()));
  return static_cast<int>(n);
}

// The exchange of the sparse gradients of the pairs Sparse... (in the update's order): each
// rank checks its terms and counts their rows, the counts and any failure are allgathered,
// every rank throws the lowest failing rank's error if there is one, then the ids (as int64)
// and the rows are allgathered (MPI_Iallgatherv, each bounded by the communicator's
// timeout), each rank's part holding every sparse gradient's terms in turn.
template <class T, class... Sparse, class Ctx>
void exchange_sparse(Ctx& ctx, const communicator& comm, sparse_exchange<T>& x, mp::mp_list<Sparse...>) {
  constexpr std::size_t S = sizeof...(Sparse), stride = S + record_size;
  constexpr std::array<std::size_t, S> widths{width_of<typename Sparse::variable>...};
  const auto ranks = static_cast<std::size_t>(comm.size());

  std::int64_t* send = grow(x.counts_send, stride);
  std::fill_n(send, stride, std::int64_t{0});
  std::int64_t* record = send + S;
  std::size_t p = 0, ids_total = 0, values_total = 0;
  mp::mp_for_each<mp::mp_list<mp::mp_identity<Sparse>...>>([&](auto id) {
    using P = typename decltype(id)::type;
    using V = typename P::variable;
    const auto terms = train::detail::view_terms<V, typename P::gradient>(ctx);
    std::size_t count = 0;
    for (const auto& t : terms) count += t.count;
    if (record[record_failed] == 0) {
      if (const auto e = train::detail::find_term_error(terms, train::detail::rows_of<V>(), width_of<V>)) {
        record[record_failed] = 1;
        record[record_pair] = static_cast<std::int64_t>(p);
        record[record_kind] = e.kind;
        record[record_k] = e.k;
        record[record_id] = e.id;
        record[record_values] = e.values;
        record[record_count] = e.count;
      }
    }
    send[p++] = static_cast<std::int64_t>(count);
    ids_total += count;
    values_total += count * width_of<V>;
  });

  std::int64_t* counts = grow(x.counts_recv, stride * ranks);
  comm.collective("MPI_Allgather of the sparse gradients' sizes", [&](MPI_Request* request) {
    return MPI_Iallgather(send, static_cast<int>(stride), MPI_INT64_T, counts, static_cast<int>(stride), MPI_INT64_T,
                          comm.native(), request);
  });
  for (std::size_t r = 0; r < ranks; ++r)
    if (counts[r * stride + S + record_failed] != 0)
      throw_gathered_error<Sparse...>(counts + r * stride + S, static_cast<int>(r), comm.size());

  // This rank's ids and rows (a failed check would have thrown: the value counts match).
  std::int64_t* ids = grow(x.ids_send, ids_total);
  T* values = grow(x.values_send, values_total);
  std::size_t io = 0, vo = 0;
  mp::mp_for_each<mp::mp_list<mp::mp_identity<Sparse>...>>([&](auto id) {
    using P = typename decltype(id)::type;
    for (const auto& t : train::detail::view_terms<typename P::variable, typename P::gradient>(ctx)) {
      for (std::size_t k = 0; k < t.count; ++k) ids[io++] = t.id(k);
      std::copy_n(t.values, t.value_count, values + vo);
      vo += t.value_count;
    }
  });

  int* ids_counts = grow(x.ids_counts, ranks);
  int* ids_displs = grow(x.ids_displs, ranks);
  int* values_counts = grow(x.values_counts, ranks);
  int* values_displs = grow(x.values_displs, ranks);
  std::size_t all_ids = 0, all_values = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    std::size_t n = 0, v = 0;
    for (std::size_t q = 0; q < S; ++q) {
      const auto c = static_cast<std::size_t>(counts[r * stride + q]);
      n += c;
      v += c * widths[q];
    }
    ids_displs[r] = mpi_count(all_ids, "ids");
    values_displs[r] = mpi_count(all_values, "values");
    ids_counts[r] = mpi_count(n, "ids");
    values_counts[r] = mpi_count(v, "values");
    all_ids += n;
    all_values += v;
  }
  mpi_count(all_ids, "ids");
  mpi_count(all_values, "values");
  std::int64_t* all_id = grow(x.ids_recv, all_ids);
  T* all_value = grow(x.values_recv, all_values);
  comm.collective("MPI_Allgatherv of the sparse gradients' ids", [&](MPI_Request* request) {
    return MPI_Iallgatherv(ids, static_cast<int>(ids_total), MPI_INT64_T, all_id, ids_counts, ids_displs, MPI_INT64_T,
                           comm.native(), request);
  });
  comm.collective("MPI_Allgatherv of the sparse gradients' values", [&](MPI_Request* request) {
    return MPI_Iallgatherv(values, static_cast<int>(values_total), mpi_type<T>(), all_value, values_counts,
                           values_displs, mpi_type<T>(), comm.native(), request);
  });

  std::size_t* ids_cursor = grow(x.ids_cursor, ranks);
  std::size_t* values_cursor = grow(x.values_cursor, ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    ids_cursor[r] = static_cast<std::size_t>(ids_displs[r]);
    values_cursor[r] = static_cast<std::size_t>(values_displs[r]);
  }
}

// The p-th sparse gradient of the gathered data (p counting the sparse pairs in order, which
// the cursors follow): every rank's rows of it, in rank order, summed per id and divided by
// the number of ranks (TensorFlow's SparseConditionalAccumulator's average), applied to V
// with Def's sparse rule or its dense one.
template <class Def, class V, class Ctx, class Step, class T>
void apply_gathered(Ctx& ctx, const Step& step, sparse_exchange<T>& x, std::size_t p, std::size_t sparse_pairs,
                    std::size_t ranks) {
  constexpr std::size_t rows = train::detail::rows_of<V>(), width = width_of<V>;
  const std::size_t stride = sparse_pairs + record_size;
  std::size_t total = 0;
  for (std::size_t r = 0; r < ranks; ++r) total += static_cast<std::size_t>(x.counts_recv[r * stride + p]);
  T* sums = train::detail::begin_sums<T>(x.scratch, rows, total, width);
  for (std::size_t r = 0; r < ranks; ++r) {
    const auto n = static_cast<std::size_t>(x.counts_recv[r * stride + p]);
    const std::int64_t* ids = x.ids_recv.data() + x.ids_cursor[r];
    const T* values = x.values_recv.data() + x.values_cursor[r];
    for (std::size_t k = 0; k < n; ++k) train::detail::add_row(x.scratch, sums, ids[k], values + k * width, width);
    x.ids_cursor[r] += n;
    x.values_cursor[r] += n * width;
  }
  const auto slices = train::detail::end_sums<T>(x.scratch, width);
  const T replicas = static_cast<T>(ranks);
  for (std::size_t i = 0; i < slices.size() * width; ++i) sums[i] /= replicas;
  train::detail::apply_slices<Def, V>(ctx, step, slices, x.scratch);
}

}  // namespace typeflow::distributed::detail
