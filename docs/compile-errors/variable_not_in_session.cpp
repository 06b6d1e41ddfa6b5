#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto v = tf::variable<"v", float>();
  auto w = tf::variable<"w", float>();
  tf::session sess(v);  // holds v only
  sess.run(tf::global_variables_initializer());
  sess.run(v + w);  // error: w is not in the session's graph
}
