// Compile-fail: two signatures of one meta graph named "predict". The diagnostic names it:
// signature_name_is_used_twice<..."predict"...>.
#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto a = sm::signature<"predict">(sm::inputs<"in">(x), sm::outputs<"relu">(tf::relu(x)));
  auto b = sm::signature<"predict">(sm::inputs<"in">(x), sm::outputs<"tanh">(tf::tanh(x)));
  auto map = sm::signature_map(a, b);
  (void)map;
}
