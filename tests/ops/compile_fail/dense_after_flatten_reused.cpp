// Compile-fail: the classic CNN mistake of a dense layer after a flatten of the wrong size.
// The layer "logits" is built over the flattened features of a [1, 7, 7, 32] map and, sharing
// its name (TensorFlow's reuse=True), over those of a [1, 14, 14, 32] map that skipped a
// pooling: two kernels [1568, 10] and [6272, 10] named "logits/kernel" in one graph, where
// TensorFlow raises "Trying to share variable logits/kernel, but specified shape
// (6272, 10) and found shape (1568, 10)". The diagnostic names the kernel:
// two_nodes_of_the_graph_have_the_name<"logits/kernel">.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto pooled = tf::placeholder<"pooled", float, tf::shape<1, 7, 7, 32>>();
  auto unpooled = tf::placeholder<"unpooled", float, tf::shape<1, 14, 14, 32>>();
  auto train_logits = tf::layers::dense<10, "logits">(tf::layers::flatten(pooled));
  auto eval_logits = tf::layers::dense<10, "logits">(tf::layers::flatten(unpooled));  // the mistake
  tf::session sess(train_logits, eval_logits);
  return 0;
}
