// Compile-fail: sequence_loss with all_steps_at_once over steps of logits [5] (a step's batch
// forgotten). The diagnostic names the step's shape:
// sequence_loss_all_steps_at_once_needs_logits_of_batch_by_classes<typeflow::shape<5>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto l0 = tf::placeholder<"l0", float, tf::shape<5>>();
  auto l1 = tf::placeholder<"l1", float, tf::shape<5>>();
  auto y0 = tf::placeholder<"y0", std::int32_t, tf::shape<>>();
  auto y1 = tf::placeholder<"y1", std::int32_t, tf::shape<>>();
  auto w = tf::placeholder<"w", float, tf::shape<>>();
  auto loss = tf::sequence_loss(std::tuple{l0, l1}, std::tuple{y0, y1}, std::tuple{w, w},
                                tf::all_steps_at_once());  // the mistake: logits without a batch
  tf::session sess(loss);
  return 0;
}
