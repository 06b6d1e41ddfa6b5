#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float>();
  auto other_x = tf::placeholder<"x", double>();  // another node named "x"
  auto y = x + tf::cast<float>(other_x);
  tf::session sess(y);  // error: two nodes of the graph are named "x"
}
