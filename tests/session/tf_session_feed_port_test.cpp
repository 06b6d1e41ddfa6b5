// Feeding a tf::session, ported from TensorFlow 1.x's tensorflow/python/client/session_test.py
// (SessionTest): testFeedAndFetch, testCreate, testRunFeedDict, testFeedShapeCompatibility and
// testFeedPrecisionLossError. The other cases of that file, and the list of those not ported
// (with the reasons), are in tf_session_port_test.cpp. Each case names the TensorFlow test it
// ports; the expected values are the test's literals.
//
// Not ported here: testFeedAndFetch's float16, uint8, int16, int8, complex64 and complex128
// (typeflow's element types are float, double, int32, int64 and bool) and its make_callable
// (no callables: see tf_session_port_test.cpp); testFeedError (a tf.Tensor as a fed value:
// a compile error, compile_fail feed_unsupported_container); a fed value of a static shape
// that does not fit (compile_fail feed_static_shape, feed_static_rank) and of another element
// type (a compile error: "the value's element type must be the node's element type").
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <tuple>
#include <type_traits>

#include <boost/hana.hpp>
#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace hana = boost::hana;

namespace {

template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;

// np.random.randint(-10, 10, shape), as T; for bool, the draws > 0.
template <class T, std::size_t... D>
fixed<T, D...> random_array(std::mt19937& gen) {
  std::uniform_int_distribution<int> draw(-10, 9);
  fixed<T, D...> a;
  for (auto& x : a) {
    const int r = draw(gen);
    if constexpr (std::is_same_v<T, bool>) {
      x = r > 0;
    } else {
      x = static_cast<T>(r);
    }
  }
  return a;
}

// One dtype and shape of testFeedAndFetch: feed_t = placeholder(dtype, shape),
// out_t = identity(feed_t); fetch out_t, feed_t, and both, feeding np_array.
template <class T, std::size_t... D>
void feed_and_fetch(std::mt19937& gen) {
  auto feed_t = tf::placeholder<"Placeholder", T, tf::shape<static_cast<std::ptrdiff_t>(D)...>>();
  auto out_t = tf::identity(feed_t);
  tf::session sess;
  const auto np_array = random_array<T, D...>(gen);
  CHECK(sess.run(out_t, tf::feed(feed_t, np_array)) == np_array);
  CHECK(sess.run(feed_t, tf::feed(feed_t, np_array)) == np_array);  // the feed back
  auto [out_v, feed_v] = sess.run(tf::fetch(out_t, feed_t), tf::feed(feed_t, np_array));
  CHECK(out_v == np_array);
  CHECK(feed_v == np_array);
  // A container whose type leaves the dims open (checked at run time), fed the same values.
  const xt::xtensor<T, sizeof...(D)> dynamic = np_array;
  CHECK(sess.run(out_t, tf::feed(feed_t, dynamic)) == np_array);
}

template <class T>
void feed_and_fetch_shapes(std::mt19937& gen) {
  feed_and_fetch<T, 32, 4, 128>(gen);
  feed_and_fetch<T, 37>(gen);
  feed_and_fetch<T, 2, 0, 6>(gen);
  feed_and_fetch<T, 0, 0, 0>(gen);
}

}  // namespace

TEST_CASE("SessionTest.testFeedAndFetch: float32, float64, int32, int64, bool; [32, 4, 128], [37], [2, 0, 6], [0, 0, 0]") {
  std::mt19937 gen(2015);
  feed_and_fetch_shapes<float>(gen);
  feed_and_fetch_shapes<double>(gen);
  feed_and_fetch_shapes<std::int32_t>(gen);
  feed_and_fetch_shapes<std::int64_t>(gen);
  feed_and_fetch_shapes<bool>(gen);
}

TEST_CASE("SessionTest.testFeedAndFetch: scalars of each dtype, fed and fetched back") {
  auto f = tf::placeholder<"f", float>();
  auto d = tf::placeholder<"d", double>();
  auto i = tf::placeholder<"i", std::int32_t>();
  auto l = tf::placeholder<"l", std::int64_t>();
  auto b = tf::placeholder<"b", bool>();
  tf::session sess;
  const auto r = sess.run(tf::fetch(tf::identity(f), d, tf::identity(i), l, tf::identity(b)), tf::feed(f, -3.5f),
                          tf::feed(d, 0.25), tf::feed(i, -7), tf::feed(l, std::int64_t{1} << 40), tf::feed(b, true));
  CHECK(r == std::tuple{-3.5f, 0.25, std::int32_t{-7}, std::int64_t{1} << 40, true});
}

TEST_CASE("SessionTest.testCreate: identity of constant W1, fed and not fed (placeholder_with_default)") {
  // inp = constant(10.0, shape=[2, 3], name='W1'); copy = identity(inp). Feeding a tensor that
  // is not a placeholder is what tf.placeholder_with_default does: a default, fed when given.
  auto inp = tf::constant<"W1">(fixed<float, 2, 3>{{10, 10, 10}, {10, 10, 10}});
  auto copy = tf::identity(inp);
  tf::session sess(copy);
  const fixed<float, 2, 3> arr = {{0, 1, 2}, {3, 4, 5}};
  CHECK(sess.run(copy, tf::feed(inp, arr)) == arr);
  CHECK(sess.run(copy) == fixed<float, 2, 3>{{10, 10, 10}, {10, 10, 10}});
}

TEST_CASE("SessionTest.testRunFeedDict: 2 * x with x = zeros([2]) fed ones, and nested keys as several feeds") {
  auto x = tf::constant<"zeros">(fixed<float, 2>{0, 0});
  auto twice = tf::constant<2.0f>() * x;
  tf::session s;
  const fixed<float, 2> ones = {1, 1};
  CHECK(s.run(twice, hana::make_map(hana::make_pair(x, ones))) == fixed<float, 2>{2, 2});  // feed_dict={x: ...}
  CHECK(s.run(twice, tf::feed(x, xt::xtensor<float, 1>{1, 1})) == fixed<float, 2>{2, 2});  // {x: [1, 1]}
  // z = (((zeros([2]),),), zeros([2]), (zeros([2]),)), fed the tuple of values
  // (((1, 1),),), (2, 2), ((3, 3),)): a feed per node (a structure is not a feed key).
  auto z0 = tf::constant<"zeros_1">(fixed<float, 2>{0, 0});
  auto z1 = tf::constant<"zeros_2">(fixed<float, 2>{0, 0});
  auto z2 = tf::constant<"zeros_3">(fixed<float, 2>{0, 0});
  auto result = std::tuple{z0 * tf::constant<2.0f>(), z1 * tf::constant<2.0f>(), z2 * tf::constant<2.0f>()};
  const fixed<float, 2> v1 = {1, 1}, v2 = {2, 2}, v3 = {3, 3};
  auto [r0, r1, r2] = s.run(result, hana::make_map(hana::make_pair(z0, v1), hana::make_pair(z1, v2), hana::make_pair(z2, v3)));
  CHECK(r0 == fixed<float, 2>{2, 2});
  CHECK(r1 == fixed<float, 2>{4, 4});
  CHECK(r2 == fixed<float, 2>{6, 6});
}

TEST_CASE("SessionTest.testFeedShapeCompatibility: a fed value of 3 for a tensor of 4; reshape to [3, 7]") {
  auto some_tensor = tf::constant<"some_tensor">(fixed<float, 4>{2, 2, 2, 2});
  auto reshaped_tensor = tf::reshape<tf::shape<2, 2>>(some_tensor);
  auto count = tf::variable<"count", float>(tf::init::zeros());
  auto step = tf::group(tf::assign_add(count, tf::constant<1.0f>()), reshaped_tensor);
  tf::session sess(step);
  sess.initialize_all();
  // TensorFlow's ValueError: "Cannot feed value of shape (3,) for Tensor 'Const:0', which has shape '(4,)'"
  const xt::xtensor<float, 1> three = {1, 2, 3};
  CHECK_THROWS_WITH_AS(sess.run(reshaped_tensor, tf::feed(some_tensor, three)),
                       "InvalidArgument: Cannot feed value of shape [3] for node 'some_tensor', which has shape [4]",
                       tf::invalid_argument_error);
  // The same bad feed in a run with an assign_add: checked before anything runs, nothing changes.
  CHECK_THROWS_AS(sess.run(step, tf::feed(some_tensor, three)), tf::invalid_argument_error);
  CHECK(sess.run(count) == 0.0f);
  const xt::xtensor<float, 1> four = {1, 2, 3, 4};
  CHECK(sess.run(reshaped_tensor, tf::feed(some_tensor, four)) == fixed<float, 2, 2>{{1, 2}, {3, 4}});
  sess.run(step, tf::feed(some_tensor, four));
  CHECK(sess.run(count) == 1.0f);
  // feed_dict={new_shape: [3, 7]}: typeflow's target shape is in the type, so the 4 values come
  // from a placeholder of shape [?], and the reshape to [3, 7] fails when it runs.
  auto values = tf::placeholder<"values", float, tf::shape<tf::dyn>>();
  auto to_3_7 = tf::reshape<tf::shape<3, 7>>(values);
  CHECK_THROWS_WITH_AS(sess.run(to_3_7, tf::feed(values, four)),
                       "InvalidArgument: Input to reshape is a tensor with 4 values, but the requested shape [3, 7] has 21",
                       tf::invalid_argument_error);
}

TEST_CASE("SessionTest.testFeedPrecisionLossError: an int64 feed that int32 cannot hold is refused") {
  constexpr auto largest_int64 = std::numeric_limits<std::int64_t>::max();
  auto feed_int_implicit_int32 = tf::constant<"Const">(std::int32_t{1});
  auto out_t = tf::constant<1.0f>();
  tf::session sess;
  // TensorFlow's TypeError: "Type of feed value 9223372036854775807 with type <class 'int'> is
  // not compatible with Tensor type <dtype: 'int32'>. Try explicitly setting the type of the feed
  // tensor to a larger type (e.g. int64)."
  CHECK_THROWS_WITH_AS(sess.run(out_t, tf::feed(feed_int_implicit_int32, largest_int64)),
                       "InvalidArgument: Type of feed value 9223372036854775807 with type int64 is not compatible "
                       "with Tensor type int32 of node 'Const'. Try explicitly setting the type of the feed tensor "
                       "to a larger type (e.g. int64).",
                       tf::invalid_argument_error);
  auto i = tf::placeholder<"i", std::int32_t>();
  auto l = tf::placeholder<"l", std::int64_t>();
  auto f = tf::placeholder<"f", float>();
  auto b = tf::placeholder<"b", bool>();
  CHECK(sess.run(l, tf::feed(l, largest_int64)) == largest_int64);  // a larger type
  CHECK(sess.run(i, tf::feed(i, std::int64_t{-2147483648LL})) == std::numeric_limits<std::int32_t>::min());
  CHECK_THROWS_AS(sess.run(i, tf::feed(i, std::int64_t{2147483648LL})), tf::invalid_argument_error);
  CHECK_THROWS_AS(sess.run(i, tf::feed(i, 4294967295U)), tf::invalid_argument_error);
  // np.float32(2**24 + 1) != 2**24 + 1: rounded, refused; 2**24 is exact.
  CHECK(sess.run(f, tf::feed(f, 1 << 24)) == 16777216.0f);
  CHECK_THROWS_WITH_AS(sess.run(f, tf::feed(f, (1 << 24) + 1)),
                       "InvalidArgument: Type of feed value 16777217 with type int32 is not compatible with Tensor "
                       "type float32 of placeholder 'f'. Try explicitly setting the type of the feed tensor to a "
                       "larger type (e.g. int64).",
                       tf::invalid_argument_error);
  CHECK_THROWS_AS(sess.run(f, tf::feed(f, largest_int64)), tf::invalid_argument_error);  // rounds to 2**63
  CHECK(sess.run(b, tf::feed(b, 1)) == true);
  CHECK_THROWS_AS(sess.run(b, tf::feed(b, 2)), tf::invalid_argument_error);
  CHECK(sess.run(f, tf::feed(f, 0.1)) == 0.1f);  // a float value converts, as TensorFlow's
}
