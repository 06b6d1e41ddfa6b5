#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto images = tf::placeholder<"images", float, tf::shape<tf::dyn, 28, 28, 3>>();  // RGB
  auto filter = tf::variable<"conv1/kernel", float, tf::shape<5, 5, 1, 32>>();     // for grey images
  auto y = tf::conv2d<tf::padding::same>(images, filter);  // error: 1 input channel, not 3
  (void)y;
}
