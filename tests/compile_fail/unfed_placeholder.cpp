// Compile-fail: fetching y = input_x * 2 without feeding input_x. The path of the fetch
// reaches the placeholder, so the run cannot compile (DESIGN rule 3); the diagnostic must
// name the placeholder: you_must_feed_a_value_for_placeholder<..."input_x"...>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto input_x = tf::placeholder<"input_x", float, tf::shape<tf::dyn, 3>>();
  auto y = input_x * tf::constant<2>();
  tf::session sess(y);
  auto value = sess.run(y);  // the mistake: no tf::feed(input_x, ...)
  return static_cast<int>(value.size());
}
