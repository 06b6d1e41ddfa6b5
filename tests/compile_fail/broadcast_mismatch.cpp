// Compile-fail: [2, 3] + [4] does not broadcast (trailing dims 3 and 4). The diagnostic
// must show both static shapes:
// shapes_must_be_broadcast_compatible<typeflow::shape<2, 3>, typeflow::shape<4> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<4>>();
  auto c = a + b;  // the mistake
  tf::session sess(c);
  return 0;
}
