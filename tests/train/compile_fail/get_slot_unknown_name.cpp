// get_slot of a name the optimizer does not keep (plain RMSProp has no "mg"; TensorFlow's
// get_slot returns None): one error naming the optimizer and the slot name.
#include <typeflow/ops/variable.hpp>
#include <typeflow/train/rmsprop.hpp>

int main() {
  auto w = typeflow::variable<"w", float, typeflow::shape<2>>();
  auto mg = typeflow::train::get_slot<"mg">(typeflow::train::rmsprop(0.01), w);
  (void)mg;
}
