// Compile-fail: the session is made from y = x * 2, which does not reach the variable
// "bias"; running z = x + bias in it needs a variable the session does not hold. The
// diagnostic must name the variable: variable_is_not_in_the_sessions_graph<..."bias"...>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto bias = tf::variable<"bias", float, tf::shape<3>>(tf::init::zeros());
  auto y = x * tf::constant<2>();
  auto z = x + bias;
  tf::session sess(y);  // holds no variable
  const xt::xtensor_fixed<float, xt::xshape<3>> v{1, 2, 3};
  auto r = sess.run(z, tf::feed(x, v));  // the mistake: bias is not in sess's graph
  return static_cast<int>(r(0));
}
