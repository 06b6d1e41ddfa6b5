#include <typeflow/typeflow.hpp>

int main() {
  auto two = typeflow::constant<2>();
  auto three = typeflow::constant<3>();
  auto sum = two + three;
  typeflow::session sess(sum);
  return sess.run(sum) == 5 ? 0 : 1;
}
