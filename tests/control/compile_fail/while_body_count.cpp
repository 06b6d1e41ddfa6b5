// tf.while_loop whose body returns one value for two loop variables (TensorFlow: "The two
// structures don't have the same number of elements"): compile error naming the loop and the
// counts.
#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x0 = tf::placeholder<"x0", float>();
  auto [i, x] = tf::while_loop<"count">([](auto i, auto) { return tf::less(i, tf::constant<10>()); },
                                        [](auto i, auto) { return i + tf::constant<1>(); },
                                        std::tuple{tf::constant<0>(), x0});
  tf::session s(i, x);
  return 0;
}
