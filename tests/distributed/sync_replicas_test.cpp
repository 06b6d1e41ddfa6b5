// Synchronous data-parallel training on 2 ranks (run through mpiexec): step for step, the
// variables of 2 ranks with batches of 32 are those of 1 rank with the concatenated batch
// of 64 (computed on rank 0 with a plain session, to summation-order tolerance), for
// gradient descent and Adam; the ranks stay bit-identical after every step; the chief's
// broadcast makes differently initialized ranks identical.
//
// CHECK, not REQUIRE: a test case that stops early on one rank would leave the other
// waiting in a collective call.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <random>

#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"
#include "mpi_main.hpp"

namespace tf = typeflow;

// MPI's profiling interface: these definitions of MPI_Allreduce (the gradients' sum, run once
// every rank has passed a barrier that the communicator's timeout bounds) and MPI_Iallreduce
// (the non-blocking allreduce of typeflow's other collectives) take the place of the
// library's, count the calls, and forward them to the PMPI_ functions.
namespace {
long allreduce_calls = 0, iallreduce_calls = 0;
}  // namespace
extern "C" int MPI_Allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  ++allreduce_calls;
  return PMPI_Allreduce(send, receive, count, type, op, comm);
}
extern "C" int MPI_Iallreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  ++iallreduce_calls;
  return PMPI_Iallreduce(send, receive, count, type, op, comm, request);
}

namespace {
constexpr std::size_t global_batch = 64;
constexpr int steps = 20;

// A two-layer perceptron over 4 features and 3 classes.
template <class T>
auto mlp() {
  auto x = tf::placeholder<"x", T, tf::shape<tf::dyn, 4>>();
  auto y = tf::placeholder<"y", T, tf::shape<tf::dyn, 3>>();
  auto w1 = tf::variable<"w1", T, tf::shape<4, 8>>(tf::init::glorot_uniform(1));
  auto b1 = tf::variable<"b1", T, tf::shape<8>>(tf::init::random_uniform(-0.1, 0.1, 2));
  auto w2 = tf::variable<"w2", T, tf::shape<8, 3>>(tf::init::glorot_uniform(3));
  auto b2 = tf::variable<"b2", T, tf::shape<3>>(tf::init::zeros());
  auto logits = tf::matmul(tf::relu(tf::matmul(x, w1) + b1), w2) + b2;
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
  return std::make_tuple(x, y, w1, b1, w2, b2, loss);
}

// Rows [first, first + count) of step s's global batch: the same on every rank.
template <class T>
std::pair<xt::xtensor<T, 2>, xt::xtensor<T, 2>> batch(int s, std::size_t first, std::size_t count) {
  std::mt19937_64 gen(static_cast<std::uint64_t>(1000 + s));
  std::normal_distribution<double> normal;
  xt::xtensor<T, 2> xs = xt::zeros<T>({count, std::size_t{4}});
  xt::xtensor<T, 2> ys = xt::zeros<T>({count, std::size_t{3}});
  for (std::size_t r = 0; r < global_batch; ++r) {
    double row[4];
    for (double& v : row) v = normal(gen);
    const std::size_t label = static_cast<std::size_t>(row[0] + row[1] > 0) + static_cast<std::size_t>(row[2] > 0.5);
    if (r < first || r >= first + count) continue;
    for (std::size_t c = 0; c < 4; ++c) xs(r - first, c) = static_cast<T>(row[c]);
    ys(r - first, label) = T(1);
  }
  return {xs, ys};
}

template <class A, class B>
double max_difference(const A& a, const B& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    d = std::max(d, std::abs(static_cast<double>(a.data()[i]) - static_cast<double>(b.data()[i])));
  return d;
}

// Trains the MLP with opt synchronously over comm, and on rank 0 with reference_opt on the
// whole batch, comparing after every step.
template <class T, class Opt, class RefOpt>
void check_against_one_rank(const tf::distributed::communicator& comm, const Opt& opt, const RefOpt& reference_opt,
                            double tolerance) {
  auto [x, y, w1, b1, w2, b2, loss] = mlp<T>();
  // [snippet sync_replicas]
  auto train_op = tf::distributed::sync_replicas(opt, comm).minimize(loss, tf::train::global_step());
  tf::session sess(train_op, loss);
  tf::distributed::bind(sess, comm);                 // the session's runs reach comm
  sess.run(tf::global_variables_initializer());
  tf::distributed::broadcast_variables(sess, comm);  // every rank starts from the chief's
  // [/snippet sync_replicas]
  auto ref_op = reference_opt.minimize(loss);
  tf::session reference(ref_op, loss);
  reference.run(tf::global_variables_initializer());

  const std::size_t local = global_batch / static_cast<std::size_t>(comm.size());
  double worst = 0;
  int identical_steps = 0;
  for (int s = 0; s < steps; ++s) {
    const auto [xs, ys] = batch<T>(s, local * static_cast<std::size_t>(comm.rank()), local);
    // [snippet sync_replicas_step]
    sess.run(train_op, tf::feed(x, xs), tf::feed(y, ys));  // this rank's part of the batch
    // [/snippet sync_replicas_step]
    CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
    ++identical_steps;
    if (comm.is_chief()) {
      const auto [all_x, all_y] = batch<T>(s, 0, global_batch);
      reference.run(ref_op, tf::feed(x, all_x), tf::feed(y, all_y));
      worst = std::max({worst, max_difference(sess.run(w1), reference.run(w1)),
                        max_difference(sess.run(b1), reference.run(b1)),
                        max_difference(sess.run(w2), reference.run(w2)),
                        max_difference(sess.run(b2), reference.run(b2))});
    }
  }
  CHECK(identical_steps == steps);
  CHECK(sess.run(tf::train::global_step()) == steps);  // once per aggregated step
  if (comm.is_chief()) {
    MESSAGE("largest difference from the 1-rank reference over " << steps << " steps: " << worst);
    CHECK(worst <= tolerance);
    // The training moved the variables: the comparison is not of two initial states.
    const auto [all_x, all_y] = batch<T>(0, 0, global_batch);
    tf::session fresh(loss);
    fresh.run(tf::global_variables_initializer());
    CHECK(max_difference(fresh.run(w1), sess.run(w1)) > 100 * tolerance);
    CHECK(sess.run(loss, tf::feed(x, all_x), tf::feed(y, all_y)) <
          fresh.run(loss, tf::feed(x, all_x), tf::feed(y, all_y)));
  }
}
}  // namespace

TEST_CASE("2 ranks with batches of 32 step like 1 rank with the batch of 64: gradient descent, float") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  CHECK(comm.size() == 2);
  check_against_one_rank<float>(comm, tf::train::gradient_descent(0.5), tf::train::gradient_descent(0.5), 1e-5);
}

TEST_CASE("2 ranks with batches of 32 step like 1 rank with the batch of 64: Adam, double") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  check_against_one_rank<double>(comm, tf::train::adam(0.01), tf::train::adam(0.01), 1e-12);
}

// TensorFlow's sync_replicas_optimizer_test.py, test2Workers (its dense variables): worker k
// pushes the constant gradients 0.1 + 0.2 k and 0.9 + 0.2 k; gradient descent with rate 2
// applies their mean. TensorFlow's second run is spent on stale tokens and changes nothing
// (its local steps start one behind); here every run is a step, so the values TensorFlow
// reaches after its third run are reached after the second.
TEST_CASE("sync_replicas_optimizer_test.py test2Workers: the mean gradient applied once per step") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto v0 = tf::variable<"v0", float, tf::shape<>>(tf::init::constant(0.0));
  auto v1 = tf::variable<"v1", float, tf::shape<>>(tf::init::constant(1.0));
  auto g0 = tf::placeholder<"grads_0", float, tf::shape<>>();
  auto g1 = tf::placeholder<"grads_1", float, tf::shape<>>();
  auto opt = tf::distributed::sync_replicas(tf::train::gradient_descent(2.0), comm, 2, 2);
  auto train_op = opt.apply_gradients(std::make_tuple(tf::train::grad_and_var(g0, v0), tf::train::grad_and_var(g1, v1)),
                                      tf::train::global_step());
  tf::session sess(train_op);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  CHECK(sess.run(v0) == 0.0f);
  CHECK(sess.run(v1) == 1.0f);
  CHECK(sess.run(tf::train::global_step()) == 0);

  const float w = static_cast<float>(comm.rank());
  sess.run(train_op, tf::feed(g0, 0.1f + w * 0.2f), tf::feed(g1, 0.9f + w * 0.2f));
  CHECK(sess.run(tf::train::global_step()) == 1);
  CHECK(sess.run(v0) == doctest::Approx(0 - (0.1 + 0.3) / 2 * 2.0).epsilon(1e-6));
  CHECK(sess.run(v1) == doctest::Approx(1 - (0.9 + 1.1) / 2 * 2.0).epsilon(1e-6));

  sess.run(train_op, tf::feed(g0, 0.1f + w * 0.2f), tf::feed(g1, 0.9f + w * 0.2f));
  CHECK(sess.run(tf::train::global_step()) == 2);
  CHECK(sess.run(v0) == doctest::Approx(0 - 2 * (0.1 + 0.3) / 2 * 2.0).epsilon(1e-6));
  CHECK(sess.run(v1) == doctest::Approx(1 - 2 * (0.9 + 1.1) / 2 * 2.0).epsilon(1e-6));
  CHECK_NOTHROW(tf::distributed::check_replicas_identical(sess, comm));
}

TEST_CASE("broadcast_variables makes differently initialized ranks identical") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto w = tf::variable<"bw", float, tf::shape<3, 2>>(tf::init::random_normal());
  auto c = tf::variable<"bc", double, tf::shape<>>(tf::init::random_uniform());
  tf::session sess(w, c);
  sess.set_random_seed(static_cast<std::uint64_t>(7 + comm.rank()));  // a different draw per rank
  sess.run(tf::global_variables_initializer());
  CHECK_THROWS_WITH_AS(tf::distributed::check_replicas_identical(sess, comm),
                       doctest::Contains("Replicas differ: variable bw"), tf::internal_error);

  tf::distributed::broadcast_variables(sess, comm, 0);
  const std::uint64_t sum = tf::distributed::check_replicas_identical(sess, comm);
  CHECK(sum == tf::distributed::variables_checksum(sess));
  tf::session chief(w, c);  // rank 0's draw, made here on every rank
  chief.set_random_seed(7);
  chief.run(tf::global_variables_initializer());
  CHECK(sess.run(w) == chief.run(w));
  CHECK(sess.run(c) == chief.run(c));
  CHECK(tf::distributed::variables_checksum(chief) == sum);

  // One element changed on one rank is found, and named.
  if (comm.rank() == 1) sess.slot<decltype(c)>().value += 1e-12;
  CHECK_THROWS_WITH_AS(tf::distributed::check_replicas_identical(sess, comm),
                       doctest::Contains("Replicas differ: variable bc"), tf::internal_error);
  CHECK_THROWS_AS(tf::distributed::broadcast_variables(sess, comm, 2), tf::invalid_argument_error);
}

TEST_CASE("TensorFlow's replica counts other than the number of ranks are rejected; an unbound update fails") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto opt = tf::train::gradient_descent(0.1);
  CHECK_THROWS_WITH_AS(tf::distributed::sync_replicas(opt, comm, 3), doctest::Contains("replicas_to_aggregate = 3"),
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(tf::distributed::sync_replicas(opt, comm, 2, 1), doctest::Contains("total_num_replicas = 1"),
                       tf::invalid_argument_error);
  CHECK_NOTHROW(tf::distributed::sync_replicas(opt, comm, 2, 2));

  auto w = tf::variable<"uw", float, tf::shape<2>>(tf::init::ones());
  auto train_op = tf::distributed::sync_replicas(opt, comm).minimize(tf::reduce_sum(tf::square(w)));
  tf::session sess(train_op);
  sess.run(tf::global_variables_initializer());
  CHECK_THROWS_WITH_AS(sess.run(train_op), doctest::Contains("call typeflow::distributed::bind"),
                       tf::failed_precondition_error);
  CHECK(sess.run(w)(0) == 1.0f);  // nothing was applied
}

TEST_CASE("a synchronous step allocates nothing once its buffer exists, and makes one allreduce") {
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto [x, y, w1, b1, w2, b2, loss] = mlp<float>();
  auto train_op = tf::distributed::sync_replicas(tf::train::adam(0.01), comm).minimize(loss);
  tf::session sess(train_op);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  const auto [xs, ys] = batch<float>(0, 32 * static_cast<std::size_t>(comm.rank()), 32);
  sess.run(train_op, tf::feed(x, xs), tf::feed(y, ys));  // plans the run, sizes the buffer
  const long before = typeflow_test::allocation_count();
  const long calls_before = allreduce_calls, icalls_before = iallreduce_calls;
  for (int s = 0; s < 5; ++s) sess.run(train_op, tf::feed(x, xs), tf::feed(y, ys));
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(allreduce_calls - calls_before == 5);  // the four variables' gradients in one call a step
  CHECK(iallreduce_calls == icalls_before);    // and no other allreduce
}

int main(int argc, char** argv) { return typeflow_test::run_tests_on_every_rank(argc, argv); }
