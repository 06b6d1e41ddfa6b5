// tf.cond with a pred that is not a boolean scalar (TensorFlow: "pred must not be a Python
// bool" / a rank error): compile error naming the cond, the pred's element type and shape.
#include <typeflow/control/cond.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto y = tf::cond<"pick">(x > tf::constant<0.0f>(), [&] { return x; }, [&] { return -x; });
  tf::session s(y);
  return 0;
}
