// Compile-fail: strides given twice. The diagnostic names the options:
// conv_options_must_be_strides_padding_and_dilations_at_most_once_each<typeflow::strides<2, 2>, typeflow::strides<1, 1> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 5, 5, 3>>();
  auto f = tf::placeholder<"f", float, tf::shape<3, 3, 3, 8>>();
  auto y = tf::conv2d<tf::strides<2>, tf::strides<1>>(x, f);  // the mistake
  tf::session sess(y);
  return 0;
}
