// padded_batch with a padding value of another element type than its component's: compile
// error naming the component, both types and the value's shape.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<tf::dyn, 5>>();
  auto dataset = tf::data::from_tensor_slices(ids).padded_batch(
      tf::constant<std::int64_t(8)>(), tf::data::pad_to<>{}, tf::data::padding_values(tf::constant<-1.0f>()));
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
