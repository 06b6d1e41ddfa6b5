#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto images = tf::placeholder<"images", float, tf::shape<tf::dyn, 3>>();
  tf::session sess(images);
  xt::xtensor_fixed<float, xt::xshape<2, 2>> batch = {{1, 2}, {3, 4}};
  sess.run(images, tf::feed(images, batch));  // error: 2 columns, not 3
}
