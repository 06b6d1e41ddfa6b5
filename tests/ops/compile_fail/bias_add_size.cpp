// Compile-fail: a bias of 4 for 3 channels. The diagnostic names both shapes:
// bias_add_needs_a_bias_of_the_size_of_the_last_dim<typeflow::shape<4>, typeflow::shape<2, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<4>>();
  auto y = tf::bias_add(x, b);  // the mistake
  tf::session sess(y);
  return 0;
}
