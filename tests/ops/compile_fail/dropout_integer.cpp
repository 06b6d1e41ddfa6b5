// Compile-fail: dropout of an int32 tensor. The diagnostic names the element type:
// dropout_needs_a_float_or_double_input<int>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<8, 4>>();
  auto y = tf::dropout<1>(x, tf::constant<0.5>());  // the mistake
  tf::session sess(y);
  return 0;
}
