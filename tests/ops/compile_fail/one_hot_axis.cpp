// Compile-fail: one_hot of [2, 4] indices with axis 3 (TensorFlow: axis must be in
// [-1, rank(indices)]). The diagnostic names the axis and the indices' rank:
// one_hot_axis_is_out_of_range<3, 2>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto indices = tf::placeholder<"indices", std::int64_t, tf::shape<2, 4>>();
  auto y = tf::one_hot<3, float, 3>(indices);  // the mistake
  tf::session sess(y);
  return 0;
}
