// A map function that reads a variable: compile error naming it.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto w = tf::variable<"layer/w", float, tf::shape<4>, tf::init::zeros()>();
  auto dataset = tf::data::from_tensor_slices(features).map([&](auto x) { return x * w; });
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
