// pad and resize_nearest_neighbor (ops/image.hpp): TensorFlow's values (tf.pad's documented
// examples, image_ops_test.py's and resize_nearest_neighbor_op_test.cc's nearest-neighbour
// cases), shapes, dynamic dims, gradients against central differences, steady runs without
// allocation.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/ops/image.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "../ops/ops_testing.hpp"
#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;
using tf::ints;
using tf::shape;

namespace {
template <class T, class S>
tf::storage_t<T, S> value_of(std::initializer_list<double> xs) {
  tf::storage_t<T, S> v{};
  REQUIRE(v.size() == xs.size());
  std::size_t i = 0;
  for (double x : xs) v.data()[i++] = static_cast<T>(x);
  return v;
}
template <class T, class S>
tf::storage_t<T, S> iota_value() {
  tf::storage_t<T, S> v{};
  std::iota(v.data(), v.data() + v.size(), T(1));
  return v;
}
}  // namespace

// --- pad ------------------------------------------------------------------------------------

TEST_CASE("pad: tf.pad's documented CONSTANT, REFLECT and SYMMETRIC examples, int32 and float") {
  auto t = tf::placeholder<"t", std::int32_t, shape<2, 3>>();
  auto c = tf::pad<ints<1, 1>, ints<2, 2>>(t);
  auto r = tf::pad<tf::pad_mode::reflect, ints<1, 1>, ints<2, 2>>(t);
  auto s = tf::pad<tf::pad_mode::symmetric, ints<1, 1>, ints<2, 2>>(t);
  static_assert(std::is_same_v<tf::shape_of<decltype(c)>, shape<4, 7>>);
  tf::session sess(c, r, s);
  const auto tv = value_of<std::int32_t, shape<2, 3>>({1, 2, 3, 4, 5, 6});
  const auto [cv, rv, sv] = sess.run(tf::fetch(c, r, s), tf::feed(t, tv));
  check_values(cv, {4, 7}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  check_values(rv, {4, 7}, {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1});
  check_values(sv, {4, 7}, {2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5});

  auto f = tf::placeholder<"f", float, shape<2, 3>>();
  auto fr = tf::pad<tf::pad_mode::reflect, ints<1, 1>, ints<2, 2>>(f);
  tf::session fs(fr);
  check_values(fs.run(fr, tf::feed(f, value_of<float, shape<2, 3>>({1, 2, 3, 4, 5, 6}))), {4, 7},
               {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1}, 0);
  CHECK(tf::describe_graph(c).find("Pad") != nullptr);
  CHECK(tf::describe_graph(r).find("MirrorPad") != nullptr);
}

TEST_CASE("pad with constant_values (PadV2), asymmetric paddings, zero paddings, a dynamic dim") {
  auto x = tf::placeholder<"x", double, shape<dyn, 2>>();
  auto c = tf::placeholder<"c", double, shape<>>();
  auto y = tf::pad<ints<1, 0>, ints<0, 2>>(x, c);
  auto z = tf::pad<ints<0, 0>, ints<0, 0>>(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, shape<dyn, 4>>);
  CHECK(tf::describe_graph(y).find("PadV2") != nullptr);
  tf::session sess(y, z);
  auto v = xt::xtensor<double, 2>::from_shape({2, 2});
  std::iota(v.begin(), v.end(), 1.0);
  check_values(sess.run(y, tf::feed(x, v), tf::feed(c, 7.0)), {3, 4}, {7, 7, 7, 7, 1, 2, 7, 7, 3, 4, 7, 7}, 0);
  check_values(sess.run(z, tf::feed(x, v)), {2, 2}, {1, 2, 3, 4}, 0);
  auto one = xt::xtensor<double, 2>::from_shape({1, 2});
  one(0, 0) = 5;
  one(0, 1) = 6;
  check_values(sess.run(y, tf::feed(x, one), tf::feed(c, -1.0)), {2, 4}, {-1, -1, -1, -1, 5, 6, -1, -1}, 0);
}

namespace {
/// reduce_sum(pad(x) * w) with random w, against central differences.
template <class S, class F>
void check_pad_gradient(F pad) {
  auto x = tf::placeholder<"x", double, S>();
  auto y = pad(x);
  using Y = tf::shape_of<decltype(y)>;
  auto w = tf::placeholder<"w", double, Y>();
  auto loss = tf::reduce_sum(y * w);
  tf::session sess(loss, tf::gradient(loss, x));
  fd_check::check_gradient(sess, loss, x, fd_check::uniform<S>(), tf::feed(w, fd_check::uniform<Y>()));
}
}  // namespace

TEST_CASE("pad gradients (Slice, MirrorPadGrad) against central differences") {
  using S = shape<3, 4, 2>;
  check_pad_gradient<S>([](auto x) { return tf::pad<ints<1, 2>, ints<0, 3>, ints<1, 1>>(x); });
  check_pad_gradient<S>([](auto x) { return tf::pad<tf::pad_mode::reflect, ints<2, 1>, ints<3, 2>, ints<0, 1>>(x); });
  check_pad_gradient<S>([](auto x) { return tf::pad<tf::pad_mode::symmetric, ints<3, 1>, ints<4, 2>, ints<2, 0>>(x); });
}

TEST_CASE("pad gradient with a dynamic dim, and the gradient of the gradient (pad again)") {
  auto x = tf::placeholder<"x", double, shape<dyn, 3>>();
  auto u = tf::placeholder<"u", double, shape<dyn, 5>>();
  auto v = tf::placeholder<"v", double, shape<dyn, 3>>();
  auto y = tf::pad<tf::pad_mode::reflect, ints<0, 0>, ints<1, 1>>(x);
  auto loss = tf::reduce_sum(y * u);
  // d/du of sum(gradient(sum(pad(x) u), x) v) = pad(v).
  auto second = tf::reduce_sum(tf::gradient(loss, x) * v);
  tf::session sess(loss, tf::gradient(loss, x), second, tf::gradient(second, u));
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({2, 3}));
  const auto u0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({2, 5}));
  const auto v0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({2, 3}));
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(u, u0));
  fd_check::check_gradient(sess, second, u, u0, tf::feed(x, x0), tf::feed(v, v0));
  // MirrorPadGrad by hand: columns [1, 0, 1, 2, 1] of x, so x's column 1 gets three.
  auto ones = xt::xtensor<double, 2>::from_shape({2, 5});
  ones.fill(1.0);
  check_values(sess.run(tf::gradient(loss, x), tf::feed(x, x0), tf::feed(u, ones)), {2, 3}, {1, 3, 1, 1, 3, 1}, 0);
}

TEST_CASE("pad: mirrored paddings of a dynamic dim are checked against the fed size, as TensorFlow") {
  auto x = tf::placeholder<"x", float, shape<dyn, 2>>();
  auto r = tf::pad<tf::pad_mode::reflect, ints<2, 0>, ints<0, 0>>(x);
  auto s = tf::pad<tf::pad_mode::symmetric, ints<2, 0>, ints<0, 0>>(x);
  tf::session sess(r, s);
  auto two = xt::xtensor<float, 2>::from_shape({2, 2});
  std::iota(two.begin(), two.end(), 1.0f);
  CHECK_THROWS_WITH_AS(sess.run(r, tf::feed(x, two)), doctest::Contains("paddings must be less than the dimension size: 2, 0 not less than 2"),
                       tf::invalid_argument_error);
  check_values(sess.run(s, tf::feed(x, two)), {4, 2}, {3, 4, 1, 2, 1, 2, 3, 4}, 0);
  auto three = xt::xtensor<float, 2>::from_shape({3, 2});
  std::iota(three.begin(), three.end(), 1.0f);
  check_values(sess.run(r, tf::feed(x, three)), {5, 2}, {5, 6, 3, 4, 1, 2, 3, 4, 5, 6}, 0);
  auto one = xt::xtensor<float, 2>::from_shape({1, 2});
  one.fill(1.0f);
  CHECK_THROWS_WITH_AS(sess.run(s, tf::feed(x, one)),
                       doctest::Contains("paddings must be no greater than the dimension size: 2, 0 greater than 1"),
                       tf::invalid_argument_error);
}

// --- resize_nearest_neighbor ----------------------------------------------------------------

namespace {
template <class S, std::ptrdiff_t H, std::ptrdiff_t W>
void check_resize(tf::storage_t<float, S> in, std::vector<std::size_t> out_shape, std::initializer_list<double> want) {
  auto x = tf::placeholder<"x", float, S>();
  auto y = tf::resize_nearest_neighbor<H, W>(x);
  tf::session sess(y);
  check_values(sess.run(y, tf::feed(x, in)), out_shape, want, 0);
}
}  // namespace

TEST_CASE("resize_nearest_neighbor: TensorFlow's nearest-neighbour cases (align_corners=False)") {
  // image_ops_test.py ResizeImagesTest.testResizeUp and testResizeDown, NEAREST_NEIGHBOR.
  check_resize<shape<1, 3, 2, 1>, 6, 4>(value_of<float, shape<1, 3, 2, 1>>({64, 32, 32, 64, 50, 100}), {1, 6, 4, 1},
                                        {64, 64, 32, 32, 64, 64, 32, 32, 32, 32, 64, 64,
                                         32, 32, 64, 64, 50, 50, 100, 100, 50, 50, 100, 100});
  check_resize<shape<1, 6, 4, 1>, 3, 2>(
      value_of<float, shape<1, 6, 4, 1>>({127, 127, 64, 64, 127, 127, 64, 64, 64, 64, 127, 127,
                                          64, 64, 127, 127, 50, 50, 100, 100, 50, 50, 100, 100}),
      {1, 3, 2, 1}, {127, 64, 64, 127, 50, 100});
  // resize_nearest_neighbor_op_test.cc: 2x2 to 1x1, 3x3, 2x5; 3x3 to 2x2; 4x4 to 3x3.
  check_resize<shape<1, 2, 2, 1>, 1, 1>(iota_value<float, shape<1, 2, 2, 1>>(), {1, 1, 1, 1}, {1});
  check_resize<shape<1, 2, 2, 1>, 3, 3>(iota_value<float, shape<1, 2, 2, 1>>(), {1, 3, 3, 1}, {1, 1, 2, 1, 1, 2, 3, 3, 4});
  check_resize<shape<1, 2, 2, 1>, 2, 5>(iota_value<float, shape<1, 2, 2, 1>>(), {1, 2, 5, 1},
                                        {1, 1, 1, 2, 2, 3, 3, 3, 4, 4});
  check_resize<shape<1, 3, 3, 1>, 2, 2>(iota_value<float, shape<1, 3, 3, 1>>(), {1, 2, 2, 1}, {1, 2, 4, 5});
  check_resize<shape<1, 4, 4, 1>, 3, 3>(iota_value<float, shape<1, 4, 4, 1>>(), {1, 3, 3, 1},
                                        {1, 2, 3, 5, 6, 7, 9, 10, 11});
  // Channels move together.
  check_resize<shape<1, 1, 2, 2>, 1, 4>(iota_value<float, shape<1, 1, 2, 2>>(), {1, 1, 4, 2}, {1, 2, 1, 2, 3, 4, 3, 4});
}

TEST_CASE("resize_nearest_neighbor: dynamic input, its gradient summed into the source pixels") {
  auto x = tf::placeholder<"x", double, shape<dyn, dyn, dyn, 1>>();
  auto y = tf::resize_nearest_neighbor<3, 3>(x);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, shape<dyn, 3, 3, 1>>);
  auto u = tf::placeholder<"u", double, shape<dyn, 3, 3, 1>>();
  auto loss = tf::reduce_sum(y * u);
  tf::session sess(loss, tf::gradient(loss, x));
  auto x0 = xt::xtensor<double, 4>::from_shape({1, 2, 2, 1});
  std::iota(x0.begin(), x0.end(), 1.0);
  auto u0 = xt::xtensor<double, 4>::from_shape({1, 3, 3, 1});
  std::iota(u0.begin(), u0.end(), 1.0);
  // Rows and columns [0, 0, 1]: (0, 0) gets 1 + 2 + 4 + 5, (0, 1) 3 + 6, (1, 0) 7 + 8, (1, 1) 9.
  check_values(sess.run(tf::gradient(loss, x), tf::feed(x, x0), tf::feed(u, u0)), {1, 2, 2, 1}, {12, 9, 15, 9}, 0);
  const auto x1 = fd_check::fill_uniform(xt::xtensor<double, 4>::from_shape({2, 5, 4, 1}));
  const auto u1 = fd_check::fill_uniform(xt::xtensor<double, 4>::from_shape({2, 3, 3, 1}));
  fd_check::check_gradient(sess, loss, x, x1, tf::feed(u, u1));
  // An empty image: TensorFlow's error.
  auto empty = xt::xtensor<double, 4>::from_shape({1, 0, 2, 1});
  CHECK_THROWS_WITH_AS(sess.run(y, tf::feed(x, empty)), doctest::Contains("input image must be of non-zero size"),
                       tf::invalid_argument_error);
}

TEST_CASE("resize_nearest_neighbor gradient (static) and its own gradient, the resize again") {
  using S = shape<2, 3, 5, 2>;
  auto x = tf::placeholder<"x", double, S>();
  auto u = tf::placeholder<"u", double, shape<2, 4, 2, 2>>();
  auto v = tf::placeholder<"v", double, S>();
  auto loss = tf::reduce_sum(tf::resize_nearest_neighbor<4, 2>(x) * u);
  auto second = tf::reduce_sum(tf::gradient(loss, x) * v);
  tf::session sess(loss, tf::gradient(loss, x), second, tf::gradient(second, u));
  const auto x0 = fd_check::uniform<S>();
  const auto u0 = fd_check::uniform<shape<2, 4, 2, 2>>();
  const auto v0 = fd_check::uniform<S>();
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(u, u0));
  fd_check::check_gradient(sess, second, u, u0, tf::feed(x, x0), tf::feed(v, v0));
}

TEST_CASE("pad and resize_nearest_neighbor: a training step allocates nothing after the first run") {
  auto x = tf::placeholder<"x", float, shape<2, 5, 5, 3>>();
  auto w = tf::variable<"w", float, shape<2, 5, 5, 3>>(tf::init::ones());
  auto y = tf::resize_nearest_neighbor<8, 8>(tf::pad<tf::pad_mode::symmetric, ints<0, 0>, ints<1, 1>, ints<2, 0>, ints<0, 0>>(x * w));
  auto loss = tf::reduce_mean(y * y);
  auto step = tf::train::gradient_descent<"ImageSGD">(0.01).minimize(loss);
  tf::session sess(step, loss);
  sess.initialize_all();
  tf::storage_t<float, shape<2, 5, 5, 3>> xv{};
  for (std::size_t i = 0; i < xv.size(); ++i) xv.data()[i] = static_cast<float>((i * 7) % 11) / 11.0f;
  const float first = std::get<0>(sess.run(tf::fetch(loss, step), tf::feed(x, xv)));
  const long before = typeflow_test::allocation_count();
  float last = first;
  for (int i = 0; i < 20; ++i) last = std::get<0>(sess.run(tf::fetch(loss, step), tf::feed(x, xv)));
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(last < first);
}
