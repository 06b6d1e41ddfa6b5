// Compile-fail: a stride of 0. The diagnostic names the strides and dilations:
// conv_strides_and_dilations_must_be_at_least_1<typeflow::strides<0, 1>, typeflow::dilations<1, 1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 5, 5, 3>>();
  auto f = tf::placeholder<"f", float, tf::shape<3, 3, 3, 8>>();
  auto y = tf::conv2d<tf::strides<0, 1>>(x, f);  // the mistake
  tf::session sess(y);
  return 0;
}
