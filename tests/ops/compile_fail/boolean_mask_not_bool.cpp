// Compile-fail: boolean_mask with an int32 mask. The diagnostic names the element type:
// boolean_mask_mask_must_be_bool<int>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto tensor = tf::placeholder<"tensor", float, tf::shape<4>>();
  auto mask = tf::placeholder<"mask", std::int32_t, tf::shape<4>>();
  auto picked = tf::boolean_mask(tensor, mask);  // the mistake
  tf::session sess(picked);
  return 0;
}
