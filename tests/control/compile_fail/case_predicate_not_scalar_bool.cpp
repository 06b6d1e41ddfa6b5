// tf.case whose second predicate is a vector of bools: compile error naming the case, the
// predicate's index, its element type and shape.
#include <typeflow/control/case.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto y = tf::case_<"pick">(std::tuple{std::pair{tf::less(tf::reduce_sum(x), tf::constant<0.0f>()), [&] { return -x; }},
                                        std::pair{tf::greater(x, tf::constant<1.0f>()), [&] { return x; }}},
                             [&] { return x * tf::constant<2.0f>(); });
  tf::session s(y);
  return 0;
}
