// Iterator.from_structure(train).make_initializer(test) where test's elements have another
// static shape: compile error naming the iterator and both structures.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto train_x = tf::placeholder<"train_x", float, tf::shape<tf::dyn, 784>>();
  auto test_x = tf::placeholder<"test_x", float, tf::shape<tf::dyn, 28, 28>>();
  auto train = tf::data::from_tensor_slices(train_x).batch<32>();
  auto test = tf::data::from_tensor_slices(test_x).batch<32>();
  auto it = tf::data::iterator_from_structure<"images">(train);
  auto test_init = it.make_initializer(test);
  tf::session s(test_init);
  return 0;
}
