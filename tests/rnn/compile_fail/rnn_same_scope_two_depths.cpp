// One cell under one scope with inputs of two depths makes two variables of one name with
// different shapes ([3 + 4, 8] and [5 + 4, 8]): a session over both outputs fails with the
// graph's duplicate-name error, naming the variable. (TensorFlow raises ValueError on the
// second call's get_variable: "Trying to share variable rnn/gru_cell/gates/kernel, but
// specified shape (9, 8) and found shape (7, 8).")
#include <typeflow/rnn/cell.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto a = tf::placeholder<"a", float, tf::shape<2, 3>>();
  auto b = tf::placeholder<"b", float, tf::shape<2, 5>>();
  auto h = tf::placeholder<"h", float, tf::shape<2, 4>>();
  tf::rnn::gru_cell<4> cell;
  auto [out_a, state_a] = cell(a, h);
  auto [out_b, state_b] = cell(b, h);
  tf::session sess(out_a, out_b);
  (void)sess;
}
