// Compile-fail: invert_permutation of a matrix (TensorFlow: "x must be a vector"). The
// diagnostic names the element type and shape.
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto p = tf::placeholder<"p", std::int32_t, tf::shape<2, 2>>();
  auto q = tf::invert_permutation(p);  // the mistake
  tf::session sess(q);
  return 0;
}
