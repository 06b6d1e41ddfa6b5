#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<2>>();
  auto y = a + b;  // error: trailing dimensions 3 and 2
  (void)y;
}
