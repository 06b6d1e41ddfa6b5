// shard<0, 0>(): no shards to read, a compile error naming the count.
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto dataset = tf::data::range<10>().shard<0, 0>();
  auto it = tf::data::make_one_shot_iterator<"shards">(dataset);
  tf::session s(it.get_next());
  return 0;
}
