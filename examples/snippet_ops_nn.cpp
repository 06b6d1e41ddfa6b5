// docs/reference/ops.md: argmax, one_hot, top_k, in_top_k, lrn, losses and the dense layer.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  tf::session sess;

  // [snippet argmax]
  auto scores = tf::placeholder<"scores", float, tf::shape<tf::dyn, 3>>();
  auto best = tf::argmax<1>(scores);  // [?, 3] -> [?], int64
  static_assert(std::is_same_v<tf::value_type_of<decltype(best)>, std::int64_t>);
  xt::xtensor<float, 2> scores_value = {{0.1f, 0.7f, 0.2f}, {0.5f, 0.5f, 0.0f}};
  EXPECT(sess.run(best, tf::feed(scores, scores_value)) == xt::xtensor<std::int64_t, 1>{1, 0});
  EXPECT(sess.run(tf::argmin<1>(scores), tf::feed(scores, scores_value)) ==
         xt::xtensor<std::int64_t, 1>{0, 2});  // the first on ties
  auto best32 = tf::argmax<1, std::int32_t>(scores);  // output_type=tf.int32
  EXPECT(sess.run(best32, tf::feed(scores, scores_value)) == xt::xtensor<std::int32_t, 1>{1, 0});
  // [/snippet argmax]

  // [snippet one_hot]
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<tf::dyn>>();
  auto one_hot = tf::one_hot<3>(labels);  // [?] -> [?, 3], float by default
  xt::xtensor<std::int32_t, 1> labels_value = {2, 0, 7};
  EXPECT(sess.run(one_hot, tf::feed(labels, labels_value)) ==
         xt::xtensor<float, 2>{{0, 0, 1}, {1, 0, 0}, {0, 0, 0}});  // 7 is out of range: zeros
  // on_value / off_value (scalar nodes, or literals converted to T) and the axis of the new dimension:
  auto batch_labels = tf::placeholder<"batch_labels", std::int64_t, tf::shape<2, 2>>();
  auto signs = tf::one_hot<3, float, 1>(batch_labels, tf::constant<1>(), tf::constant<-1>());  // [2, 3, 2]
  static_assert(std::is_same_v<tf::shape_of<decltype(signs)>, tf::shape<2, 3, 2>>);
  xt::xtensor_fixed<std::int64_t, xt::xshape<2, 2>> batch_value = {{0, 2}, {-1, 1}};
  EXPECT(sess.run(signs, tf::feed(batch_labels, batch_value)) ==
         (xt::xtensor<float, 3>{{{1, -1}, {-1, -1}, {-1, 1}}, {{-1, -1}, {-1, 1}, {-1, -1}}}));
  // [/snippet one_hot]

  // [snippet top_k]
  auto logits_k = tf::placeholder<"logits_k", float, tf::shape<tf::dyn, 4>>();
  auto [top2, top2_indices] = tf::top_k<2>(logits_k);  // [?, 4] -> [?, 2] twice; indices int32
  xt::xtensor<float, 2> logits_value = {{0.1f, 0.3f, 0.2f, 0.4f}, {0.1f, 0.3f, 0.3f, 0.2f}};
  auto [v, i] = sess.run(tf::fetch(top2, top2_indices), tf::feed(logits_k, logits_value));
  EXPECT(v == (xt::xtensor<float, 2>{{0.4f, 0.3f}, {0.3f, 0.3f}}));
  EXPECT(i == (xt::xtensor<std::int32_t, 2>{{3, 1}, {1, 2}}));  // ties: the lower index first

  auto classes_k = tf::placeholder<"classes_k", std::int32_t, tf::shape<tf::dyn>>();
  auto correct = tf::in_top_k<1>(logits_k, classes_k);  // bool [?]; ties with the target count as in
  xt::xtensor<std::int32_t, 1> classes_value = {3, 2};
  EXPECT(sess.run(correct, tf::feed(logits_k, logits_value), tf::feed(classes_k, classes_value)) ==
         (xt::xtensor<bool, 1>{true, true}));

  // CIFAR-10's norm1: depth_radius 4, bias 1, alpha 0.001 / 9, beta 0.75 (template arguments).
  auto conv = tf::placeholder<"conv", float, tf::shape<tf::dyn, 8, 8, 64>>();
  auto norm1 = tf::lrn<4, 1.0, 0.001 / 9.0, 0.75>(conv);  // NHWC, over the channels
  static_assert(std::is_same_v<tf::shape_of<decltype(norm1)>, tf::shape<tf::dyn, 8, 8, 64>>);
  // [/snippet top_k]

  // [snippet losses]
  auto logits = scores;
  auto sparse = tf::sparse_softmax_cross_entropy_with_logits(labels, logits);  // [?]
  auto dense_labels = tf::placeholder<"dense_labels", float, tf::shape<tf::dyn, 3>>();
  auto softmax_xent = tf::softmax_cross_entropy_with_logits(dense_labels, logits);  // [?]
  static_assert(std::is_same_v<tf::shape_of<decltype(sparse)>, tf::shape<tf::dyn>>);

  xt::xtensor<std::int32_t, 1> classes = {1, 0};
  xt::xtensor<float, 2> as_rows = {{0, 1, 0}, {1, 0, 0}};
  auto [s, d] = sess.run(tf::fetch(sparse, softmax_xent), tf::feed(labels, classes),
                         tf::feed(dense_labels, as_rows), tf::feed(scores, scores_value));
  EXPECT(xt::allclose(s, d));  // the same loss, from class indices or from one-hot rows
  const float row0 = -std::log(std::exp(0.7f) / (std::exp(0.1f) + std::exp(0.7f) + std::exp(0.2f)));
  EXPECT(std::abs(s(0) - row0) < 1e-6f);
  // [/snippet losses]

  // [snippet other_losses]
  auto predictions = tf::placeholder<"predictions", float, tf::shape<2>>();
  auto targets = tf::placeholder<"targets", float, tf::shape<2>>();
  xt::xtensor_fixed<float, xt::xshape<2>> p = {1, 3};
  xt::xtensor_fixed<float, xt::xshape<2>> t = {0, 1};
  auto run = [&](auto node) { return sess.run(node, tf::feed(predictions, p), tf::feed(targets, t)); };
  EXPECT(run(tf::mean_squared_error(targets, predictions)) == 2.5f);  // (1 + 4) / 2
  EXPECT(run(tf::l2_loss(predictions)) == 5.0f);                      // (1 + 9) / 2
  auto sigmoid_xent = run(tf::sigmoid_cross_entropy_with_logits(targets, predictions));
  EXPECT(std::abs(sigmoid_xent(0) - std::log(1 + std::exp(1.0f))) < 1e-6f);  // label 0
  // [/snippet other_losses]

  // [snippet dense]
  auto images = tf::placeholder<"images", float, tf::shape<tf::dyn, 4>>();
  auto hidden = tf::layers::dense<8, "hidden">(images, tf::activation::relu);
  auto output = tf::layers::dense<3, "output">(hidden);  // linear
  static_assert(std::is_same_v<tf::shape_of<decltype(output)>, tf::shape<tf::dyn, 3>>);
  tf::session model(output);
  EXPECT((model.uninitialized_names() ==
          std::vector<std::string>{"hidden/kernel", "hidden/bias", "output/kernel", "output/bias"}));
  // Its ops are named as tf.layers.dense names them.
  const tf::graph_description graph = tf::describe_graph(output);
  EXPECT(graph.find("hidden/MatMul") && graph.find("hidden/BiasAdd")->op == "BiasAdd" && graph.find("hidden/Relu") &&
         graph.find("output/BiasAdd") && !graph.find("output/Relu"));
  // [/snippet dense]
  model.initialize_all();
  xt::xtensor<float, 2> image_rows = xt::zeros<float>({5, 4});
  EXPECT(model.run(output, tf::feed(images, image_rows)) == xt::zeros<float>({5, 3}));  // biases 0
  return 0;
}
