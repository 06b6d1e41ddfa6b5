// Resuming training from the latest checkpoint: a network trained with Adam saves every
// N steps (keeping the newest 3); a "restarted program" — a new session whose variables
// are not initialized — restores the latest checkpoint and trains on. Training 2N steps
// straight and N + restore + N give identical weights, Adam's slots ("w/Adam", "w/Adam_1"),
// its beta powers and the global step included, because the saver saves every variable
// of the session. Documented in docs/reference/checkpoints.md.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/saver.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  const auto dir = std::filesystem::temp_directory_path() / ("typeflow-resume-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);

  // [snippet model]
  auto x = tf::placeholder<"x", float, tf::shape<4, 2>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<4>>();
  auto hidden = tf::layers::dense<8, "hidden">(x, tf::activation::tanh);
  auto logits = tf::layers::dense<2, "logits">(hidden);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, logits));
  auto step = tf::train::global_step();
  auto train_op = tf::train::adam(0.05).minimize(loss, step);
  const xt::xtensor_fixed<float, xt::xshape<4, 2>> xs = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  const xt::xtensor_fixed<std::int32_t, xt::xshape<4>> ys = {0, 1, 1, 0};
  // [/snippet model]
  constexpr int N = 40;
  using session_t = decltype(tf::session(train_op, loss));
  using kernel = decltype(tf::variable<"hidden/kernel", float, tf::shape<2, 8>>());
  using kernel_m = decltype(tf::train::slot<0>(tf::train::adam(0.05), kernel{}));

  // 2N steps straight.
  session_t straight(train_op, loss);
  straight.run(tf::global_variables_initializer());
  for (int i = 0; i < 2 * N; ++i) straight.run(train_op, tf::feed(x, xs), tf::feed(labels, ys));

  {
    // [snippet train_and_save]
    // The first run of the program: train N steps, save every 10, keep the newest 3.
    tf::session sess(train_op, loss);
    sess.run(tf::global_variables_initializer());
    tf::train::saver saver({.max_to_keep = 3});
    for (int i = 1; i <= N; ++i) {
      sess.run(train_op, tf::feed(x, xs), tf::feed(labels, ys));
      if (i % 10 == 0) saver.save(sess, dir / "model.ckpt", step);  // model.ckpt-<global step>
    }
    // [/snippet train_and_save]
    EXPECT(saver.last_checkpoints().size() == 3);
    EXPECT(!std::filesystem::exists(dir / "model.ckpt-10"));
  }

  // [snippet resume]
  // The program again, after a restart: resume from the latest checkpoint, if there is one.
  tf::session sess(train_op, loss);
  tf::train::saver saver({.max_to_keep = 3});
  if (auto latest = tf::train::latest_checkpoint(dir)) {
    saver.restore(sess, *latest);  // every variable: weights, Adam's slots, the global step
  } else {
    sess.run(tf::global_variables_initializer());
  }
  while (sess.run(step) < 2 * N) {
    sess.run(train_op, tf::feed(x, xs), tf::feed(labels, ys));
    if (sess.run(step) % 10 == 0) saver.save(sess, dir / "model.ckpt", step);
  }
  // [/snippet resume]

  EXPECT(sess.run(step) == 2 * N);
  EXPECT(sess.slot<kernel>().value == straight.slot<kernel>().value);      // bit-identical weights
  EXPECT(sess.slot<kernel_m>().value == straight.slot<kernel_m>().value);  // and Adam's state
  EXPECT(sess.run(loss, tf::feed(x, xs), tf::feed(labels, ys)) ==
         straight.run(loss, tf::feed(x, xs), tf::feed(labels, ys)));
  // The previous run's checkpoints were rotated out too: 3 are left, the newest 60, 70, 80.
  EXPECT(tf::train::get_checkpoint_state(dir)->all_model_checkpoint_paths ==
         std::vector<std::string>{"model.ckpt-60", "model.ckpt-70", "model.ckpt-80"});
  EXPECT(!std::filesystem::exists(dir / "model.ckpt-40"));

  std::filesystem::remove_all(dir);
  std::puts("checkpoint_resume: ok");
  return 0;
}
