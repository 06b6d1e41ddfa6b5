// Compile-fail: a const session (what serving code holds, safe to run from many threads)
// cannot run a path that writes a variable. The diagnostic must name the node that
// changes state, by its op and the variable it writes:
// a_const_session_runs_no_node_that_changes_state<..."AssignAdd"..., ..."w"...>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto w = tf::variable<"w", float, tf::shape<3>>(tf::init::zeros());
  auto train_step = tf::assign_add(w, x);
  tf::session sess(train_step);
  sess.initialize_all();
  const auto& serving = sess;
  const xt::xtensor_fixed<float, xt::xshape<3>> v{1, 2, 3};
  auto r = serving.run(train_step, tf::feed(x, v));  // the mistake: an update through a const session
  return static_cast<int>(r(0));
}
