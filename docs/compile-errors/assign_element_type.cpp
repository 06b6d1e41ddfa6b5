#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto v = tf::variable<"v", float, tf::shape<3>>();
  auto value = tf::placeholder<"value", double, tf::shape<3>>();
  auto y = tf::assign(v, value);  // error: double into float
  (void)y;
}
