// Compile-fail: gather_nd with indices whose last dim (the index depth) is dyn: the output's
// rank would be unknown (TensorFlow's testUnknownIndices gives an unknown rank). The
// diagnostic names indices' shape:
// gather_nd_indices_need_rank_at_least_1_and_a_static_last_dim<shape<2, -1>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto params = tf::placeholder<"params", float, tf::shape<2, 3>>();
  auto indices = tf::placeholder<"indices", std::int32_t, tf::shape<2, tf::dyn>>();
  auto slices = tf::gather_nd(params, indices);  // the mistake
  tf::session sess(slices);
  return 0;
}
