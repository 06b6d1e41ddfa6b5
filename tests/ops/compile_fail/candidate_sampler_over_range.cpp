// Compile-fail: unique sampling of 12 distinct ids out of 10 classes. The diagnostic names
// both numbers: unique_sampling_needs_num_sampled_at_most_range_max<12, 10>; the three
// outputs bound after it add no error.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto labels = tf::placeholder<"labels", std::int64_t, tf::shape<8, 1>>();
  auto [sampled, true_count, sampled_count] = tf::log_uniform_candidate_sampler<12, 10>(labels);  // the mistake
  tf::session sess(sampled, true_count, sampled_count);
  return 0;
}
