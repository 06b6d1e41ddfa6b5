// Compile-fail: local_response_normalization of a [batch, features] input (TensorFlow's LRN
// needs a 4-D NHWC input). The diagnostic names the element type and the shape:
// local_response_normalization_needs_a_rank_4_float_or_double_input<float, shape<-1, 64>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 64>>();
  auto norm = tf::local_response_normalization<4, 1.0, 0.001 / 9.0, 0.75>(features);  // the mistake
  tf::session sess(norm);
  return 0;
}
