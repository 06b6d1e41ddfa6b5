// docs/reference/moving-averages.md: exponential moving averages of weights, and an
// evaluation program that restores the averages into its plain variables.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/moving_average.hpp>
#include <typeflow/train/saver.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  const auto tmp = std::filesystem::temp_directory_path() / ("typeflow-ema-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  const std::string dir = tmp.string();
  std::string path;
  double average = 0;
  {
    // [snippet train]
    auto w = tf::variable<"w", double, tf::shape<2>>(tf::init::zeros());
    auto target = tf::constant<"target">(xt::xtensor_fixed<double, xt::xshape<2>>{1, 2});
    auto loss = tf::l2_loss(w - target);
    auto step = tf::train::global_step();
    auto train_step = tf::train::gradient_descent(0.5).minimize(loss, step);

    auto ema = tf::train::exponential_moving_average(0.9, step);  // "ExponentialMovingAverage"
    auto maintain_averages = ema.apply(w);                         // a side-effect node
    auto train_op = tf::group(train_step, maintain_averages);  // the step, then the averages
    static_assert(decltype(ema)::average_name(decltype(w){}) == "w/ExponentialMovingAverage");

    tf::session sess(train_op);
    sess.run(tf::global_variables_initializer());  // the average starts as w's initial value
    for (int i = 0; i < 20; ++i) sess.run(train_op);
    const auto w_avg = sess.run(ema.average(w));  // lags behind w
    path = tf::train::saver{}.save(sess, dir + "/model.ckpt", step);  // w, its average, the step
    // [/snippet train]
    EXPECT(std::abs(sess.run(w)(0) - 1.0) < 1e-5);
    EXPECT(w_avg(0) < sess.run(w)(0) && w_avg(0) > 0.99);
    average = w_avg(0);
  }
  {
    // [snippet evaluate]
    // The evaluation program has plain variables only, and restores the averages into them.
    auto w = tf::variable<"w", double, tf::shape<2>>(tf::init::zeros());
    auto step = tf::train::global_step();
    auto ema = tf::train::exponential_moving_average(0.9, step);
    tf::session eval(tf::group(w, step));
    // {"w/ExponentialMovingAverage": w, "global_step": global_step}: floating-point variables
    // from their averages, others (the integer step) under their own names.
    tf::train::saver saver(ema.variables_to_restore(eval));
    saver.restore(eval, path);
    // [/snippet evaluate]
    tf::session train_view(tf::group(w, step));
    tf::train::saver{}.restore(train_view, path);
    EXPECT(eval.run(w)(0) != train_view.run(w)(0));  // the average, not the raw weight
    EXPECT(eval.run(w)(0) == average);
    EXPECT(eval.run(step) == 20);
  }
  std::filesystem::remove_all(tmp);
  std::puts("checkpoint_moving_average: ok");
  return 0;
}
