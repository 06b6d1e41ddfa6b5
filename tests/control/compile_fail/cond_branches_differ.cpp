// tf.cond whose branches return different shapes (TensorFlow: "true_fn and false_fn must
// have the same type of returns" / incompatible shapes): compile error naming the cond.
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto p = tf::placeholder<"p", bool>();
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto y = tf::cond<"pick">(p, [&] { return x; }, [&] { return tf::reduce_sum(x); });
  tf::session s(y);
  return 0;
}
