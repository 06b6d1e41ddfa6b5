// The Fashion-MNIST CNN of examples/cnn/cnn_fashion_mnist.cpp and benchmarks/cnn/, written
// once for any batch shape and any `training` node, as a TensorFlow 1.x model function:
//
//   conv1 = tf.layers.conv2d(images, 32, 3, padding="same", activation=tf.nn.relu, name="conv1")
//   pool1 = tf.layers.max_pooling2d(conv1, 2, 2, name="pool1")
//   conv2 = tf.layers.conv2d(pool1, 64, 3, padding="same", name="conv2")
//   bn    = tf.layers.batch_normalization(conv2, training=training, momentum=0.9, name="bn")
//   pool2 = tf.layers.max_pooling2d(tf.nn.relu(bn), 2, 2, name="pool2")
//   drop  = tf.layers.dropout(tf.layers.flatten(pool2), 0.25, training=training, seed=1)
//   logits = tf.layers.dense(drop, 10, name="logits")
//
// The variables (conv1/kernel, ..., bn/moving_variance, logits/bias) are the same nodes in
// every graph the function builds: a training graph and an evaluation graph share them.
#pragma once

#include <typeflow/typeflow.hpp>

namespace cnn {

namespace tf = typeflow;

// [snippet model]
/// The logits and the batch normalization's update of its moving statistics (TensorFlow's
/// UPDATE_OPS), which a training step runs with the optimizer's update.
template <tf::node Images, tf::node Training>
auto model(const Images& images, const Training& training) {
  auto conv1 = tf::layers::conv2d<32, 3, 3, "conv1">(images, tf::activation::relu, tf::padding::same{});
  auto pool1 = tf::layers::max_pooling2d<2, 2, tf::padding::valid, "pool1">(conv1);
  auto conv2 = tf::layers::conv2d<64, 3, 3, "conv2">(pool1, tf::activation::linear, tf::padding::same{});
  auto bn = tf::layers::batch_normalization<"bn">(conv2, training, 0.9);
  auto pool2 = tf::layers::max_pooling2d<2, 2, tf::padding::valid, "pool2">(tf::relu(bn.output));
  auto dropped = tf::layers::dropout<1>(tf::layers::flatten(pool2), tf::constant<0.25f>(), training);
  auto dense = tf::layers::dense<10, "logits">(dropped);
  struct result {
    decltype(dense) logits;
    decltype(bn) batch_norm;
  };
  return result{dense, bn};
}
// [/snippet model]

}  // namespace cnn
