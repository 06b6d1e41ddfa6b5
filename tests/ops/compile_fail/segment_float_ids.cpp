// Compile-fail: segment_sum with float segment ids. The diagnostic names the element type:
// segment_ids_must_be_int32_or_int64<float>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto data = tf::placeholder<"data", float, tf::shape<4, 3>>();
  auto ids = tf::placeholder<"ids", float, tf::shape<4>>();
  auto sums = tf::unsorted_segment_sum<2>(data, ids);  // the mistake
  tf::session sess(sums);
  return 0;
}
