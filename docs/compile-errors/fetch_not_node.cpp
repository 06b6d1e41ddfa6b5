#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  tf::session sess;
  sess.run(2.0f);  // error: not a node
}
