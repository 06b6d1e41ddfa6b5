// Compile-fail: gather_nd with float indices. The diagnostic names the element type:
// gather_nd_indices_must_be_int32_or_int64<float>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto params = tf::placeholder<"params", float, tf::shape<5, 3>>();
  auto indices = tf::placeholder<"indices", float, tf::shape<2, 2>>();
  auto slices = tf::gather_nd(params, indices);  // the mistake
  tf::session sess(slices);
  return 0;
}
