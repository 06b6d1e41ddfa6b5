// Compile-fail: gather_nd with an index depth (indices' last dim, 3) larger than params' rank
// (2). The diagnostic names both:
// gather_nd_index_depth_must_be_at_most_the_rank_of_params<3, shape<2, 3>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto params = tf::placeholder<"params", float, tf::shape<2, 3>>();
  auto indices = tf::placeholder<"indices", std::int32_t, tf::shape<4, 3>>();
  auto slices = tf::gather_nd(params, indices);  // the mistake
  tf::session sess(slices);
  return 0;
}
