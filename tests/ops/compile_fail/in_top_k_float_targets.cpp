// Compile-fail: in_top_k with float targets (TensorFlow's InTopK takes int32 or int64). The
// diagnostic names the element type: in_top_k_targets_must_be_int32_or_int64<float>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto predictions = tf::placeholder<"predictions", float, tf::shape<tf::dyn, 10>>();
  auto targets = tf::placeholder<"targets", float, tf::shape<tf::dyn>>();
  auto correct = tf::in_top_k<1>(predictions, targets);  // the mistake
  tf::session sess(correct);
  return 0;
}
