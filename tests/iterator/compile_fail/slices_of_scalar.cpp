// from_tensor_slices of a scalar, which has no rows: compile error naming its shape.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto weight = tf::placeholder<"weight", float, tf::scalar>();
  auto dataset = tf::data::from_tensor_slices(features, weight);
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
