// tf.case given a predicate and a function without a std::pair around each pair: compile error
// naming the case.
#include <typeflow/control/case.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", std::int32_t>();
  auto y = tf::case_<"pick">(std::tuple{tf::equal(x, tf::constant<1>()), [] { return tf::constant<2>(); },
                                        tf::equal(x, tf::constant<2>()), [] { return tf::constant<4>(); }},
                             [] { return tf::constant<6>(); });
  tf::session s(y);
  return 0;
}
