// Compile-fail: nn_xent_test.py testShapeError, labels [1, 2, 3] against logits [[2, 1]]
// (TensorFlow's ValueError "must have the same shape"). The diagnostic names both shapes:
// labels_and_logits_must_have_the_same_shape<typeflow::shape<3>, typeflow::shape<1, 2> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto labels = tf::constant<"labels">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
  auto logits = tf::constant<"logits">(xt::xtensor_fixed<float, xt::xshape<1, 2>>{{2, 1}});
  auto loss = tf::sigmoid_cross_entropy_with_logits(labels, logits);  // the mistake
  tf::session sess(loss);
  return 0;
}
