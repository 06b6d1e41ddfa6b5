// Compile-fail: a 4x4 filter over a 3x3 image with padding VALID leaves no output. The
// diagnostic names the shapes and the options:
// conv_window_leaves_no_output<typeflow::shape<1, 3, 3, 1>, typeflow::shape<4, 4, 1, 1>, typeflow::padding::valid, ...>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 3, 3, 1>>();
  auto f = tf::placeholder<"f", float, tf::shape<4, 4, 1, 1>>();
  auto y = tf::conv2d<tf::padding::valid>(x, f);  // the mistake
  tf::session sess(y);
  return 0;
}
