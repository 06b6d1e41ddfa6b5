// Two variables saved under the key "x" in one saver: does not compile, naming the key.
#include <typeflow/ops/variable.hpp>
#include <typeflow/train/saver.hpp>

int main() {
  auto a = typeflow::variable<"a", float>();
  auto b = typeflow::variable<"b", float>();
  typeflow::train::saver s(typeflow::train::saved_as<"x">(a), typeflow::train::saved_as<"x">(b));
  (void)s;
}
