// A map function that reads a named constant (its values carried by the node object, which
// the dataset's type does not hold): compile error naming it.
#include <xtensor/xfixed.hpp>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 2>>();
  auto table = tf::constant<"table">(xt::xtensor_fixed<float, xt::xshape<2>>{1.0f, 2.0f});
  auto dataset = tf::data::from_tensor_slices(features).map([&](auto x) { return x * table; });
  auto it = tf::data::make_initializable_iterator<"rows">(dataset);
  tf::session s(it.initializer());
  return 0;
}
