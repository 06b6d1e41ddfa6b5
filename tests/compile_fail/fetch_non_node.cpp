// Compile-fail: sess.run(42) fetches a number, not a node. The diagnostic must name
// the type fetched: fetch_is_not_a_typeflow_node<int>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::constant<2>();
  tf::session sess(x);
  sess.run(42);  // the mistake
  return 0;
}
