// Compile-fail: a servable keeps a reference to its session; one made from a temporary
// session would run a destroyed session. The diagnostic names the signature:
// servable_needs_a_session_that_outlives_it<..."serving_default"...>.
#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto y = tf::tanh(x);
  auto sig = sm::signature<"serving_default">(sm::inputs<"in">(x), sm::outputs<"out">(y));
  const sm::servable model(tf::session{y}, sig);
  (void)model;
}
