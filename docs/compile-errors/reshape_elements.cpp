#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
  auto y = tf::reshape<tf::shape<4, 2>>(a);  // error: 6 elements into 8
  (void)y;
}
