// A gradient of a gradient through a loop: the reverse loop's outputs have no gradient
// rule, and gradients() names their op.
#include <typeflow/control/scan.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn>>();
  auto w = tf::variable<"w", double>(tf::init::constant(0.5));
  auto ys = tf::scan([&](auto a, auto x) { return a * w + x; }, elems, tf::constant<0.0>());
  auto dw = tf::gradient(tf::reduce_sum(ys), w);
  auto d2w = tf::gradient(dw, w);
  tf::session s(d2w);
  return 0;
}
