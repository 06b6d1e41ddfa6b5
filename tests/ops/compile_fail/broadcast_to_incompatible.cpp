// Compile-fail: broadcast_to of a [3] vector to [2, 1]. The diagnostic names both shapes:
// broadcast_to_cannot_broadcast_the_input_to_the_target_shape<typeflow::shape<3>, typeflow::shape<2, 1>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto b = tf::broadcast_to<tf::shape<2, 1>>(x);  // the mistake
  tf::session sess(b);
  return 0;
}
