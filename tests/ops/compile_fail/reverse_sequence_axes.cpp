// Compile-fail: reverse_sequence with seq_axis and batch_axis both 0. The diagnostic names
// the axes and x's shape:
// reverse_sequence_axes_must_be_two_different_dims_of_x<0, 0, typeflow::shape<4, 5> >.
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, 5>>();
  auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<4>>();
  auto r = tf::reverse_sequence<0, 0>(x, lengths);  // the mistake
  tf::session sess(r);
  return 0;
}
