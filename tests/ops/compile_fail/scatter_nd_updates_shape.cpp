// Compile-fail: scatter_nd whose updates ([2, 2, 2]) do not have the shape
// indices.shape[:-1] + shape[depth:] ([3, 2] + [2]): TensorFlow's testRank3InvalidShape1
// (a ValueError). The diagnostic names the three shapes:
// scatter_nd_updates_must_have_shape_indices_outer_dims_plus_shape_inner_dims<
//     shape<2, 2, 2>, shape<3, 2, 2>, shape<2, 2, 2>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto indices = tf::placeholder<"indices", std::int32_t, tf::shape<3, 2, 2>>();
  auto updates = tf::placeholder<"updates", std::int32_t, tf::shape<2, 2, 2>>();
  auto out = tf::scatter_nd<tf::shape<2, 2, 2>>(indices, updates);  // the mistake
  tf::session sess(out);
  return 0;
}
