#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto n = tf::placeholder<"n", std::int32_t>();
  auto y = tf::check_numerics<"n">(n);  // error: integers have no NaN
  (void)y;
}
