#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto y = tf::transpose<0, 0>(x);  // error: not a permutation
  (void)y;
}
