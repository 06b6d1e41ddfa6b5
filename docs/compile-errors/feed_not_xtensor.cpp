#include <vector>

#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn>>();
  tf::session sess(x);
  std::vector<float> values = {1, 2, 3};
  sess.run(x, tf::feed(x, values));  // error: not an xtensor container
}
