// Compile-fail: reverse_sequence of x [4, 5] (batch_axis 0) with 3 lengths. The diagnostic
// names the lengths' shape, the batch axis and x's shape:
// reverse_sequence_lengths_must_be_a_vector_over_the_batch_axis<typeflow::shape<3>, 0, typeflow::shape<4, 5> >.
#include <cstdint>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, 5>>();
  auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<3>>();
  auto r = tf::reverse_sequence<1, 0>(x, lengths);  // the mistake
  tf::session sess(r);
  return 0;
}
