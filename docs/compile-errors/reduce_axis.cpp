#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::reduce_sum<2>(x);  // error: x has axes 0 and 1
  (void)y;
}
