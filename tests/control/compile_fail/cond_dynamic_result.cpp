// tf.cond whose result has a dynamic dim: cond's results have static shapes (what its
// branches read may not); compile error naming the cond and the result's shape.
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto p = tf::placeholder<"p", bool>();
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 2>>();
  auto y = tf::cond<"pick">(p, [&] { return x * tf::constant<2.0f>(); }, [&] { return x; });
  tf::session s(y);
  return 0;
}
