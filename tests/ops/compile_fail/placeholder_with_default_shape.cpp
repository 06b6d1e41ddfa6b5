// Compile-fail: placeholder_with_default<"p", shape<2, 2>> of a [2, 3] input (TensorFlow's
// ValueError from the shape function: "Dimension 1 in both shapes must be equal"). The
// diagnostic names the node and both shapes:
// placeholder_with_default_shape_must_be_compatible_with_the_input<"p", shape<2, 2>, shape<2, 3>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto p = tf::placeholder_with_default<"p", tf::shape<2, 2>>(x);  // the mistake
  tf::session sess(p);
  return 0;
}
