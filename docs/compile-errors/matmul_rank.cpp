#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto w = tf::variable<"w", float, tf::shape<3, 2>>();
  auto y = tf::matmul(x, w);  // error: x is a vector
  (void)y;
}
