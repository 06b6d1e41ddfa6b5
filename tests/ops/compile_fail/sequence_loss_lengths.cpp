// Compile-fail: sequence_loss over 3 steps of logits and weights but 2 of targets. The
// diagnostic names the three counts:
// sequence_loss_needs_one_logits_targets_and_weights_node_per_time_step<3, 2, 3>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto l0 = tf::placeholder<"l0", float, tf::shape<2, 5>>();
  auto l1 = tf::placeholder<"l1", float, tf::shape<2, 5>>();
  auto l2 = tf::placeholder<"l2", float, tf::shape<2, 5>>();
  auto y0 = tf::placeholder<"y0", std::int32_t, tf::shape<2>>();
  auto y1 = tf::placeholder<"y1", std::int32_t, tf::shape<2>>();
  auto w = tf::placeholder<"w", float, tf::shape<2>>();
  auto loss = tf::sequence_loss(std::tuple{l0, l1, l2}, std::tuple{y0, y1}, std::tuple{w, w, w});  // the mistake
  tf::session sess(loss);
  return 0;
}
