#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3, 1>>();
  auto y = tf::squeeze<1>(x);  // error: dimension 1 has size 3
  (void)y;
}
