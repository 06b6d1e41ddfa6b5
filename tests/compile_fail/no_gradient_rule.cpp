// Compile-fail: gradients through an op without a gradient rule. y sums the value of
// tf::assign(v, x * 2), and assign has no gradient rule (DESIGN rule 8: an op without a
// gradient rule used under gradients is a compile error naming the op); the diagnostic
// must name the op: op_has_no_gradient_rule<..."Assign"...>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", double, tf::shape<3>>();
  auto v = tf::variable<"v", double, tf::shape<3>>();
  auto y = tf::reduce_sum(tf::assign(v, x * tf::constant<2.0>()));
  auto g = tf::gradient(y, x);  // the mistake: the path from x to y goes through Assign
  tf::session sess(y);
  sess.initialize_all();
  const double x0 = 1.0;
  return static_cast<int>(sess.run(g, tf::feed(x, xt::xtensor_fixed<double, xt::xshape<3>>{x0, x0, x0}))(0));
}
