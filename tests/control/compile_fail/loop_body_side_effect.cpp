// A loop's body that assigns to a variable: compile error naming the loop and the op.
#include <typeflow/control/scan.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto elems = tf::placeholder<"elems", float, tf::shape<tf::dyn>>();
  auto counter = tf::variable<"counter", float>(tf::init::zeros());
  auto ys = tf::scan<"counting">([&](auto a, auto x) { return a + tf::assign_add(counter, x); }, elems,
                                 tf::constant<0.0f>());
  tf::session s(ys);
  return static_cast<int>(s.run(ys, tf::feed(elems, xt::xtensor<float, 1>{1, 2}))(0));
}
