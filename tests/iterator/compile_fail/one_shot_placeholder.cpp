// make_one_shot_iterator of a dataset that reads a placeholder, which nothing could feed:
// compile error naming the iterator and the placeholder.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto it = tf::data::make_one_shot_iterator<"one_shot">(tf::data::from_tensor_slices(features).batch<8>());
  auto x = it.get_next();
  tf::session s(x);
  return 0;
}
