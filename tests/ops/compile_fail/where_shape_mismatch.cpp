// Compile-fail: where(cond, x, y) with x [2, 3] and y [3] (TF 1.x Select does not
// broadcast). The diagnostic names both shapes:
// where_x_and_y_must_have_the_same_shape<typeflow::shape<2, 3>, typeflow::shape<3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto c = tf::placeholder<"c", bool, tf::shape<2, 3>>();
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::placeholder<"y", float, tf::shape<3>>();
  auto w = tf::where(c, x, y);  // the mistake
  tf::session sess(w);
  return 0;
}
