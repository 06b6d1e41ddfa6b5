// docs/reference/moving-averages.md: averages of tensors, and MovingAverageOptimizer with its
// swapping saver.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/moving_average_optimizer.hpp>
#include <typeflow/train/saver.hpp>

#include "expect.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;

int main() {
  const auto dir = std::filesystem::temp_directory_path() / "typeflow-snippet-mao";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    // [snippet tensor]
    auto v0 = tf::variable<"v0", double>(tf::init::constant(10.0));
    auto v1 = tf::variable<"v1", double>(tf::init::constant(30.0));
    auto sum = v0 + v1;                       // a tensor, not a variable
    auto ema = train::exponential_moving_average(0.25);
    auto update = ema.apply(v0, sum);
    static_assert(decltype(ema.average(sum))::name == tf::fixed_string("add/ExponentialMovingAverage"));
    tf::session sess(update);
    sess.initialize_all();
    EXPECT(sess.run(ema.average(sum)) == 0.0);  // a tensor's average starts at zeros
    sess.run(update);
    EXPECT(sess.run(ema.average(sum)) == 30.0);  // 0 - 0.75 * (0 - 40)
    EXPECT(sess.run(ema.average(v0)) == 10.0);
    // [/snippet tensor]
  }
  {
    // [snippet optimizer]
    auto w = tf::variable<"w", double, tf::shape<2>>(tf::init::ones());
    auto loss = tf::reduce_sum(tf::square(w));
    auto opt = train::moving_average_optimizer(train::gradient_descent(0.25), /*average_decay=*/0.5);
    auto train_op = opt.minimize(loss);        // the update, then the averages
    tf::session sess(train_op);
    auto swapping = opt.swapping_saver(sess);  // "w" holds w's average
    sess.initialize_all();
    sess.run(train_op);                        // w = 1 - 0.25 * 2 = 0.5; average 0.75
    const std::string path = swapping.save(sess, (dir / "model").string());

    train::saver plain;                        // an evaluation program's saver
    plain.restore(sess, path);
    EXPECT(sess.run(w)(0) == 0.75);            // the average, under w's name
    swapping.restore(sess, path);
    EXPECT(sess.run(w)(0) == 0.5);             // both as they were
    // [/snippet optimizer]
  }
  std::filesystem::remove_all(dir);
  std::puts("snippet_moving_average_optimizer: ok");
  return 0;
}
