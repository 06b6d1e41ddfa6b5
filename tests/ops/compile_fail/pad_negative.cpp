// Compile-fail: a negative padding. The diagnostic names the shape and the paddings:
// pad_needs_one_ints_before_after_of_at_least_0_per_dimension<typeflow::shape<2, 3>,
// typeflow::ints<-1, 1>, typeflow::ints<0, 0> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::pad<tf::ints<-1, 1>, tf::ints<0, 0>>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
