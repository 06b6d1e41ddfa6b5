// Compile-fail: two different nodes of one graph share the full name "w" (a float
// variable and an int32 placeholder). Names are unique per graph (DESIGN rule 5); the
// diagnostic must name the name: two_nodes_of_the_graph_have_the_name<..."w"...>.
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto w = tf::variable<"w", float, tf::shape<3>>(tf::init::zeros());
  auto other_w = tf::placeholder<"w", std::int32_t, tf::shape<3>>();  // the mistake
  auto y = w * tf::cast<float>(other_w);
  tf::session sess(y);
  return 0;
}
