// A map function that returns a number, not a node: compile error naming the result's type.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto dataset = tf::data::from_tensor_slices(features).map([](auto x) { return std::tuple{x, 1.0f}; });
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
