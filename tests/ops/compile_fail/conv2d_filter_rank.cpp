// Compile-fail: conv2d with a rank-3 filter. The diagnostic names its shape:
// conv_filter_must_be_rank_4_with_a_static_shape<typeflow::shape<3, 3, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 5, 5, 3>>();
  auto f = tf::placeholder<"f", float, tf::shape<3, 3, 3>>();
  auto y = tf::conv2d(x, f);  // the mistake
  tf::session sess(y);
  return 0;
}
