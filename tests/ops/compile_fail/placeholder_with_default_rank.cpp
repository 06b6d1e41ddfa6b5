// Compile-fail: placeholder_with_default<"p", shape<dyn>> of a [2, 3] input, a shape of
// another rank (TensorFlow's ValueError from the shape function: "Shapes must be equal
// rank"). The diagnostic names the node and both shapes:
// placeholder_with_default_shape_must_be_compatible_with_the_input<"p", shape<-1>, shape<2, 3>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto p = tf::placeholder_with_default<"p", tf::shape<tf::dyn>>(x);  // the mistake
  tf::session sess(p);
  return 0;
}
