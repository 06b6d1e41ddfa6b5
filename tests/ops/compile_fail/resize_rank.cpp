// Compile-fail: resizing a [H, W] matrix instead of an NHWC image. The diagnostic names the size
// and the shape: resize_nearest_neighbor_needs_an_nhwc_image_and_a_size_of_at_least_1<
// typeflow::ints<4, 4>, typeflow::shape<2, 2> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 2>>();
  auto y = tf::resize_nearest_neighbor<4, 4>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
