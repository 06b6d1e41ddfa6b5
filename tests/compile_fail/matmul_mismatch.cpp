// Compile-fail: matmul of [2, 3] by [4, 5]; the inner dimensions 3 and 4 differ. The
// diagnostic must show both static shapes:
// matmul_inner_dimensions_must_agree<typeflow::shape<2, 3>, typeflow::shape<4, 5> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<4, 5>>();
  auto c = tf::matmul(a, b);  // the mistake
  tf::session sess(c);
  return 0;
}
