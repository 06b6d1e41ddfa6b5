// tf.map_fn whose fn returns a number, not a node: compile error naming map_fn's loop.
#include <typeflow/control/map_fn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto elems = tf::placeholder<"elems", float, tf::shape<tf::dyn>>();
  auto y = tf::map_fn<"doubled">([](auto) { return 2.0f; }, elems);
  tf::session s(y);
  return 0;
}
