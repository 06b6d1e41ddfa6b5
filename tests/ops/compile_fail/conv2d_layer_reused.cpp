// Compile-fail: one layer name, "conv1", over inputs of 3 and of 4 channels: two kernels
// [3, 3, 3, 8] and [3, 3, 4, 8] named "conv1/kernel" in one graph. The diagnostic names the
// kernel: two_nodes_of_the_graph_have_the_name<"conv1/kernel">.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<1, 8, 8, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<1, 8, 8, 4>>();
  auto y = tf::layers::conv2d<8, 3, 3, "conv1">(a) + tf::layers::conv2d<8, 3, 3, "conv1">(b);  // the mistake
  tf::session sess(y);
  return 0;
}
