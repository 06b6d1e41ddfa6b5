// Compile-fail: unstack along a dimension of run-time size (tf::dyn): the number of nodes
// must be known at compile time (TensorFlow needs `num` then). The diagnostic names the axis
// and the shape: split_or_unstack_needs_a_static_size_along_axis<0, typeflow::shape<-1, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto rows = tf::unstack<0>(x);  // the mistake
  tf::session sess(std::get<0>(rows));
  return 0;
}
