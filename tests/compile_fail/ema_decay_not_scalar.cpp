// Compile-fail: a moving average's decay must be a number or a scalar node; here it is a
// vector. The diagnostic must name the hyperparameter:
// hyperparameter_must_be_a_scalar_node_or_a_number<"decay">.
#include <typeflow/typeflow.hpp>
#include <typeflow/train/moving_average.hpp>

namespace tf = typeflow;

int main() {
  auto decay = tf::placeholder<"decay", double, tf::shape<2>>();
  auto ema = tf::train::exponential_moving_average(decay);  // the mistake
  (void)ema;
  return 0;
}
