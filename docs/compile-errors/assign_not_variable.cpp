#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float>();
  auto y = tf::assign(x, tf::constant<1>());  // error: x is not a variable
  (void)y;
}
