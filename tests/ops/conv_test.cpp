// conv2d, depthwise_conv2d and conv2d_transpose (ops/conv.hpp): the forward values of
// TensorFlow's own tests (conv_ops_test.py, depthwise_conv_op_test.py, and the
// Conv2DBackpropInput cases of compiler/tests/conv2d_test.py for conv2d_transpose), whose
// inputs are 1, 2, 3, ... in row-major order; the static shape rule; a dynamic batch and
// dynamic spatial dims; layers::conv2d's names; and no heap allocation in a steady run of a
// conv2d training step.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

namespace {

/// A value of static shape S holding 1, 2, 3, ...
template <class T, class S>
tf::storage_t<T, S> iota() {
  tf::storage_t<T, S> v;
  std::iota(v.begin(), v.end(), T(1));
  return v;
}

template <class V>
std::vector<double> values(const V& v) {
  return std::vector<double>(v.begin(), v.end());
}

/// tf.nn.conv2d(x, f, options) with x and f holding 1, 2, 3, ..., as conv_ops_test.py's
/// _VerifyValues builds them; the result's elements.
template <class SX, class SF, class... Options>
std::vector<double> conv_of_iota() {
  auto x = tf::placeholder<"x", float, SX>();
  auto f = tf::placeholder<"f", float, SF>();
  auto y = tf::conv2d<Options...>(x, f);
  tf::session sess(y);
  return values(sess.run(y, tf::feed(x, iota<float, SX>()), tf::feed(f, iota<float, SF>())));
}

void check_values(const std::vector<double>& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == doctest::Approx(expected[i]));
  }
}

/// The output shape of conv2d<Options...> of placeholders of shapes SX and SF.
template <class SX, class SF, class... Options>
using conv_shape = tf::shape_of<decltype(tf::conv2d<Options...>(tf::placeholder<"x", float, SX>(),
                                                                 tf::placeholder<"f", float, SF>()))>;

}  // namespace

// --- the static shape rule: TensorFlow's GetWindowedOutputSize --------------------------
using same = tf::padding::same;
using valid = tf::padding::valid;
static_assert(std::is_same_v<conv_shape<shape<1, 2, 3, 3>, shape<2, 2, 3, 3>>, shape<1, 1, 2, 3>>);
static_assert(std::is_same_v<conv_shape<shape<1, 2, 3, 3>, shape<2, 2, 3, 3>, tf::strides<2>, same>, shape<1, 1, 2, 3>>);
// odd sizes: VALID ceil((7 - 3 + 1) / 2) = 3, SAME ceil(7 / 2) = 4; width 6: 2 and 3.
static_assert(std::is_same_v<conv_shape<shape<2, 7, 6, 1>, shape<3, 3, 1, 4>, tf::strides<2>>, shape<2, 3, 2, 4>>);
static_assert(std::is_same_v<conv_shape<shape<2, 7, 6, 1>, shape<3, 3, 1, 4>, same, tf::strides<2>>, shape<2, 4, 3, 4>>);
// strides and dilations per dimension; a dilated 3x3 spans 5 (rate 2): VALID 9 - 5 + 1 = 5.
static_assert(std::is_same_v<conv_shape<shape<1, 9, 9, 2>, shape<3, 3, 2, 1>, tf::dilations<2, 1>>, shape<1, 5, 7, 1>>);
static_assert(std::is_same_v<conv_shape<shape<1, 9, 9, 2>, shape<3, 3, 2, 1>, tf::strides<3, 1>, same>, shape<1, 3, 9, 1>>);
// dynamic batch and spatial dims stay dynamic.
static_assert(std::is_same_v<conv_shape<shape<dyn, 28, dyn, 1>, shape<5, 5, 1, 8>, same>, shape<dyn, 28, dyn, 8>>);
static_assert(std::is_same_v<tf::shape_of<decltype(tf::depthwise_conv2d(tf::placeholder<"x", float, shape<1, 2, 3, 2>>(),
                                                                        tf::placeholder<"f", float, shape<2, 2, 2, 3>>()))>,
                             shape<1, 1, 2, 6>>);

TEST_CASE("conv2d: conv_ops_test.py testConv2D1x1Filter (one gemm, no im2col)") {
  check_values(conv_of_iota<shape<1, 2, 3, 3>, shape<1, 1, 3, 3>>(),
               {30.0, 36.0, 42.0, 66.0, 81.0, 96.0, 102.0, 126.0, 150.0, 138.0, 171.0, 204.0, 174.0, 216.0, 258.0,
                210.0, 261.0, 312.0});
}

TEST_CASE("conv2d: testConv2D2x2Filter and testConv2D1x2Filter") {
  check_values(conv_of_iota<shape<1, 2, 3, 3>, shape<2, 2, 3, 3>>(), {2271.0, 2367.0, 2463.0, 2901.0, 3033.0, 3165.0});
  check_values(conv_of_iota<shape<1, 2, 3, 3>, shape<1, 2, 3, 3>>(),
               {231.0, 252.0, 273.0, 384.0, 423.0, 462.0, 690.0, 765.0, 840.0, 843.0, 936.0, 1029.0});
}

TEST_CASE("conv2d: testConv2D2x2FilterStride2 and testConv2D2x2FilterStride2Same") {
  check_values(conv_of_iota<shape<1, 2, 3, 3>, shape<2, 2, 3, 3>, tf::strides<2>>(), {2271.0, 2367.0, 2463.0});
  check_values(conv_of_iota<shape<1, 2, 3, 3>, shape<2, 2, 3, 3>, tf::strides<2>, same>(),
               {2271.0, 2367.0, 2463.0, 1230.0, 1305.0, 1380.0});
}

TEST_CASE("conv2d: testConv2DKernelSmallerThanStrideValid and Same (TensorFlow's SAME pad split)") {
  check_values(conv_of_iota<shape<1, 7, 7, 1>, shape<2, 2, 1, 1>, tf::strides<3>>(), {65, 95, 275, 305});
  check_values(conv_of_iota<shape<1, 3, 3, 1>, shape<1, 1, 1, 1>, tf::strides<2>, same>(), {1, 3, 7, 9});
  check_values(conv_of_iota<shape<1, 4, 4, 1>, shape<1, 1, 1, 1>, tf::strides<2>, same>(), {1, 3, 9, 11});
  // total padding 1 per dimension, all of it after (TensorFlow pads the smaller half first).
  check_values(conv_of_iota<shape<1, 4, 4, 1>, shape<2, 2, 1, 1>, tf::strides<3>, same>(), {44, 28, 41, 16});
}

TEST_CASE("conv2d: testConv2DKernelSizeMatchesInputSize") {
  check_values(conv_of_iota<shape<1, 2, 2, 1>, shape<2, 2, 1, 2>>(), {50, 60});
}

TEST_CASE("conv2d: dilations are TensorFlow's atrous convolution (testConv2D2x2Filter with rate 2)") {
  // x [1, 3, 3, 1] = 1..9, f [2, 2, 1, 1] = 1..4 dilated by 2 spans 3x3: one output
  // 1*1 + 2*3 + 3*7 + 4*9 = 64.
  check_values(conv_of_iota<shape<1, 3, 3, 1>, shape<2, 2, 1, 1>, tf::dilations<2>>(), {64});
  // SAME with dilation 2 over 3x3: total padding 2, 1 before; positions read the taps
  // (i - 1 + 2a, j - 1 + 2b) that fall inside.
  check_values(conv_of_iota<shape<1, 3, 3, 1>, shape<2, 2, 1, 1>, tf::dilations<2>, same>(),
               {4 * 5, 3 * 4 + 4 * 6, 3 * 5, 2 * 2 + 4 * 8, 1 * 1 + 2 * 3 + 3 * 7 + 4 * 9, 1 * 2 + 3 * 8,
                2 * 5, 1 * 4 + 2 * 6, 1 * 5});
}

TEST_CASE("conv2d: a dynamic batch and dynamic spatial dims, computed at run time") {
  auto x = tf::placeholder<"x", double, shape<dyn, dyn, dyn, 3>>();
  auto f = tf::placeholder<"f", double, shape<2, 2, 3, 3>>();
  auto y = tf::conv2d<tf::strides<2>, same>(x, f);
  tf::session sess(y);
  // two copies of testConv2D2x2FilterStride2Same's image: each gives its values.
  xt::xtensor<double, 4> xv = xt::xtensor<double, 4>::from_shape({2, 2, 3, 3});
  for (std::size_t i = 0; i < xv.size(); ++i) xv.flat(i) = double(i % 18 + 1);
  const auto out = sess.run(y, tf::feed(x, xv), tf::feed(f, iota<double, shape<2, 2, 3, 3>>()));
  REQUIRE(out.shape() == std::array<std::size_t, 4>{2, 1, 2, 3});
  check_values(values(out), {2271.0, 2367.0, 2463.0, 1230.0, 1305.0, 1380.0, 2271.0, 2367.0, 2463.0, 1230.0, 1305.0,
                             1380.0});
  // VALID with a run-time input smaller than the filter: an error naming the op.
  auto v = tf::conv2d(x, f);
  tf::session vs(v);
  const auto tiny = xt::xtensor<double, 4>::from_shape({1, 1, 3, 3});
  CHECK_THROWS_WITH_AS(vs.run(v, tf::feed(x, tiny), tf::feed(f, iota<double, shape<2, 2, 3, 3>>())),
                       doctest::Contains("Conv2D"), tf::invalid_argument_error);
}

TEST_CASE("depthwise_conv2d: depthwise_conv_op_test.py testConv2D2x2Filter") {
  auto x = tf::placeholder<"x", float, shape<1, 2, 3, 2>>();
  auto f = tf::placeholder<"f", float, shape<2, 2, 2, 2>>();
  auto y = tf::depthwise_conv2d(x, f);
  tf::session sess(y);
  const auto out = sess.run(y, tf::feed(x, iota<float, shape<1, 2, 3, 2>>()), tf::feed(f, iota<float, shape<2, 2, 2, 2>>()));
  check_values(values(out), {196, 216, 272, 296, 252, 280, 344, 376});
}

TEST_CASE("conv2d_transpose: Conv2DBackpropInput values of compiler/tests/conv2d_test.py") {
  // input_sizes [1, 3, 5, 1], filter [1, 3, 1, 1] = 1..3, out_backprop [1, 2, 2, 1] = 1..4, VALID stride 2.
  auto v = tf::placeholder<"v", float, shape<1, 2, 2, 1>>();
  auto f = tf::placeholder<"f", float, shape<1, 3, 1, 1>>();
  auto y = tf::conv2d_transpose<shape<1, 3, 5, 1>, tf::strides<2>>(v, f);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, shape<1, 3, 5, 1>>);
  tf::session sess(y);
  check_values(values(sess.run(y, tf::feed(v, iota<float, shape<1, 2, 2, 1>>()), tf::feed(f, iota<float, shape<1, 3, 1, 1>>()))),
               {1, 2, 5, 4, 6, 0, 0, 0, 0, 0, 3, 6, 13, 8, 12});
  // SAME stride 2 to [1, 1, 4, 1] (by hand: pad 1 after; dx[w] = sum_o dy[o] f[w - 2 o]).
  auto v2 = tf::placeholder<"v", float, shape<1, 1, 2, 1>>();
  auto y2 = tf::conv2d_transpose<shape<1, 1, 4, 1>, tf::strides<2>, same>(v2, f);
  tf::session sess2(y2);
  check_values(values(sess2.run(y2, tf::feed(v2, iota<float, shape<1, 1, 2, 1>>()), tf::feed(f, iota<float, shape<1, 3, 1, 1>>()))),
               {1, 2, 5, 4});
}

TEST_CASE("Conv2DBackpropFilter: the value of compiler/tests/conv2d_test.py, as the gradient of conv2d") {
  // input [1, 1, 4, 1] = 1..4, filter_sizes [1, 3, 1, 1], out_backprop [1, 1, 2, 1] = 1..2, SAME stride 2.
  auto x = tf::placeholder<"x", float, shape<1, 1, 4, 1>>();
  auto f = tf::placeholder<"f", float, shape<1, 3, 1, 1>>();
  auto dy = tf::placeholder<"dy", float, shape<1, 1, 2, 1>>();
  auto loss = tf::reduce_sum(tf::conv2d<tf::strides<2>, same>(x, f) * dy);
  auto df = tf::gradient(loss, f);
  tf::session sess(df);
  check_values(values(sess.run(df, tf::feed(x, iota<float, shape<1, 1, 4, 1>>()), tf::feed(f, iota<float, shape<1, 3, 1, 1>>()),
                               tf::feed(dy, iota<float, shape<1, 1, 2, 1>>()))),
               {7, 10, 3});
}

TEST_CASE("conv2d_transpose: a dynamic batch, the output's batch taken from the value") {
  auto v = tf::placeholder<"v", double, shape<dyn, 2, 2, 1>>();
  auto f = tf::placeholder<"f", double, shape<1, 3, 1, 1>>();
  auto y = tf::conv2d_transpose<shape<dyn, 3, 5, 1>, tf::strides<2>>(v, f);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, shape<dyn, 3, 5, 1>>);
  tf::session sess(y);
  xt::xtensor<double, 4> vv = xt::xtensor<double, 4>::from_shape({2, 2, 2, 1});
  for (std::size_t i = 0; i < vv.size(); ++i) vv.flat(i) = double(i % 4 + 1);
  const auto out = sess.run(y, tf::feed(v, vv), tf::feed(f, iota<double, shape<1, 3, 1, 1>>()));
  REQUIRE(out.shape() == std::array<std::size_t, 4>{2, 3, 5, 1});
  check_values(values(out), {1, 2, 5, 4, 6, 0, 0, 0, 0, 0, 3, 6, 13, 8, 12, 1, 2, 5, 4, 6, 0, 0, 0, 0, 0, 3, 6, 13, 8, 12});
}

TEST_CASE("layers::conv2d: variables and ops named as tf.layers.conv2d names them") {
  auto x = tf::placeholder<"img", float, shape<dyn, 8, 8, 3>>();
  auto y = tf::layers::conv2d<4, 3>(x, tf::activation::relu, same{});
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, shape<dyn, 8, 8, 4>>);
  auto z = tf::layers::conv2d<2, 2, 1, "conv2d_1">(y, tf::activation::linear, tf::strides<2>{});
  static_assert(std::is_same_v<tf::shape_of<decltype(z)>, shape<dyn, 4, 4, 2>>);
  const auto g = tf::describe_graph(z);
  std::vector<std::string> names;
  for (const auto& n : g.nodes) names.push_back(n.name + " " + n.op);
  CHECK(names == std::vector<std::string>{"img Placeholder", "conv2d/kernel VariableV2", "conv2d/Conv2D Conv2D",
                                          "conv2d/bias VariableV2", "conv2d/BiasAdd BiasAdd", "conv2d/Relu Relu",
                                          "conv2d_1/kernel VariableV2", "conv2d_1/Conv2D Conv2D",
                                          "conv2d_1/bias VariableV2", "conv2d_1/BiasAdd BiasAdd"});
  CHECK(g.find("conv2d/kernel")->shape == "[3, 3, 3, 4]");
  CHECK(g.find("conv2d/bias")->shape == "[4]");
  CHECK(g.find("conv2d_1/kernel")->shape == "[2, 1, 4, 2]");
}

namespace {

/// Runs 51 training steps of a batch of 4 images of shape SX labelled {0, 1, 2, 1}: none
/// after the first allocates, and the loss falls.
template <class SX, class X, class Labels, class Loss, class Train>
void check_steady_training(X x, Labels labels, Loss loss, Train train_op) {
  tf::session sess(train_op, loss);
  sess.initialize_all();
  tf::storage_t<float, SX> xv;
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = float((i * 7) % 11) / 11.0f - 0.5f;
  tf::storage_t<std::int32_t, shape<4>> yv{0, 1, 2, 1};
  const float first = std::get<0>(sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(labels, yv)));
  const long before = typeflow_test::allocation_count();
  float last = first;
  for (int i = 0; i < 50; ++i) last = std::get<0>(sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(labels, yv)));
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(last < first);
}

}  // namespace

TEST_CASE("a conv2d training step allocates nothing after the first run, and trains") {
  auto x = tf::placeholder<"ca_x", float, shape<4, 8, 8, 2>>();
  auto labels = tf::placeholder<"ca_y", std::int32_t, shape<4>>();
  auto c1 = tf::layers::conv2d<4, 3, 3, "ca_conv1">(x, tf::activation::relu, same{});
  auto c2 = tf::layers::conv2d<3, 3, 3, "ca_conv2">(c1, tf::activation::relu, tf::strides<2>{});
  auto c3 = tf::layers::conv2d<3, 3, 3, "ca_conv3">(c2);  // [4, 1, 1, 3]: a 1x1 output
  auto logits = tf::reshape<shape<4, 3>>(c3);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, logits));
  auto train_op = tf::train::gradient_descent<"CA_SGD">(0.05).minimize(loss);
  check_steady_training<shape<4, 8, 8, 2>>(x, labels, loss, train_op);
}

TEST_CASE("a training step through conv2d's Winograd form (3x3, 16 channels each way) allocates nothing after the first run") {
  // cw_conv1 and cw_conv2 take the F(4x4, 3x3) form (ops/detail/conv_winograd.hpp): their
  // forward passes, filter gradients (from the kept tiles) and cw_conv2's input gradient
  // reach its scratch buffers, grown by the first run only.
  namespace d = tf::ops::detail;
  REQUIRE(d::conv_winograd<float>(d::conv_geometry{4, 6, 6, 16, 3, 3, 16, 6, 6, 1, 1, 1, 1, 1, 1}));
  auto x = tf::placeholder<"cw_x", float, shape<4, 6, 6, 16>>();
  auto labels = tf::placeholder<"cw_y", std::int32_t, shape<4>>();
  auto c1 = tf::layers::conv2d<16, 3, 3, "cw_conv1">(x, tf::activation::relu, same{});
  auto c2 = tf::layers::conv2d<16, 3, 3, "cw_conv2">(c1, tf::activation::relu, same{});
  auto c3 = tf::layers::conv2d<3, 6, 6, "cw_conv3">(c2);  // [4, 1, 1, 3]
  auto logits = tf::reshape<shape<4, 3>>(c3);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, logits));
  auto train_op = tf::train::gradient_descent<"CW_SGD">(0.02).minimize(loss);
  check_steady_training<shape<4, 6, 6, 16>>(x, labels, loss, train_op);
}

TEST_CASE("conv_ops_test.py testConv2DKernelSizeMatchesInputSizeBackpropInput / BackpropFilter, testConv2DEmptyBackpropInput") {
  // input_sizes [1, 2, 2, 1], filter_sizes [2, 2, 1, 2], output_sizes [1, 1, 1, 2], VALID:
  // Conv2DBackpropInput(filter 1..8, out_backprop 1..2) = [5, 11, 17, 23],
  // Conv2DBackpropFilter(input 1..4, out_backprop 1..2) = [1, 2, 2, 4, 3, 6, 4, 8].
  auto x = tf::placeholder<"x", float, shape<1, 2, 2, 1>>();
  auto f = tf::placeholder<"f", float, shape<2, 2, 1, 2>>();
  auto dy = tf::placeholder<"dy", float, shape<1, 1, 1, 2>>();
  auto dx = tf::conv2d_transpose<shape<1, 2, 2, 1>>(dy, f);
  auto df = tf::gradient(tf::reduce_sum(tf::conv2d(x, f) * dy), f);
  tf::session sess(dx, df);
  const auto [vx, vf] = sess.run(tf::fetch(dx, df), tf::feed(x, iota<float, shape<1, 2, 2, 1>>()),
                                 tf::feed(f, iota<float, shape<2, 2, 1, 2>>()), tf::feed(dy, iota<float, shape<1, 1, 1, 2>>()));
  check_values(values(vx), {5, 11, 17, 23});
  check_values(values(vf), {1, 2, 2, 4, 3, 6, 4, 8});
  // input_sizes [0, 2, 3, 1], filter [2, 2, 1, 1], output_sizes [0, 1, 2, 1]: an empty result.
  auto v = tf::placeholder<"v", float, shape<dyn, 1, 2, 1>>();
  auto f1 = tf::placeholder<"f1", float, shape<2, 2, 1, 1>>();
  auto e = tf::conv2d_transpose<shape<dyn, 2, 3, 1>>(v, f1);
  tf::session es(e);
  const auto out = es.run(e, tf::feed(v, xt::xtensor<float, 4>::from_shape({0, 1, 2, 1})),
                          tf::feed(f1, iota<float, shape<2, 2, 1, 1>>()));
  CHECK(out.shape() == std::array<std::size_t, 4>{0, 2, 3, 1});
}

TEST_CASE("im2col: each column entry is the input under its tap, or 0 in the padding") {
  // The kernel under conv2d (ops/detail/conv_kernels.hpp) against its definition: entry
  // (tap i, j, channel ch) of position (b, oh, ow) is x[b, oh sh + i dh - pad_top,
  // ow sw + j dw - pad_left, ch], or 0 outside the image. Rows of at most 8 values, which it
  // copies element by element (kw c <= 8: an image model's first convolution), and longer
  // ones; strides, dilations, uneven padding, and padding that leaves whole filter rows and
  // columns outside the image.
  namespace d = tf::ops::detail;
  struct case_t {
    std::size_t h, w, c, kh, kw, sh, sw, dh, dw;
    std::ptrdiff_t pad_top, pad_left;
  };
  const case_t cases[] = {{5, 6, 1, 3, 3, 1, 1, 1, 1, 1, 1}, {5, 6, 2, 3, 4, 2, 1, 1, 1, 1, 2},
                          {7, 7, 3, 3, 3, 1, 2, 1, 1, 2, 0}, {6, 5, 1, 2, 3, 1, 1, 2, 2, 1, 2},
                          {4, 4, 9, 1, 1, 1, 1, 1, 1, 0, 0}, {3, 3, 1, 5, 5, 1, 1, 1, 1, 4, 4},
                          {6, 7, 4, 3, 3, 1, 1, 1, 1, 1, 1}};
  for (const case_t& q : cases) {
    CAPTURE(q.h);
    CAPTURE(q.w);
    CAPTURE(q.c);
    CAPTURE(q.kh);
    CAPTURE(q.kw);
    CAPTURE(q.pad_top);
    const std::size_t n = 2, span_h = q.dh * (q.kh - 1) + 1, span_w = q.dw * (q.kw - 1) + 1;
    // Padding pad before and after each dim.
    const std::size_t oh = (q.h + 2 * std::size_t(q.pad_top) - span_h) / q.sh + 1;
    const std::size_t ow = (q.w + 2 * std::size_t(q.pad_left) - span_w) / q.sw + 1;
    const d::conv_geometry g{n, q.h, q.w, q.c, q.kh, q.kw, 1, oh, ow, q.sh, q.sw, q.dh, q.dw, q.pad_top, q.pad_left};
    std::vector<float> x(n * q.h * q.w * q.c);
    std::iota(x.begin(), x.end(), 1.0f);  // no zeros: a 0 below comes from the padding
    std::vector<float> col(n * oh * ow * g.k(), -1.0f);
    d::im2col(g, x.data(), n, col.data());
    std::size_t wrong = 0;
    for (std::size_t b = 0; b < n; ++b)
      for (std::size_t y = 0; y < oh; ++y)
        for (std::size_t z = 0; z < ow; ++z)
          for (std::size_t i = 0; i < q.kh; ++i)
            for (std::size_t j = 0; j < q.kw; ++j)
              for (std::size_t ch = 0; ch < q.c; ++ch) {
                const std::ptrdiff_t ih = std::ptrdiff_t(y * q.sh + i * q.dh) - q.pad_top;
                const std::ptrdiff_t iw = std::ptrdiff_t(z * q.sw + j * q.dw) - q.pad_left;
                const bool inside = ih >= 0 && iw >= 0 && ih < std::ptrdiff_t(q.h) && iw < std::ptrdiff_t(q.w);
                const float want = inside ? x[((b * q.h + std::size_t(ih)) * q.w + std::size_t(iw)) * q.c + ch] : 0.0f;
                const float got = col[((b * oh + y) * ow + z) * g.k() + (i * q.kw + j) * q.c + ch];
                wrong += got != want;
              }
    CHECK(wrong == 0);
  }
}
