#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  tf::session sess(1.0f);  // error: not a node
}
