// tf.cond whose branch assigns a variable (TensorFlow's testCond_4): a branch is free of side
// effects here; compile error naming the cond and the op.
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto p = tf::placeholder<"p", bool>();
  auto v = tf::variable<"v", float, tf::shape<>, tf::init::constant(0.0)>();
  auto y = tf::cond<"update">(p, [&] { return tf::assign(v, tf::constant<1.0f>()); }, [&] { return tf::identity(v); });
  tf::session s(y);
  return 0;
}
