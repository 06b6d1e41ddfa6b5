// A rank killed by SIGKILL mid-training: rank 1 kills itself at step 5 while rank 0 goes on
// training, its communicator's timeout (60 s) longer than the test allows. mpiexec must end
// the job, rank 0 included, within 30 s, with the status of a process killed by SIGKILL
// (137): run_fault_test.sh checks the time, the status, and that no process is left.
#include <signal.h>
#include <unistd.h>

#include <iostream>

#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

#include "small_model.hpp"

namespace tf = typeflow;

int main(int argc, char** argv) {
  tf::distributed::environment env(&argc, &argv);
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  auto [x, y, w, b, loss] = typeflow_test::small_model();
  auto train_op = tf::distributed::sync_replicas(tf::train::gradient_descent(0.1), comm).minimize(loss);
  tf::session sess(train_op);
  tf::distributed::bind(sess, comm);
  sess.run(tf::global_variables_initializer());
  for (int s = 0; s < 1000000; ++s) {
    if (comm.rank() == 1 && s == 5) {
      std::cout << "faults_kill: rank 1 kills itself at step 5" << std::endl;
      ::kill(::getpid(), SIGKILL);
    }
    const auto [xs, ys] = typeflow_test::small_batch(s, comm.rank());
    sess.run(train_op, tf::feed(x, xs), tf::feed(y, ys));
  }
  std::cout << "faults_kill: rank " << comm.rank() << " trained to the end, which it must not" << std::endl;
  return 0;
}
