// Compile-fail: matrix_transpose of a vector. The diagnostic names its shape:
// matrix_transpose_needs_rank_at_least_2<typeflow::shape<3>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto v = tf::placeholder<"v", float, tf::shape<3>>();
  auto t = tf::matrix_transpose(v);  // the mistake
  tf::session sess(t);
  return 0;
}
