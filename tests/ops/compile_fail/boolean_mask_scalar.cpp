// Compile-fail: a scalar mask (TensorFlow's testMaskIsScalarRaises). The diagnostic names its
// shape: boolean_mask_mask_cannot_be_scalar<shape<>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto tensor = tf::placeholder<"tensor", std::int32_t, tf::shape<4>>();
  auto mask = tf::placeholder<"mask", bool, tf::shape<>>();
  auto picked = tf::boolean_mask(tensor, mask);  // the mistake
  tf::session sess(picked);
  return 0;
}
