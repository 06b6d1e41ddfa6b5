// A variable listed twice under its own name: does not compile, naming the key.
#include <typeflow/ops/variable.hpp>
#include <typeflow/train/saver.hpp>

int main() {
  auto w = typeflow::variable<"layer1/w", float>();
  typeflow::train::saver s(w, w);
  (void)s;
}
