// Compile-fail: concat along axis 2 of rank-2 inputs. The diagnostic names the axis and
// the first input's shape: concat_axis_must_be_a_dim_of_the_inputs<2, typeflow::shape<2, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
  auto c = tf::concat<2>(a, a);  // the mistake
  tf::session sess(c);
  return 0;
}
