// Compile-fail: layers::conv2d named "conv1" over an image whose channels are dynamic
// (its kernel [3, 3, C, 8] needs a static C). The diagnostic names the layer and the shape:
// conv2d_layer_input_must_be_rank_4_nhwc_with_static_channels<"conv1", typeflow::shape<-1, 8, 8, -1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 8, 8, tf::dyn>>();
  auto y = tf::layers::conv2d<8, 3, 3, "conv1">(x);  // the mistake
  tf::session sess(y);
  return 0;
}
