// Compile-fail: reshape of a [2, 3] tensor (6 elements) to [4] (4 elements). The
// diagnostic must show both shapes:
// reshape_needs_the_same_number_of_elements<typeflow::shape<2, 3>, typeflow::shape<4> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::reshape<tf::shape<4>>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
