// Compile-fail: a signature output must have a value; group() has none. The diagnostic
// names the key: signature_output_has_no_value<..."done"...>.
#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<3>>();
  auto sig = sm::signature<"serving_default">(sm::inputs<"features">(x), sm::outputs<"done">(tf::group(x)));
  (void)sig;
}
