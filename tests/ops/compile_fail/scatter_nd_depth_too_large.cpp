// Compile-fail: scatter_nd with an index depth (indices' last dim, 3) larger than the rank of
// the shape (2). The diagnostic names both:
// scatter_nd_index_depth_must_be_at_most_the_rank_of_shape<3, shape<2, 2>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto indices = tf::placeholder<"indices", std::int64_t, tf::shape<1, 3>>();
  auto updates = tf::placeholder<"updates", float, tf::shape<1>>();
  auto out = tf::scatter_nd<tf::shape<2, 2>>(indices, updates);  // the mistake
  tf::session sess(out);
  return 0;
}
