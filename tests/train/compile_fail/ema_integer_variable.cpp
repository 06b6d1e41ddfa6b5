// A moving average of an integer variable: does not compile, naming the variable.
#include <cstdint>

#include <typeflow/ops/variable.hpp>
#include <typeflow/train/moving_average.hpp>

int main() {
  auto n = typeflow::variable<"counter", std::int32_t>();
  auto update = typeflow::train::exponential_moving_average(0.9).apply(n);
  (void)update;
}
