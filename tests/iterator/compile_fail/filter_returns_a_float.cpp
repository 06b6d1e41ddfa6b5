// A filter predicate that returns a float node, not a scalar bool: compile error naming what
// it returned.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto dataset = tf::data::from_tensor_slices(features).filter([](auto x) { return tf::reduce_sum(x); });
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
