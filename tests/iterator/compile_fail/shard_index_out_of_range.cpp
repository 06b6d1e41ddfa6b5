// shard(num_shards, index) of literals with index >= num_shards: a compile error naming both.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto dataset = tf::data::range<10>().shard(tf::constant<std::int64_t{5}>(), tf::constant<std::int64_t{7}>());
  auto it = tf::data::make_one_shot_iterator<"shards">(dataset);
  tf::session s(it.get_next());
  return 0;
}
