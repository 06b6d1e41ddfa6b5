// Compile-fail: random_normal of dtype int32 (TensorFlow accepts only floating dtypes for
// RandomStandardNormal). The diagnostic names the dtype.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto r = tf::random_normal<tf::shape<2, 3>, std::int32_t>();  // the mistake
  tf::session sess(r);
  return 0;
}
