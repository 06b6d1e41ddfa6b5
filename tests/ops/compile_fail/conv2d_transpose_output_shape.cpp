// Compile-fail: conv2d_transpose to [1, 6, 6, 2] of a [1, 2, 2, 3] value: conv2d of
// [1, 6, 6, 2] with the 3x3 filter at stride 2 (VALID) gives [1, 2, 2, 3], not [1, 3, 3, 3].
// The diagnostic names output_shape, the filter's and the value's shapes:
// conv2d_transpose_output_shape_must_convolve_to_the_value_shape<typeflow::shape<1, 6, 6, 2>, typeflow::shape<3, 3, 2, 3>, typeflow::shape<1, 3, 3, 3>, ...>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto v = tf::placeholder<"v", float, tf::shape<1, 3, 3, 3>>();
  auto f = tf::placeholder<"f", float, tf::shape<3, 3, 2, 3>>();
  auto y = tf::conv2d_transpose<tf::shape<1, 6, 6, 2>, tf::strides<2>>(v, f);  // the mistake
  tf::session sess(y);
  return 0;
}
