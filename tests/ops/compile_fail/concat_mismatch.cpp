// Compile-fail: concat along axis 1 of [2, 3] and [3, 4], whose dims 0 differ. The
// diagnostic names the axis and both shapes:
// concat_inputs_must_agree_except_on_the_axis<1, typeflow::shape<2, 3>, typeflow::shape<3, 4> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<3, 4>>();
  auto c = tf::concat<1>(a, b);  // the mistake
  tf::session sess(c);
  return 0;
}
