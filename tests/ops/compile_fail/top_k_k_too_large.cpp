// Compile-fail: top_k<4> of a [2, 2] input (topk_op_test.py testKTooLarge, a ValueError when
// TensorFlow builds the graph). The diagnostic names k and the shape:
// top_k_k_must_be_at_most_the_last_dimension<4, shape<2, 2>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto inputs = tf::placeholder<"inputs", float, tf::shape<2, 2>>();
  auto [values, indices] = tf::top_k<4>(inputs);  // the mistake
  tf::session sess(values, indices);
  return 0;
}
