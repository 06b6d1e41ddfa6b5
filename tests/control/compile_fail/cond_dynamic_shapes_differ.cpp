// tf.cond with two results of a dynamic first dim of different shapes: such results travel
// stacked through the branch loop's output, so they must share one shape; compile error
// naming the cond and both shapes.
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto p = tf::placeholder<"p", bool>();
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 2>>();
  auto y = tf::placeholder<"y", float, tf::shape<tf::dyn, 3>>();
  auto [a, b] = tf::cond<"pick">(p, [&] { return std::tuple{x, y}; }, [&] { return std::tuple{-x, -y}; });
  tf::session s(a, b);
  return 0;
}
