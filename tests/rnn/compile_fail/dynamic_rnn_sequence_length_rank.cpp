// dynamic_rnn with sequence_length of shape [batch, 1] (TensorFlow's
// testInvalidSequenceLengthShape): compile error naming the scope and the shape.
#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/dynamic_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, tf::dyn, 30>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<4, 1>>();
  auto [outputs, state] = tf::rnn::dynamic_rnn(tf::rnn::gru_cell<10>{}, x, tf::rnn::sequence_length(len));
  tf::session s(outputs);
  (void)state;
  return 0;
}
