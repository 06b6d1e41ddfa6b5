// An LSTM cell given a [batch, time, depth] input (a whole sequence, not one step): the
// cell's check names the cell, the scope and the input's shape.
#include <typeflow/rnn/cell.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 7, 3>>();
  auto c = tf::placeholder<"c", float, tf::shape<2, 4>>();
  auto h = tf::placeholder<"h", float, tf::shape<2, 4>>();
  auto [out, state] = tf::rnn::lstm_cell<4>{}(x, tf::rnn::lstm_state_tuple{c, h});
  tf::session sess(out, state.c);
  (void)sess;
}
