#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto input_placeholder = tf::placeholder<"input", std::int32_t>();
  auto three_node = tf::constant<3>();
  auto sum_node = input_placeholder + three_node;
  tf::session sess(sum_node);
  sess.run(three_node);  // fine: the placeholder is not on three_node's path
  sess.run(sum_node);    // error: input_placeholder is on the path and not fed
}
