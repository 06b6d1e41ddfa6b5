#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto steps = tf::placeholder<"steps", float, tf::shape<tf::dyn, 3>>();
  auto rows = tf::unstack<0>(steps);  // error: how many nodes is not known at compile time
  (void)rows;
}
