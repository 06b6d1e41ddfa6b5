#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float>();
  auto init = tf::variables_initializer(x);  // error: x is not a variable
  (void)init;
}
