// Compile-fail: conv2d of a rank-3 image (no batch dim). The diagnostic names its shape:
// conv_input_must_be_rank_4_nhwc_with_static_channels<typeflow::shape<5, 5, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<5, 5, 3>>();
  auto f = tf::placeholder<"f", float, tf::shape<3, 3, 3, 8>>();
  auto y = tf::conv2d(x, f);  // the mistake
  tf::session sess(y);
  return 0;
}
