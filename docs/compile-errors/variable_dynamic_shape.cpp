#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto v = tf::variable<"v", float, tf::shape<tf::dyn, 3>>();  // error: dyn
  (void)v;
}
