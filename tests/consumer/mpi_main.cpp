// Trains one synchronous step through the typeflow::mpi target, which links MPI: returns 0
// when the variable took the mean gradient's step. Runs as a single process (MPI's
// singleton start) or under mpiexec. The learning rate is a named constant, which g++ 12 at
// -O3 (the consumers' Release flags) once reported a false -Wrestrict for, in the session's
// constructor, under -Werror: this program keeps that case built.
#include <mpi.h>

#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main(int argc, char** argv) {
  tf::distributed::environment env(&argc, &argv);
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto w = tf::variable<"w", double, tf::shape<>>(tf::init::constant(1.0));
  auto train_op = tf::distributed::sync_replicas(tf::train::gradient_descent(0.25), comm)
                      .minimize(tf::square(w));
  tf::session sess(train_op);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  sess.run(train_op);  // d(w^2)/dw = 2 at w = 1: w = 1 - 0.25 * 2
  tf::distributed::check_replicas_identical(sess, comm);
  return sess.run(w) == 0.5 ? 0 : 1;
}
