// Compile-fail: fused_batch_norm with a scale of 3 elements for x of 2 channels. The diagnostic
// names the channel count and both shapes:
// batch_norm_scale_and_offset_must_be_vectors_of_the_channel_count<2, shape<3>, shape<2> >.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<4, 5, 5, 2>>();
  auto scale = tf::placeholder<"scale", float, tf::shape<3>>();  // the mistake
  auto offset = tf::placeholder<"offset", float, tf::shape<2>>();
  auto r = tf::fused_batch_norm(x, scale, offset);
  tf::session sess(r.y);
  return 0;
}
