// Compile-fail: flattening a shape whose dims after the batch are not static (the product
// would be unknown). The diagnostic names the shape:
// flatten_needs_static_dims_after_the_first<typeflow::shape<-1, -1, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, tf::dyn, 3>>();
  auto y = tf::flatten(x);  // the mistake
  tf::session sess(y);
  return 0;
}
