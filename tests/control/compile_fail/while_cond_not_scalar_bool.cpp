// tf.while_loop whose cond returns a vector of bools (TensorFlow: "Shape must be rank 0"):
// compile error naming the loop, the cond's element type and shape.
#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x0 = tf::placeholder<"x0", float, tf::shape<3>>();
  auto x = tf::while_loop<"grow">([](auto x) { return tf::less(x, tf::constant<10.0f>()); },
                                  [](auto x) { return x * tf::constant<2.0f>(); }, x0);
  tf::session s(x);
  return 0;
}
