// tf.while_loop whose body returns its counter as float (TensorFlow: "Input 1 ... has type
// float32 that does not match type int32"): compile error naming the loop, the variable, its
// type and shape and those the body returned.
#include <typeflow/control/while_loop.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x0 = tf::placeholder<"x0", float>();
  auto [i, x] = tf::while_loop<"count">(
      [](auto i, auto) { return tf::less(i, tf::constant<10>()); },
      [](auto i, auto x) { return std::tuple{tf::cast<float>(i) + tf::constant<1.0f>(), x * x}; },
      std::tuple{tf::constant<0>(), x0});
  tf::session s(i, x);
  return 0;
}
