#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto n = tf::placeholder<"n", std::int32_t>();
  auto half = n * tf::constant<0.5>();  // error: 0.5 is not an int32
  (void)half;
}
