// Compile-fail: tf.layers.batch_normalization of an int32 tensor. The diagnostic names the
// element type: batch_norm_needs_a_float_or_double_input<int>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<8, 4>>();
  auto bn = tf::layers::batch_normalization<"bn">(x, tf::constant<true>());  // the mistake
  tf::session sess(bn.output);
  return 0;
}
