// Feeds: dynamic shapes are checked when the run starts; a rejected feed changes nothing.
#include <doctest/doctest.h>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("a fed value of the wrong shape or rank is refused, naming the placeholder and both shapes") {
  auto x = tf::placeholder<"features", float, tf::shape<tf::dyn, 3>>();
  auto y = tf::reduce_sum(x);
  tf::session sess(y);
  const xt::xtensor<float, 2> wrong_dim = {{1, 2}};
  CHECK_THROWS_WITH_AS(sess.run(y, tf::feed(x, wrong_dim)),
                       "InvalidArgument: Cannot feed value of shape [1, 2] for placeholder 'features', which has shape [?, 3]",
                       tf::invalid_argument_error);
  const xt::xarray<float> wrong_rank = {1.f, 2.f, 3.f};
  CHECK_THROWS_WITH_AS(sess.run(y, tf::feed(x, wrong_rank)),
                       "InvalidArgument: Cannot feed value of shape [3] for placeholder 'features', which has shape [?, 3]",
                       tf::invalid_argument_error);
  const xt::xarray<float> right = {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}};
  CHECK(sess.run(y, tf::feed(x, right)) == 21.0f);
}

TEST_CASE("a rejected feed leaves every variable unchanged") {
  auto delta = tf::placeholder<"delta", float, tf::shape<2>>();
  auto scale = tf::placeholder<"scale", float, tf::shape<tf::dyn>>();
  auto v = tf::variable<"feed_v", float, tf::shape<2>>(tf::init::ones());
  auto counter = tf::variable<"feed_counter", float>(tf::init::zeros());
  auto step = tf::group(tf::assign_add(counter, tf::constant<1>()), tf::assign_add(v, delta),
                        tf::reduce_sum(scale));
  tf::session sess(step);
  sess.initialize_all();
  const xt::xtensor<float, 1> good_delta = {1, 1};
  const xt::xtensor<float, 1> bad_delta = {1, 1, 1};
  const xt::xtensor<float, 1> any_scale = {1, 2, 3, 4};
  CHECK_THROWS_AS(sess.run(step, tf::feed(delta, bad_delta), tf::feed(scale, any_scale)), tf::invalid_argument_error);
  CHECK(sess.run(counter) == 0.0f);
  CHECK(sess.run(v) == xt::xtensor_fixed<float, xt::xshape<2>>{1, 1});
  sess.run(step, tf::feed(delta, good_delta), tf::feed(scale, any_scale));
  CHECK(sess.run(counter) == 1.0f);
  CHECK(sess.run(v) == xt::xtensor_fixed<float, xt::xshape<2>>{2, 2});
}

TEST_CASE("scalars convert to the placeholder's element type; tensors of any container type feed") {
  auto x = tf::placeholder<"scalar_d", double>();
  auto i = tf::placeholder<"scalar_i", std::int64_t>();
  tf::session sess(x, i);
  CHECK(sess.run(x * x, tf::feed(x, 3)) == 9.0);
  CHECK(sess.run(i + i, tf::feed(i, 21)) == 42);
  auto m = tf::placeholder<"fixed_feed", float, tf::shape<2, 2>>();
  const xt::xtensor_fixed<float, xt::xshape<2, 2>> fixed = {{1, 2}, {3, 4}};
  const xt::xarray<float> dynamic = {{1, 2}, {3, 4}};
  const xt::xtensor<float, 2> ranked = {{1, 2}, {3, 4}};
  CHECK(sess.run(tf::reduce_sum(m), tf::feed(m, fixed)) == 10.0f);
  CHECK(sess.run(tf::reduce_sum(m), tf::feed(m, dynamic)) == 10.0f);
  CHECK(sess.run(tf::reduce_sum(m), tf::feed(m, ranked)) == 10.0f);
}

TEST_CASE("any node can be fed, as in TensorFlow; a fetch of a fed node returns the fed value") {
  auto v = tf::variable<"fed_variable", float>(tf::init::constant(1.));
  auto y = v * tf::constant<3>();
  tf::session sess(y);
  // v is not initialized, but fed: nothing reads the session's v.
  CHECK(sess.run(y, tf::feed(v, 2.0f)) == 6.0f);
  CHECK(sess.run(v, tf::feed(v, 5.0f)) == 5.0f);
  CHECK(sess.run(y, tf::feed(y, 4.0f)) == 4.0f);
}

TEST_CASE("broadcasting with a dynamic dimension fails at run time with an error") {
  auto a = tf::placeholder<"bcast_a", float, tf::shape<tf::dyn>>();
  auto b = tf::placeholder<"bcast_b", float, tf::shape<3>>();
  auto c = a + b;
  tf::session sess(c);
  const xt::xtensor<float, 1> two = {1, 2};
  const xt::xtensor<float, 1> three = {1, 2, 3};
  const xt::xtensor<float, 1> one = {10};
  CHECK(sess.run(c, tf::feed(a, one), tf::feed(b, three)) == xt::xtensor<float, 1>{11, 12, 13});
  CHECK_THROWS(sess.run(c, tf::feed(a, two), tf::feed(b, three)));
}

TEST_CASE("a feed made from a temporary keeps it: the feed may outlive the expression that made it") {
  auto x = tf::placeholder<"kept", float, tf::shape<tf::dyn>>();
  auto y = tf::reduce_sum(x * x);
  tf::session sess(y);
  auto from_temporary = tf::feed(x, xt::xtensor<float, 1>{1, 2, 3});  // TensorFlow: feed_dict = {x: np.array(...)}
  auto fixed_temporary = tf::feed(x, xt::xtensor_fixed<float, xt::xshape<2>>{3, 4});
  xt::xtensor<float, 1> batch = {5, 5};
  auto from_lvalue = tf::feed(x, batch);
  // An rvalue is moved into the feed, an lvalue is referenced (no copy of a batch per run).
  static_assert(std::is_same_v<decltype(from_temporary.value), xt::xtensor<float, 1>>);
  static_assert(std::is_same_v<decltype(from_lvalue.value), const xt::xtensor<float, 1>&>);
  const xt::xtensor<float, 1> reuses_freed_memory = {100, 100, 100};  // would overwrite a dead temporary's buffer
  CHECK(sess.run(y, from_temporary) == 14.0f);
  CHECK(sess.run(y, from_temporary) == 14.0f);  // reusable, as a feed_dict is
  CHECK(sess.run(y, fixed_temporary) == 25.0f);
  batch(0) = 1;  // a referenced lvalue is read when the run starts
  CHECK(sess.run(y, from_lvalue) == 26.0f);
  CHECK(reuses_freed_memory(0) == 100.0f);
}
