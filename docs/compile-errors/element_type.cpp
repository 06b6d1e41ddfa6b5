#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float>();
  auto b = tf::placeholder<"b", double>();
  auto y = a + b;  // error: float + double
  (void)y;
}
