// Compile-fail: the session is made from relu(x) only; a servable of a signature whose
// output tanh(x) is not in that graph names the signature and the key:
// signature_tensor_is_not_in_the_sessions_graph<..."serving_default"..., ..."tanh"...>.
#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto sig = sm::signature<"serving_default">(sm::inputs<"in">(x), sm::outputs<"tanh">(tf::tanh(x)));
  tf::session sess(tf::relu(x));
  const sm::servable model(sess, sig);
  (void)model;
}
