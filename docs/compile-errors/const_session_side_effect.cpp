#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto w = tf::variable<"w", float>(tf::init::ones());
  auto train = tf::assign_add(w, tf::constant<1.0f>());
  tf::session sess(train);
  sess.initialize_all();
  const auto& serving = sess;
  serving.run(train);  // error: a const session runs only paths that change nothing
}
