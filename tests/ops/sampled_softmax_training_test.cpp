// Training through sampled_softmax_loss reaches what training through the full softmax
// reaches. A separable problem (10 classes, each a fixed random point in 24 dimensions, mixed
// by a trained [24, 24] layer and tanh), four time steps, each its own sampled softmax (8
// unique samples, accidental hits removed) as sequence_loss's softmax_loss_function, the
// output projection kept outside as testModelWithBuckets keeps it (proj_w [24, 10], its
// transpose sampled; proj_b sampled, so its gradient is sparse), clip_by_global_norm(30) and
// Adam(0.03, epsilon=1e-5), batch 8. After 300 steps both losses are near zero (measured
// 2e-4); a wrong gradient of the sampled logits, of the gathered rows or of the sparse
// update leaves them far above it.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <tuple>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("training through sampled_softmax_loss drives both the sampled and the full loss to zero") {
  constexpr std::size_t batch = 8, classes = 10, dim = 24;
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  xt::xtensor_fixed<float, xt::xshape<classes, dim>> points;
  for (auto& p : points) p = normal(rng);

  auto mix = tf::variable<"mix", float, tf::shape<dim, dim>>();
  auto x0 = tf::placeholder<"x0", float, tf::shape<batch, dim>>();
  auto x1 = tf::placeholder<"x1", float, tf::shape<batch, dim>>();
  auto x2 = tf::placeholder<"x2", float, tf::shape<batch, dim>>();
  auto x3 = tf::placeholder<"x3", float, tf::shape<batch, dim>>();
  auto y0 = tf::placeholder<"y0", std::int32_t, tf::shape<batch>>();
  auto y1 = tf::placeholder<"y1", std::int32_t, tf::shape<batch>>();
  auto y2 = tf::placeholder<"y2", std::int32_t, tf::shape<batch>>();
  auto y3 = tf::placeholder<"y3", std::int32_t, tf::shape<batch>>();
  auto w = tf::variable<"proj_w", float, tf::shape<dim, classes>>();
  auto b = tf::variable<"proj_b", float, tf::shape<classes>>();
  auto w_t = tf::transpose(w);
  auto outputs = std::tuple{tf::tanh(tf::matmul(x0, mix)), tf::tanh(tf::matmul(x1, mix)), tf::tanh(tf::matmul(x2, mix)),
                            tf::tanh(tf::matmul(x3, mix))};
  auto targets = std::tuple{y0, y1, y2, y3};
  auto one = tf::constant<"one">(xt::xtensor_fixed<float, xt::xshape<batch>>(xt::ones<float>({batch})));
  auto weights = std::tuple{one, one, one, one};
  auto sampled_loss = [&](const auto& labels, const auto& logits) {
    return tf::sampled_softmax_loss<8, classes>(w_t, b, tf::reshape<tf::shape<batch, 1>>(labels), logits);
  };
  auto loss = tf::sequence_loss(outputs, targets, weights, sampled_loss);
  auto full_loss = tf::sequence_loss(
      std::apply([&](const auto&... o) { return std::tuple{(tf::matmul(o, w) + b)...}; }, outputs), targets, weights);

  auto optimizer = tf::train::adam(0.03, 0.9, 0.999, 1e-5);
  auto pairs = optimizer.compute_gradients(loss);
  auto [grads, norm] = tf::clip_by_global_norm(tf::train::gradients_of(pairs), tf::constant<30.0f>());
  auto update = optimizer.apply_gradients(tf::train::zip(grads, tf::train::variables_of(pairs)));
  tf::session sess(update, loss, full_loss);
  sess.initialize_all();

  std::uniform_int_distribution<int> label(0, int(classes) - 1);
  std::array<xt::xtensor_fixed<float, xt::xshape<batch, dim>>, 4> x;
  std::array<xt::xtensor_fixed<std::int32_t, xt::xshape<batch>>, 4> y;
  float first_sampled = 0, first_full = 0, last_sampled = 0, last_full = 0;
  for (int step = 0; step < 300; ++step) {
    for (std::size_t t = 0; t < 4; ++t)
      for (std::size_t i = 0; i < batch; ++i) {
        y[t](i) = label(rng);
        for (std::size_t d = 0; d < dim; ++d) x[t](i, d) = points(std::size_t(y[t](i)), d);
      }
    auto [u, sampled, full] = sess.run(tf::fetch(update, loss, full_loss), tf::feed(x0, x[0]), tf::feed(x1, x[1]),
                                       tf::feed(x2, x[2]), tf::feed(x3, x[3]), tf::feed(y0, y[0]), tf::feed(y1, y[1]),
                                       tf::feed(y2, y[2]), tf::feed(y3, y[3]));
    (void)u;
    if (step == 0) first_sampled = sampled, first_full = full;
    last_sampled = sampled, last_full = full;
  }
  INFO("sampled loss " << first_sampled << " -> " << last_sampled << ", full " << first_full << " -> " << last_full);
  CHECK(first_full > 1.0f);  // near log(10) at the start
  CHECK(last_sampled < 0.01f);
  CHECK(last_full < 0.01f);
}
