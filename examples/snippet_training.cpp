// docs/reference/training.md: optimizers, losses, layers, clipping.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet minimize]
    auto x = tf::placeholder<"x", float, tf::shape<4, 2>>();
    auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<4>>();
    auto hidden = tf::layers::dense<8, "hidden">(x, tf::activation::tanh);  // "hidden/kernel", "hidden/bias"
    auto logits = tf::layers::dense<2, "logits">(hidden);
    auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, logits));

    auto step = tf::train::global_step();
    auto opt = tf::train::adam(0.05);             // TensorFlow's defaults for the rest
    auto train_op = opt.minimize(loss, step);     // slots "hidden/kernel/Adam", ".../Adam_1", ...

    tf::session sess(train_op, loss);
    sess.run(tf::global_variables_initializer());
    const xt::xtensor_fixed<float, xt::xshape<4, 2>> xs = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    const xt::xtensor_fixed<std::int32_t, xt::xshape<4>> ys = {0, 1, 1, 0};  // XOR
    float first = 0, last = 0;
    for (int i = 0; i < 300; ++i) {
      auto [l, done] = sess.run(tf::fetch(loss, train_op), tf::feed(x, xs), tf::feed(labels, ys));
      (i == 0 ? first : last) = l;
      (void)done;
    }
    EXPECT(last < 0.1f * first);
    EXPECT(sess.run(step) == 300);
    // [/snippet minimize]
    auto m = tf::train::slot<0>(opt, tf::variable<"hidden/kernel", float, tf::shape<2, 8>>());
    static_assert(decltype(m)::name == tf::fixed_string("hidden/kernel/Adam"));
  }
  {
    // [snippet clipping]
    auto w = tf::variable<"w", double, tf::shape<2>>(tf::init::zeros());
    auto target = tf::constant<"target">(xt::xtensor_fixed<double, xt::xshape<2>>{30, 40});
    auto loss = tf::l2_loss(w - target);
    auto opt = tf::train::gradient_descent(1.0);
    auto [pair] = opt.compute_gradients(loss);              // ((gradient, w))
    auto [clipped, norm] = tf::clip_by_global_norm(std::make_tuple(pair.gradient_node), tf::constant<5.0>());
    auto train_op = opt.apply_gradients(tf::train::grad_and_var(std::get<0>(clipped), w));
    tf::session sess(train_op);
    sess.initialize_all();
    EXPECT(sess.run(norm) == 50.0);
    sess.run(train_op);
    EXPECT(std::abs(sess.run(w)(0) - 3.0) < 1e-12);  // a step of length 5 toward the target
    // [/snippet clipping]
  }
  {
    // [snippet hyperparameters]
    auto w = tf::variable<"w", double, tf::shape<>, tf::init::ones()>();
    auto loss = tf::square(w) * tf::constant<0.5>();  // the gradient is w

    auto lr = tf::placeholder<"lr", double>();           // a learning rate fed per run
    auto fed = tf::train::gradient_descent(lr).minimize(loss);
    tf::session sess(fed);
    sess.initialize_all();
    sess.run(fed, tf::feed(lr, 0.5));  // w = 1 - 0.5 * 1
    EXPECT(sess.run(w) == 0.5);

    auto step = tf::train::global_step();                // a learning rate decayed by step
    auto decayed = tf::train::exponential_decay(0.1, step, 100, 0.96, /*staircase=*/true);
    auto train_op = tf::train::adam(decayed).minimize(loss, step);
    tf::session decaying(train_op);
    decaying.initialize_all();
    decaying.run(train_op);
    EXPECT(decaying.run(step) == 1 && decaying.run(decayed) == 0.1);

    double configured = 0.25;                            // a number read at run time
    auto sgd = tf::train::gradient_descent(configured).minimize(loss);  // "GradientDescent/learning_rate"
    tf::session configured_sess(sgd);
    configured_sess.initialize_all();
    configured_sess.run(sgd);
    EXPECT(configured_sess.run(w) == 0.75);
    // [/snippet hyperparameters]
  }
  {
    // [snippet tf_losses]
    auto labels = tf::placeholder<"y", float, tf::shape<2, 3>>();
    auto predictions = tf::placeholder<"p", float, tf::shape<2, 3>>();
    auto weights = tf::constant<"w">(xt::xtensor_fixed<float, xt::xshape<2, 1>>{{1}, {0}});  // per row
    auto huber = tf::losses::huber_loss(labels, predictions, weights);  // by default, over the nonzero weights
    auto summed = tf::losses::absolute_difference(labels, predictions, weights, tf::losses::reduction::sum);
    tf::session sess(huber, summed);
    const xt::xtensor_fixed<float, xt::xshape<2, 3>> y = {{0, 0, 0}, {1, 1, 1}}, p = {{0.5f, 2, 0}, {0, 0, 0}};
    auto [h, s] = sess.run(tf::fetch(huber, summed), tf::feed(labels, y), tf::feed(predictions, p));
    EXPECT(std::abs(h - (0.125f + 1.5f + 0) / 3) < 1e-6f);  // row 1 weighs 0: three losses count
    EXPECT(s == 0.5f + 2);
    // [/snippet tf_losses]
  }
  {
    // [snippet cosine]
    auto step = tf::train::global_step();
    auto lr = tf::train::cosine_decay_restarts(0.1, step, /*first_decay_steps=*/10);  // SGDR
    auto w = tf::variable<"w", double, tf::shape<>, tf::init::ones()>();
    auto train_op = tf::train::momentum(lr, 0.9).minimize(tf::square(w), step);
    tf::session sess(train_op);
    sess.initialize_all();
    EXPECT(sess.run(lr) == 0.1);  // step 0: the start of the first period
    for (int i = 0; i < 10; ++i) sess.run(train_op);
    EXPECT(sess.run(lr) == 0.1);  // step 10: restarted, the second period lasts 20 steps
    for (int i = 0; i < 10; ++i) sess.run(train_op);
    EXPECT(std::abs(sess.run(lr) - 0.05) < 1e-12);  // halfway through it: 0.1 * (1 + cos(pi / 2)) / 2
    // [/snippet cosine]
  }
  {
    // [snippet centered]
    auto w = tf::variable<"w", double, tf::shape<2>>(tf::init::constant(1.0));
    auto loss = tf::l2_loss(w);  // the gradient is w
    auto opt = tf::train::rmsprop(1.0, /*decay=*/0.0, /*momentum=*/0.0, /*epsilon=*/1.0, tf::train::centered);
    auto train_op = opt.minimize(loss);
    tf::session sess(train_op);
    sess.initialize_all();
    sess.run(train_op);  // decay 0: ms = g * g and mg = g, so the step is g / sqrt(ms - mg * mg + 1) = g
    EXPECT(sess.run(w)(0) == 0.0);
    EXPECT(sess.run(tf::train::get_slot<"mg">(opt, w))(0) == 1.0);  // "w/RMSProp_1", the mean gradient
    static_assert(tf::train::has_slot<"mg">(opt));
    EXPECT(tf::train::get_slot_names(opt) == std::vector<std::string>{"mg", "momentum", "rms"});
    // [/snippet centered]
  }
  std::puts("snippet_training: ok");
  return 0;
}
