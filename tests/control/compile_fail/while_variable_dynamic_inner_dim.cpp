// tf.while_loop over a variable with a dynamic dim after its first: the loop carries states of
// static dims but the batch; compile error naming the loop, the variable and its shape.
#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x0 = tf::placeholder<"x0", float, tf::shape<2, tf::dyn>>();
  auto x = tf::while_loop<"grow">([](auto x) { return tf::less(tf::reduce_sum(x), tf::constant<10.0f>()); },
                                  [](auto x) { return x * tf::constant<2.0f>(); }, x0);
  tf::session s(x);
  return 0;
}
