// Compile-fail: diag_part of a rank-3 tensor (DiagPartOpTest.testOddRank). The diagnostic
// names its shape: diag_part_needs_shape_d1_to_dk_twice<typeflow::shape<3, 3, 3>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3, 3, 3>>();
  auto d = tf::diag_part(x);  // the mistake
  tf::session sess(d);
  return 0;
}
