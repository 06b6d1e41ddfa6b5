// A map function with a side effect (a print): compile error naming the op.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 2>>();
  auto dataset = tf::data::from_tensor_slices(features).map([](auto x) { return tf::print<"row">(x, x); });
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
