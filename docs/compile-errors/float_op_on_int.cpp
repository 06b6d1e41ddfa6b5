#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto n = tf::placeholder<"n", std::int32_t>();
  auto y = tf::sqrt(n);  // error: sqrt of an int32
  (void)y;
}
