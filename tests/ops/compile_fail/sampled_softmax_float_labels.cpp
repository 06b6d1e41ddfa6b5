// Compile-fail: sampled_softmax_loss with float labels. The diagnostic names the element
// type: sampled_labels_must_be_int32_or_int64<float>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto w = tf::placeholder<"w", float, tf::shape<10, 4>>();
  auto b = tf::placeholder<"b", float, tf::shape<10>>();
  auto x = tf::placeholder<"x", float, tf::shape<8, 4>>();
  auto labels = tf::placeholder<"labels", float, tf::shape<8, 1>>();
  auto loss = tf::sampled_softmax_loss<3, 10>(w, b, labels, x);  // the mistake
  tf::session sess(loss);
  return 0;
}
