// Compile-fail: digamma differentiated twice. digamma's gradient is trigamma, TensorFlow's
// polygamma(1, x), which has no gradient rule in typeflow: the diagnostic names the op,
// op_has_no_gradient_rule<"Polygamma">.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", double, tf::shape<3>>();
  auto g = tf::gradient(tf::reduce_sum(tf::digamma(x)), x);
  auto gg = tf::gradient(tf::reduce_sum(g), x);  // the mistake
  tf::session sess(gg);
  return 0;
}
