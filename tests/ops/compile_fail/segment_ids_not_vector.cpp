// Compile-fail: segment_sum with [2, 2] segment ids (TensorFlow's testSegmentIdsShape): the
// sorted segment ops take a vector. The diagnostic names the shape: segment_ids_must_be_a_vector<shape<2, 2>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto data = tf::placeholder<"data", float, tf::shape<2, 2>>();
  auto ids = tf::placeholder<"ids", std::int32_t, tf::shape<2, 2>>();
  auto sums = tf::segment_sum(data, ids);  // the mistake
  tf::session sess(sums);
  return 0;
}
