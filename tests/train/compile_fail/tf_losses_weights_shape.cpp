// Compile-fail: tf.losses weights must be a scalar or have the losses' rank with each
// dimension 1 or the losses' (TensorFlow's assert_broadcastable; losses_test.py
// LogLossTest.testWeightsWithSameNumDimsButWrongShapeThrowsException, a ValueError there):
// [2, 4] weights of [2, 3] losses. The one diagnostic names the loss and both shapes.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto labels = tf::placeholder<"labels", float, tf::shape<2, 3>>();
  auto predictions = tf::placeholder<"predictions", float, tf::shape<2, 3>>();
  auto weights = tf::placeholder<"weights", float, tf::shape<2, 4>>();
  auto loss = tf::losses::log_loss(labels, predictions, weights);  // the mistake
  (void)loss;
  return 0;
}
