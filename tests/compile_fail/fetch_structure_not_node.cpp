// Compile-fail: a structured fetch with an int inside (std::array of std::tuple). The
// diagnostic names the part that is not a node, fetch_is_not_a_typeflow_node<int>, and
// stops there.
#include <array>
#include <tuple>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float>();
  auto y = x * tf::constant<2>();
  tf::session sess(y);
  auto r = sess.run(std::array{std::tuple{y, 3}}, tf::feed(x, 1.0f));  // the mistake: 3 is not a node
  (void)r;
}
