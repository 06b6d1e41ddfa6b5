// A GRU cell of 4 units given a state of width 5: the cell's check names the cell, the
// scope, the state's index, the expected width and the state's shape.
#include <typeflow/rnn/cell.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto h = tf::placeholder<"h", float, tf::shape<2, 5>>();
  auto [out, state] = tf::rnn::gru_cell<4>{}(x, h);
  tf::session sess(out, state);
  (void)sess;
}
