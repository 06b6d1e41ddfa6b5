// Compile-fail: pooling an image without its batch dimension. The diagnostic names the shape:
// pool_input_must_have_rank_4<typeflow::shape<4, 4, 1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, 4, 1>>();
  auto y = tf::max_pool<tf::ksize<2, 2>, tf::strides<2, 2>, tf::padding::valid>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
