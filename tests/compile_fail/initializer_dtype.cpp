// Compile-fail: an integer variable with random_normal in its type. TensorFlow's
// random_normal_initializer raises ValueError ("Expected floating point type") for an int32
// variable; typeflow's diagnostic names the variable and its element type:
// initializer_must_fit_the_variables_element_type<..."steps"..., int>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  // the mistake: random_normal draws floating values, and "steps" holds int32
  auto steps = tf::variable<"steps", std::int32_t, tf::shape<2>, tf::init::random_normal()>();
  tf::session sess(steps);
  sess.initialize_all();
  return static_cast<int>(sess.run(steps)(0));
}
