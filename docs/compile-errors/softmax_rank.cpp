#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float>();
  auto y = tf::softmax(x);  // error: a scalar has no last axis
  (void)y;
}
