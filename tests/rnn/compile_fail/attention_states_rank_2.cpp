// attention_decoder given [batch, attn_size] attention states (no length axis): one compile
// error naming the decoder's scope and the states' shape.
#include <tuple>

#include <typeflow/rnn/seq2seq.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 3>>();
  auto h = tf::placeholder<"h", float, tf::shape<2, 4>>();
  auto states = tf::placeholder<"states", float, tf::shape<2, 5>>();
  auto [outputs, state] = tf::rnn::attention_decoder<6>(std::tuple{x, x}, h, states, tf::rnn::gru_cell<4>{});
  tf::session s(std::get<1>(outputs), state);
  return 0;
}
