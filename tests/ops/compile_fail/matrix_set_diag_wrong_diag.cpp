// Compile-fail: matrix_set_diag of a [2, 3] matrix with a diagonal of 3 elements (it has
// min(2, 3) = 2). The diagnostic names both shapes, the diagonal's first.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto v = tf::placeholder<"v", float, tf::shape<3>>();
  auto s = tf::matrix_set_diag(x, v);  // the mistake
  tf::session sess(s);
  return 0;
}
