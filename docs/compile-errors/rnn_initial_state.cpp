#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, tf::dyn, 30>>();
  auto h0 = tf::placeholder<"h0", float, tf::shape<4, 12>>();
  // error: a GRUCell(10)'s state is [batch, 10]
  auto [outputs, state] = tf::rnn::dynamic_rnn<"encoder">(tf::rnn::gru_cell<10>{}, x, tf::rnn::initial_state(h0));
  (void)outputs;
  (void)state;
}
