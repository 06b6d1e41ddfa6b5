// batch(n) with a float n: compile error naming the parameter's dtype and shape.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto batch_size = tf::placeholder<"batch_size", float, tf::scalar>();
  auto dataset = tf::data::from_tensor_slices(features).batch(batch_size);
  auto it = tf::data::make_initializable_iterator<"batches">(dataset);
  tf::session s(it.initializer());
  return 0;
}
