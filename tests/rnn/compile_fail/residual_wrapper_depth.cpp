// A residual wrapper around a GRU of 3 units given inputs of depth 4: the output (3) plus the
// input (4) cannot be added; the wrapper's check names the scope, the depth and the output size.
#include <typeflow/rnn/cell.hpp>
#include <typeflow/rnn/wrappers.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 4>>();
  auto h = tf::placeholder<"h", float, tf::shape<2, 3>>();
  auto [out, state] = tf::rnn::residual_wrapper(tf::rnn::gru_cell<3>{}).call<"encoder">(x, h);  // the mistake
  tf::session sess(out, state);
  (void)sess;
}
