// tf.cond whose result has a dynamic dim after its first: a result may have a dynamic first
// dim (a batch) only; compile error naming the cond and the result's shape.
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto p = tf::placeholder<"p", bool>();
  auto x = tf::placeholder<"x", float, tf::shape<2, tf::dyn>>();
  auto y = tf::cond<"pick">(p, [&] { return x * tf::constant<2.0f>(); }, [&] { return x; });
  tf::session s(y);
  return 0;
}
