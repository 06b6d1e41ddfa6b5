// Compile-fail: fused_batch_norm of a rank-2 tensor (it needs NHWC, rank 4). The diagnostic
// names x's shape: fused_batch_norm_needs_a_rank_4_nhwc_input_with_static_channels<shape<8, 4> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<8, 4>>();
  auto scale = tf::placeholder<"scale", float, tf::shape<4>>();
  auto offset = tf::placeholder<"offset", float, tf::shape<4>>();
  auto r = tf::fused_batch_norm(x, scale, offset);  // the mistake
  tf::session sess(r.y);
  return 0;
}
