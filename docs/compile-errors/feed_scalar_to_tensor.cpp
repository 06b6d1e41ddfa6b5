#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  tf::session sess(x);
  sess.run(x, tf::feed(x, 1.0f));  // error: x needs 3 values
}
