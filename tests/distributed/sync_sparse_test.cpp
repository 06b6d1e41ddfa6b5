// Sparse gradients (embedding_lookup's IndexedSlices) in synchronous training on 2 ranks
// (run through mpiexec): each rank's rows and ids are gathered by every rank, summed per row
// and divided by the number of ranks, as TensorFlow's SyncReplicasOptimizer averages them in
// a SparseConditionalAccumulator. Step for step, an embedding model trained on 2 ranks with
// half a batch each is the model trained by 1 process on the whole batch (to summation-order
// tolerance), for Adagrad and Adam, and the ranks stay bit-identical; TensorFlow's
// test2Workers with its sparse variable.
//
// CHECK, not REQUIRE: a test case that stops early on one rank would leave the other
// waiting in a collective call.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <tuple>

#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

#include "mpi_main.hpp"

namespace tf = typeflow;

namespace {
constexpr std::size_t global_batch = 8, table_rows = 12;
constexpr int steps = 20;

// An embedding of 12 rows of 3 and a dense layer to 2 classes, over a batch of N ids.
template <std::size_t N>
auto embedding_model() {
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<N>>();
  auto y = tf::placeholder<"y", float, tf::shape<N, 2>>();
  auto emb = tf::variable<"emb", float, tf::shape<table_rows, 3>>(tf::init::random_uniform(-1, 1, 5));
  auto w = tf::variable<"w", float, tf::shape<3, 2>>(tf::init::glorot_uniform(6));
  auto b = tf::variable<"b", float, tf::shape<2>>(tf::init::zeros());
  auto logits = tf::matmul(tf::embedding_lookup(emb, ids), w) + b;
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
  return std::make_tuple(ids, y, emb, w, b, loss);
}

// Rows [first, first + N) of step s's global batch, the same on every rank: the first half
// (rank 0's) looks up rows of [0, 6), the second (rank 1's) rows of [4, 10), and both start
// with row 5; so a step has rows looked up on both ranks, rows on one only (repeated or
// not), and rows 10 and 11 on none. The label is the id's parity.
template <std::size_t N>
std::pair<xt::xtensor_fixed<std::int32_t, xt::xshape<N>>, xt::xtensor_fixed<float, xt::xshape<N, 2>>> batch(
    int s, std::size_t first) {
  std::mt19937_64 gen(static_cast<std::uint64_t>(500 + s));
  std::uniform_int_distribution<int> pick(0, 5);
  xt::xtensor_fixed<std::int32_t, xt::xshape<N>> ids;
  xt::xtensor_fixed<float, xt::xshape<N, 2>> ys = xt::zeros<float>({N, std::size_t{2}});
  for (std::size_t r = 0; r < global_batch; ++r) {
    const bool second = r >= global_batch / 2;
    const int id = r % (global_batch / 2) == 0 ? 5 : pick(gen) + (second ? 4 : 0);
    const auto label = static_cast<std::size_t>(id % 2);  // learnable from the row
    if (r < first || r >= first + N) continue;
    ids(r - first) = id;
    ys(r - first, label) = 1.0f;
  }
  return {ids, ys};
}

template <class A, class B>
double max_difference(const A& a, const B& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    d = std::max(d, std::abs(static_cast<double>(a.data()[i]) - static_cast<double>(b.data()[i])));
  return d;
}

template <class Opt>
void check_against_one_process(const tf::distributed::communicator& comm, const Opt& opt, double tolerance) {
  constexpr std::size_t local = global_batch / 2;
  auto [ids, y, emb, w, b, loss] = embedding_model<local>();
  // [snippet sync_replicas_sparse]
  auto pairs = opt.compute_gradients(loss);  // (emb's sparse gradient, emb), then w's and b's
  static_assert(tf::indexed_slices<decltype(std::get<0>(pairs).gradient_node)>);
  auto train_op = tf::distributed::sync_replicas(opt, comm).apply_gradients(pairs, tf::train::global_step());
  // [/snippet sync_replicas_sparse]
  tf::session sess(train_op, loss);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  tf::distributed::broadcast_variables(sess, comm);
  const xt::xtensor<float, 2> initial = sess.run(emb);

  auto [all_ids, all_y, remb, rw, rb, rloss] = embedding_model<global_batch>();
  auto ref_op = opt.minimize(rloss);
  tf::session reference(ref_op, rloss);
  reference.run(tf::global_variables_initializer());

  double worst = 0;
  int identical_steps = 0;
  for (int s = 0; s < steps; ++s) {
    const auto [xs, ys] = batch<local>(s, local * static_cast<std::size_t>(comm.rank()));
    sess.run(train_op, tf::feed(ids, xs), tf::feed(y, ys));
    CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
    ++identical_steps;
    if (comm.is_chief()) {
      const auto [all_xs, all_ys] = batch<global_batch>(s, 0);
      reference.run(ref_op, tf::feed(all_ids, all_xs), tf::feed(all_y, all_ys));
      worst = std::max({worst, max_difference(sess.run(emb), reference.run(remb)),
                        max_difference(sess.run(w), reference.run(rw)), max_difference(sess.run(b), reference.run(rb))});
    }
  }
  CHECK(identical_steps == steps);
  CHECK(sess.run(tf::train::global_step()) == steps);
  const xt::xtensor<float, 2> trained = sess.run(emb);
  for (std::size_t r = 0; r < table_rows; ++r) {
    const bool looked_up = r < 10;  // rows 10 and 11 are never looked up: never changed
    bool unchanged = true;
    for (std::size_t c = 0; c < 3; ++c) unchanged = unchanged && trained(r, c) == initial(r, c);
    CHECK(unchanged == !looked_up);
  }
  if (comm.is_chief()) {
    MESSAGE("largest difference from the 1-process reference over " << steps << " steps: " << worst);
    CHECK(worst <= tolerance);
    CHECK(max_difference(trained, initial) > 1000 * tolerance);  // the comparison is of trained tables
    const auto [all_xs, all_ys] = batch<global_batch>(0, 0);
    tf::session fresh(rloss);
    fresh.run(tf::global_variables_initializer());
    CHECK(reference.run(rloss, tf::feed(all_ids, all_xs), tf::feed(all_y, all_ys)) <
          fresh.run(rloss, tf::feed(all_ids, all_xs), tf::feed(all_y, all_ys)));
  }
}
}  // namespace

TEST_CASE("an embedding trained on 2 ranks with half a batch each steps like 1 process with the batch: Adagrad") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  CHECK(comm.size() == 2);
  check_against_one_process(comm, tf::train::adagrad(0.5), 1e-5);
}

TEST_CASE("an embedding trained on 2 ranks with half a batch each steps like 1 process with the batch: Adam") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  check_against_one_process(comm, tf::train::adam(0.05), 1e-5);
}

// TensorFlow's sync_replicas_optimizer_test.py, test2Workers, with its sparse variable:
// worker k pushes the dense gradients 0.1 + 0.2 k and 0.9 + 0.2 k and the IndexedSlices of
// value 0.1 + 0.2 k at row 1 of var_sparse = [[3], [4]]; gradient descent with rate 2
// applies their means: var_sparse becomes [[3], [4 - (0.1 + 0.3) / 2 * 2]] = [[3], [3.6]].
// (TensorFlow's second run is spent on stale tokens; here every run is a step.)
TEST_CASE("sync_replicas_optimizer_test.py test2Workers: the sparse gradient averaged per row") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto v0 = tf::variable<"v0", float, tf::shape<>>(tf::init::constant(0.0));
  auto v1 = tf::variable<"v1", float, tf::shape<>>(tf::init::constant(1.0));
  auto vs = tf::variable<"v_sparse", float, tf::shape<2, 1>>(tf::init::constant(3.0));
  auto g0 = tf::placeholder<"grads_0", float, tf::shape<>>();
  auto g1 = tf::placeholder<"grads_1", float, tf::shape<>>();
  auto gs = tf::placeholder<"grads_sparse", float, tf::shape<1, 1>>();
  auto row = tf::constant<"sparse_row">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{1});
  // The sparse gradient of sum(lookup(vs, [1]) * gs): the IndexedSlices (gs, [1]).
  auto sparse_pair = tf::train::gradient_descent(2.0).compute_gradients(
      tf::reduce_sum(tf::embedding_lookup(vs, row) * gs));
  static_assert(tf::indexed_slices<decltype(std::get<0>(sparse_pair).gradient_node)>);
  auto pairs = std::tuple_cat(std::make_tuple(tf::train::grad_and_var(g0, v0), tf::train::grad_and_var(g1, v1)),
                              sparse_pair);
  auto train_op = tf::distributed::sync_replicas(tf::train::gradient_descent(2.0), comm, 2, 2)
                      .apply_gradients(pairs, tf::train::global_step());
  tf::session sess(train_op, vs);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  sess.slot<decltype(vs)>().value = xt::xtensor_fixed<float, xt::xshape<2, 1>>{{3.0f}, {4.0f}};

  const float k = static_cast<float>(comm.rank());
  const xt::xtensor_fixed<float, xt::xshape<1, 1>> sparse_value{{0.1f + k * 0.2f}};
  sess.run(train_op, tf::feed(g0, 0.1f + k * 0.2f), tf::feed(g1, 0.9f + k * 0.2f), tf::feed(gs, sparse_value));
  CHECK(sess.run(tf::train::global_step()) == 1);
  CHECK(sess.run(v0) == doctest::Approx(0 - (0.1 + 0.3) / 2 * 2.0).epsilon(1e-6));
  CHECK(sess.run(v1) == doctest::Approx(1 - (0.9 + 1.1) / 2 * 2.0).epsilon(1e-6));
  CHECK(sess.run(vs)(0, 0) == 3.0f);
  CHECK(sess.run(vs)(1, 0) == doctest::Approx(3.6).epsilon(1e-6));

  sess.run(train_op, tf::feed(g0, 0.1f + k * 0.2f), tf::feed(g1, 0.9f + k * 0.2f), tf::feed(gs, sparse_value));
  CHECK(sess.run(tf::train::global_step()) == 2);
  CHECK(sess.run(vs)(0, 0) == 3.0f);
  CHECK(sess.run(vs)(1, 0) == doctest::Approx(3.2).epsilon(1e-6));
  CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
}

int main(int argc, char** argv) { return typeflow_test::run_tests_on_every_rank(argc, argv); }
