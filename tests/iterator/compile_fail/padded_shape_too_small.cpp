// padded_batch with a padded shape smaller than the component's static shape: compile error
// naming the component and both shapes.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<tf::dyn>>();
  auto dataset = tf::data::from_tensor_slices(ids, features)
                     .padded_batch<8>(tf::data::pad_to<tf::scalar, tf::shape<3>>{});
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
