// Compile-fail: a std::vector fed to placeholder 'features'. A feed takes a scalar, an
// xtensor container or an xtensor expression; the diagnostic names the placeholder and the
// fix (xt::adapt(vec, shape)), then stops: no list of xtensor constructors follows.
#include <vector>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn>>();
  auto y = tf::reduce_sum(features);
  tf::session sess(y);
  const std::vector<float> values = {1, 2, 3};
  return static_cast<int>(sess.run(y, tf::feed(features, values)));  // the mistake: not an xtensor
}
