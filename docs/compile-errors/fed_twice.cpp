#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float>();
  tf::session sess(x);
  sess.run(x, tf::feed(x, 1.0f), tf::feed(x, 2.0f));  // error: x fed twice
}
