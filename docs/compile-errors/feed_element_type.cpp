#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  tf::session sess(x);
  xt::xtensor_fixed<double, xt::xshape<3>> value = {1, 2, 3};
  sess.run(x, tf::feed(x, value));  // error: doubles for a float placeholder
}
