// tf.map_fn over a scalar (TensorFlow's testMapOverScalarErrors: "elems must be a 1+
// dimensional Tensor, not a scalar"): compile error naming map_fn's loop and elems's shape.
#include <typeflow/control/map_fn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float>();
  auto y = tf::map_fn([](auto e) { return e * tf::constant<2.0f>(); }, x);
  tf::session s(y);
  return 0;
}
