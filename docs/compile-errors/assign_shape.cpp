#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto v = tf::variable<"v", float, tf::shape<3>>();
  auto value = tf::placeholder<"value", float, tf::shape<4>>();
  auto y = tf::assign(v, value);  // error: shape [4] into [3]
  (void)y;
}
