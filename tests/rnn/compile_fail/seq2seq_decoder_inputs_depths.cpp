// rnn_decoder over decoder inputs of two depths: one compile error naming the decoder's
// scope, the first input that differs and both shapes.
#include <tuple>

#include <typeflow/rnn/seq2seq.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x0 = tf::placeholder<"x0", float, tf::shape<2, 3>>();
  auto x1 = tf::placeholder<"x1", float, tf::shape<2, 5>>();
  auto h = tf::placeholder<"h", float, tf::shape<2, 4>>();
  auto [outputs, state] = tf::rnn::rnn_decoder(std::tuple{x0, x1}, h, tf::rnn::gru_cell<4>{});
  tf::session s(std::get<1>(outputs), state);
  return 0;
}
