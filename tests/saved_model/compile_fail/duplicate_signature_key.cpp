// Compile-fail: two outputs of one signature under the key "scores". The diagnostic names
// the key: signature_key_is_used_twice<..."scores"...>.
#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto sig = sm::signature<"serving_default">(sm::inputs<"features">(x),
                                              sm::outputs<"scores", "scores">(tf::relu(x), tf::tanh(x)));
  (void)sig;
}
