// Compile-fail: conv2d of a 3-channel x with a filter for 2 in-channels. The diagnostic names
// both channel counts and both shapes:
// conv2d_filter_input_channels_must_match_the_input<2, 3, typeflow::shape<3, 3, 2, 8>, typeflow::shape<1, 5, 5, 3> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<1, 5, 5, 3>>();
  auto f = tf::placeholder<"f", float, tf::shape<3, 3, 2, 8>>();
  auto y = tf::conv2d(x, f);  // the mistake
  tf::session sess(y);
  return 0;
}
