// Compile-fail: REFLECT padding of 3 on a dimension of 3 (at most 2). The diagnostic names the
// mode, the shape and the paddings: mirror_pad_paddings_must_fit_in_the_dimension<
// typeflow::pad_mode::reflect, typeflow::shape<2, 3>, typeflow::ints<1, 1>, typeflow::ints<3, 0> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::pad<tf::pad_mode::reflect, tf::ints<1, 1>, tf::ints<3, 0>>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
