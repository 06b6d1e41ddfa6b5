// model_with_buckets with targets shorter than the largest bucket's decoder: one error naming
// the inputs ("targets"), their steps (3) and the bucket's (4).
#include <typeflow/rnn/buckets.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<2, 5>>();
  auto y = tf::placeholder<"y", std::int32_t, tf::shape<2>>();
  auto w = tf::placeholder<"w", float, tf::shape<2>>();
  auto model = [](const auto&, const auto& dec) { return std::pair{dec, 0}; };
  auto [outputs, losses] = rnn::model_with_buckets<rnn::buckets<rnn::bucket<2, 2>, rnn::bucket<4, 4>>>(
      std::tuple{x, x, x, x}, std::tuple{x, x, x, x}, std::tuple{y, y, y}, std::tuple{w, w, w, w}, model);
  tf::session sess(std::get<1>(losses));
  (void)outputs;
  return 0;
}
