// Compile-fail: stack of [2, 3] and [3, 2]. The diagnostic names both shapes:
// stack_inputs_must_have_the_same_shape<typeflow::shape<2, 3>, typeflow::shape<3, 2> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", double, tf::shape<2, 3>>();
  auto b = tf::placeholder<"b", double, tf::shape<3, 2>>();
  auto s = tf::stack<0>(a, b);  // the mistake
  tf::session sess(s);
  return 0;
}
