// Compile-fail: an xtensor_fixed of shape [2, 2] fed to placeholder 'images' of shape
// [?, 3]. The value's type fixes its shape, so the feed cannot compile (DESIGN rule 4);
// the diagnostic names the placeholder and both shapes:
// cannot_feed_a_value_of_static_shape_to<..."images"..., shape<2, 2>, shape<-1, 3>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto images = tf::placeholder<"images", float, tf::shape<tf::dyn, 3>>();
  auto y = tf::reduce_sum(images);
  tf::session sess(y);
  const xt::xtensor_fixed<float, xt::xshape<2, 2>> batch = {{1, 2}, {3, 4}};
  return static_cast<int>(sess.run(y, tf::feed(images, batch)));  // the mistake: 2 columns, not 3
}
