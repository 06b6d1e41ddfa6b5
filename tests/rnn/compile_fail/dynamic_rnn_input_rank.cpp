// dynamic_rnn over a [batch, depth] input (no time dimension): compile error naming the scope
// and the input's shape.
#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 30>>();
  auto [outputs, state] = tf::rnn::dynamic_rnn(tf::rnn::gru_cell<10>{}, x);
  tf::session s(outputs);
  (void)state;
  return 0;
}
