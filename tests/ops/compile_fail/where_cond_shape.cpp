// Compile-fail: where(cond, x, y) with cond [3] and x, y [2, 3]: cond is neither x's shape
// nor a vector over x's first dim. The diagnostic names cond's and x's shapes:
// where_cond_must_have_the_shape_of_x_or_be_a_vector_over_its_first_dim<typeflow::shape<3>, typeflow::shape<2, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto c = tf::placeholder<"c", bool, tf::shape<3>>();
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto w = tf::where(c, x, x);  // the mistake
  tf::session sess(w);
  return 0;
}
