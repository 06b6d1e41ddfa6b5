#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"w", float, tf::shape<4, 2>>();
  auto y = tf::matmul(x, w);  // error: 3 columns, 4 rows
  (void)y;
}
