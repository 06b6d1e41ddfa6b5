// A map function that reads a placeholder other than its arguments: compile error naming it.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto scale = tf::placeholder<"scale", float, tf::scalar>();
  auto dataset = tf::data::from_tensor_slices(features).map([&](auto x) { return x * scale; });
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
