// tf.while_loop whose body assigns a variable: a loop's body is free of side effects here;
// compile error naming the loop and the op.
#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto v = tf::variable<"v", float, tf::shape<>, tf::init::constant(0.0)>();
  auto x = tf::while_loop<"bump">([](auto x) { return tf::less(x, tf::constant<10.0f>()); },
                                  [&](auto x) { return x + tf::assign_add(v, tf::constant<1.0f>()); },
                                  tf::constant<0.0f>());
  tf::session s(x);
  return 0;
}
