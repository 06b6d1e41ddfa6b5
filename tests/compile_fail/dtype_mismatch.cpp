// Compile-fail: a float node plus a double node. Element types must match (convert with
// typeflow::cast<T>); the diagnostic must show both element types:
// operands_must_have_the_same_element_type<float, double>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<3>>();
  auto b = tf::placeholder<"b", double, tf::shape<3>>();
  auto c = a + b;  // the mistake
  tf::session sess(c);
  return 0;
}
