// RMSPropOptimizer's centered=True spelled as a bool: centering adds a slot, so it must be
// known when the graph is built; one error names the tag to pass.
#include <typeflow/train/rmsprop.hpp>

int main() {
  auto opt = typeflow::train::rmsprop(0.01, 0.9, 0.0, 1e-10, true);
  (void)opt;
}
