// Compile-fail: a [3] mask for a [2, 2] tensor (TensorFlow's
// testMaskShapeDifferentThanFirstPartOfTensorShapeRaises). The diagnostic names both shapes.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto tensor = tf::placeholder<"tensor", std::int32_t, tf::shape<2, 2>>();
  auto mask = tf::placeholder<"mask", bool, tf::shape<3>>();
  auto picked = tf::boolean_mask(tensor, mask);  // the mistake
  tf::session sess(picked);
  return 0;
}
