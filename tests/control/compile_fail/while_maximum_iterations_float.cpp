// tf.while_loop with a float maximum_iterations (TensorFlow: "maximum_iterations must be an
// integer"): compile error naming the loop and the type and shape given.
#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::while_loop<"capped">([](auto x) { return tf::less(x, tf::constant<10.0f>()); },
                                    [](auto x) { return x + tf::constant<1.0f>(); }, tf::constant<0.0f>(),
                                    tf::constant<5.0f>());
  tf::session s(x);
  return 0;
}
