// Compile-fail: a 3x3 VALID window over a 2x2 image leaves no output. The diagnostic names
// the window, the strides and the shape: pool_window_leaves_no_output_with_valid_padding<
// typeflow::ksize<3, 3>, typeflow::strides<1, 1>, typeflow::shape<1, 2, 2, 1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 2, 2, 1>>();
  auto y = tf::max_pool<tf::ksize<3, 3>, tf::strides<1, 1>, tf::padding::valid>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
