// dynamic_rnn with an initial state of the wrong width for the cell: compile error naming
// the scope, the state tensor's index, the expected and the given shapes.
#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, tf::dyn, 30>>();
  auto h0 = tf::placeholder<"h0", float, tf::shape<4, 12>>();  // gru_cell<10> has 10 units
  auto [outputs, state] = tf::rnn::dynamic_rnn<"encoder">(tf::rnn::gru_cell<10>{}, x, tf::rnn::initial_state(h0));
  tf::session s(outputs);
  (void)state;
  return 0;
}
