// Compile-fail: a stride of 0. The diagnostic names the window and the strides:
// pool_ksize_and_strides_must_be_at_least_1<typeflow::ksize<2, 2>, typeflow::strides<0, 1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 4, 4, 1>>();
  auto y = tf::avg_pool<tf::ksize<2, 2>, tf::strides<0, 1>, tf::padding::same>(x);  // the mistake
  tf::session sess(y);
  return 0;
}
