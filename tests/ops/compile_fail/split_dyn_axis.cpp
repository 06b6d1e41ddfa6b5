// Compile-fail: split along a dimension of run-time size (tf::dyn). The diagnostic names the
// axis and the shape: split_or_unstack_needs_a_static_size_along_axis<1, typeflow::shape<2, -1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, tf::dyn>>();
  auto pieces = tf::split<2, 1>(x);  // the mistake
  tf::session sess(std::get<0>(pieces));
  return 0;
}
