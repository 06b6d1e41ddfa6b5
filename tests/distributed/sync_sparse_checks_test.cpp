// Sparse gradients in sync_replicas on 2 ranks (run through mpiexec): an id out of range on
// one rank makes every rank throw the same invalid_argument_error after one collective,
// before any variable changes on any rank (the ids are checked locally and the failure
// travels with the row counts, so no rank is left waiting in a collective); a steady step
// allocates nothing and makes one allreduce (the dense gradients) and three allgathers (the
// sparse gradients' counts, ids and rows).
//
// CHECK, not REQUIRE: a test case that stops early on one rank would leave the other
// waiting in a collective call.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>

#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"
#include "mpi_main.hpp"

namespace tf = typeflow;

// MPI's profiling interface: these definitions of the collectives that a synchronous step
// calls (the dense gradients' MPI_Allreduce, the sparse gradients' non-blocking gathers)
// take the place of the library's, count the calls, and forward them to the PMPI_ functions.
namespace {
long allreduce_calls = 0, allgather_calls = 0, allgatherv_calls = 0;
}  // namespace
extern "C" int MPI_Allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  ++allreduce_calls;
  return PMPI_Allreduce(send, receive, count, type, op, comm);
}
extern "C" int MPI_Iallreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  ++allreduce_calls;
  return PMPI_Iallreduce(send, receive, count, type, op, comm, request);
}
extern "C" int MPI_Iallgather(const void* send, int send_count, MPI_Datatype send_type, void* receive,
                              int receive_count, MPI_Datatype receive_type, MPI_Comm comm, MPI_Request* request) {
  ++allgather_calls;
  return PMPI_Iallgather(send, send_count, send_type, receive, receive_count, receive_type, comm, request);
}
extern "C" int MPI_Iallgatherv(const void* send, int send_count, MPI_Datatype send_type, void* receive,
                               const int receive_counts[], const int displacements[], MPI_Datatype receive_type,
                               MPI_Comm comm, MPI_Request* request) {
  ++allgatherv_calls;
  return PMPI_Iallgatherv(send, send_count, send_type, receive, receive_counts, displacements, receive_type, comm,
                          request);
}

namespace {
using ids_a = xt::xtensor_fixed<std::int32_t, xt::xshape<3>>;
using ids_b = xt::xtensor_fixed<std::int64_t, xt::xshape<2, 1>>;
}  // namespace

// Two tables and their sparse gradients built as TensorFlow's tests build IndexedSlices
// (ops.IndexedSlices(values, indices, dense_shape)): rows and ids fed, int32 ids and int64
// ids of rank 2. No gather runs: in a model, the forward embedding_lookup checks the ids
// first, on its rank only (sync_sparse_forward_fault_test.cpp); the update's check is what
// fails here.
TEST_CASE("an id out of range on one rank fails on every rank with one error, and changes nothing") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto e1 = tf::variable<"e1", float, tf::shape<12, 2>>(tf::init::constant(1.0));
  auto e2 = tf::variable<"e2", float, tf::shape<6, 2>>(tf::init::constant(2.0));
  auto a = tf::placeholder<"ids_a", std::int32_t, tf::shape<3>>();
  auto b = tf::placeholder<"ids_b", std::int64_t, tf::shape<2, 1>>();
  auto va = tf::placeholder<"values_a", float, tf::shape<3, 2>>();
  auto vb = tf::placeholder<"values_b", float, tf::shape<2, 1, 2>>();
  auto g1 = tf::make_node<tf::gather_gradient_node<decltype(va), decltype(e1), decltype(a)>>(va, e1, a);
  auto g2 = tf::make_node<tf::gather_gradient_node<decltype(vb), decltype(e2), decltype(b)>>(vb, e2, b);
  static_assert(tf::indexed_slices<decltype(g1)> && tf::indexed_slices<decltype(g2)>);
  auto train_op = tf::distributed::sync_replicas(tf::train::adam(0.1), comm)
                      .apply_gradients(std::make_tuple(tf::train::grad_and_var(g1, e1), tf::train::grad_and_var(g2, e2)),
                                       tf::train::global_step());
  tf::session sess(train_op);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  const xt::xtensor_fixed<float, xt::xshape<3, 2>> rows_a{{0.5f, -1}, {2, 0.25f}, {-3, 1}};
  const xt::xtensor_fixed<float, xt::xshape<2, 1, 2>> rows_b{{{1.5f, -0.5f}}, {{1, 1}}};
  const auto run = [&](const ids_a& ia, const ids_b& ib) {
    sess.run(train_op, tf::feed(a, ia), tf::feed(b, ib), tf::feed(va, rows_a), tf::feed(vb, rows_b));
  };

  const bool rank1 = comm.rank() == 1;
  const ids_a good_a = rank1 ? ids_a{11, 3, 3} : ids_a{0, 3, 1};  // row 3 on both ranks
  const ids_b good_b = rank1 ? ids_b{{5}, {0}} : ids_b{{0}, {2}};
  run(good_a, good_b);
  CHECK(sess.run(tf::train::global_step()) == 1);
  CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
  const std::uint64_t before = tf::distributed::variables_checksum(sess);

  // Rank 1's second id of b is out of range: both ranks throw rank 1's error.
  CHECK_THROWS_WITH_AS(
      run(good_a, rank1 ? ids_b{{1}, {6}} : good_b),
      "InvalidArgument: indices[1] = 6 is not in [0, 6) (the sparse gradient of variable e2) on rank 1 of 2", tf::invalid_argument_error);
  CHECK(tf::distributed::variables_checksum(sess) == before);  // no variable, slot or beta power changed
  CHECK(sess.run(tf::train::global_step()) == 1);
  CHECK_FALSE(comm.broken());

  // Both ranks fail: every rank throws the lowest failing rank's error.
  CHECK_THROWS_WITH_AS(
      run(rank1 ? good_a : ids_a{0, -1, 2}, rank1 ? ids_b{{7}, {0}} : good_b),
      "InvalidArgument: indices[1] = -1 is not in [0, 12) (the sparse gradient of variable e1) on rank 0 of 2",
      tf::invalid_argument_error);
  CHECK(tf::distributed::variables_checksum(sess) == before);
  CHECK_FALSE(comm.broken());

  // The ranks go on together with good ids.
  run(good_a, good_b);
  CHECK(sess.run(tf::train::global_step()) == 2);
  CHECK(tf::distributed::variables_checksum(sess) != before);
  CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
}

TEST_CASE("a steady step with sparse and dense gradients allocates nothing and makes four collectives") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<6>>();
  auto table = tf::variable<"table", float, tf::shape<10, 4>>(tf::init::random_uniform(-1, 1, 3));
  auto w = tf::variable<"w", float, tf::shape<4, 2>>(tf::init::glorot_uniform(4));
  auto target = tf::constant<"target">(xt::xtensor_fixed<float, xt::xshape<6, 2>>(xt::ones<float>({6, 2})));
  auto loss = tf::reduce_mean(tf::square(tf::matmul(tf::embedding_lookup(table, ids), w) - target));
  auto train_op = tf::distributed::sync_replicas(tf::train::adagrad(0.5), comm).minimize(loss);
  tf::session sess(train_op, loss);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  xt::xtensor_fixed<std::int32_t, xt::xshape<6>> idv{0, 1, 2, 3, 4, 5};
  const float first = sess.run(loss, tf::feed(ids, idv));
  sess.run(train_op, tf::feed(ids, idv));  // plans the run, sizes the buffers
  const long before = typeflow_test::allocation_count();
  const long reduces = allreduce_calls, gathers = allgather_calls, gathervs = allgatherv_calls;
  for (int i = 0; i < 20; ++i) {
    // Ids that change, repeat within a rank and differ between the ranks.
    for (std::size_t k = 0; k < 6; ++k)
      idv(k) = static_cast<std::int32_t>((static_cast<std::size_t>(i + 3 * comm.rank()) + k * k) % 10);
    sess.run(train_op, tf::feed(ids, idv));
  }
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(allreduce_calls - reduces == 20);    // w's gradient
  CHECK(allgather_calls - gathers == 20);    // the table's row count and the failure flag
  CHECK(allgatherv_calls - gathervs == 40);  // its ids and its rows
  CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
  idv = {0, 1, 2, 3, 4, 5};
  CHECK(sess.run(loss, tf::feed(ids, idv)) < first);
}

int main(int argc, char** argv) { return typeflow_test::run_tests_on_every_rank(argc, argv); }
