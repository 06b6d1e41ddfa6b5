// Compile-fail: layers::conv2d named "conv2" with a 5x5 kernel over a 4x4 image, padding
// VALID (the default): no output. The diagnostic names the layer, the shapes and the options:
// conv2d_layer_leaves_no_output<"conv2", typeflow::shape<-1, 4, 4, 8>, typeflow::shape<5, 5, 8, 16>, ...>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 4, 4, 8>>();
  auto y = tf::layers::conv2d<16, 5, 5, "conv2">(x, tf::activation::relu);  // the mistake
  tf::session sess(y);
  return 0;
}
