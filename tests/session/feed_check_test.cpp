// Fed values are checked against the node's rank and shape before anything runs, with
// TensorFlow's message; a rejected feed changes nothing in the session.
#include <doctest/doctest.h>

#include <boost/hana.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace hana = boost::hana;

namespace {

// A session whose step changes a variable, fed a learning rate and a vector of 3.
struct model {
  static auto lr() { return tf::placeholder<"lr", float>(); }
  static auto x() { return tf::placeholder<"x3", float, tf::shape<3>>(); }
  static auto w() { return tf::variable<"w3", float, tf::shape<3>>(tf::init::ones()); }
  static auto step() { return tf::assign_sub(w(), lr() * x()); }
};

using fixed3 = xt::xtensor_fixed<float, xt::xshape<3>>;

}  // namespace

TEST_CASE("a scalar placeholder fed a tensor of shape [3] is refused, as in TensorFlow") {
  tf::session sess(model::step());
  sess.initialize_all();
  const fixed3 x = {1, 2, 3};
  const xt::xarray<float> three = {1.f, 2.f, 3.f};
  CHECK_THROWS_WITH_AS(sess.run(model::step(), tf::feed(model::lr(), three), tf::feed(model::x(), x)),
                       "InvalidArgument: Cannot feed value of shape [3] for placeholder 'lr', which has shape []",
                       tf::invalid_argument_error);
  // A tensor of one element is not a scalar either (TensorFlow: [1] is not compatible with []).
  const xt::xarray<float> one = xt::ones<float>({1});
  CHECK_THROWS_WITH_AS(sess.run(model::step(), tf::feed(model::lr(), one), tf::feed(model::x(), x)),
                       "InvalidArgument: Cannot feed value of shape [1] for placeholder 'lr', which has shape []",
                       tf::invalid_argument_error);
  CHECK(sess.run(model::w()) == fixed3{1, 1, 1});
  // A 0-d tensor feeds a scalar.
  const xt::xarray<float> half = 0.5f;
  sess.run(model::step(), tf::feed(model::lr(), half), tf::feed(model::x(), x));
  CHECK(sess.run(model::w()) == fixed3{0.5f, 0.f, -0.5f});
}

TEST_CASE("an empty tensor is refused by a scalar or a static shape, fed to a dynamic one") {
  tf::session sess(model::step());
  sess.initialize_all();
  const fixed3 x = {1, 2, 3};
  const xt::xarray<float> empty = xt::zeros<float>({0});
  CHECK_THROWS_WITH_AS(sess.run(model::step(), tf::feed(model::lr(), empty), tf::feed(model::x(), x)),
                       "InvalidArgument: Cannot feed value of shape [0] for placeholder 'lr', which has shape []",
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(sess.run(model::step(), tf::feed(model::lr(), 1.0f), tf::feed(model::x(), empty)),
                       "InvalidArgument: Cannot feed value of shape [0] for placeholder 'x3', which has shape [3]",
                       tf::invalid_argument_error);
  CHECK(sess.run(model::w()) == fixed3{1, 1, 1});
  auto d = tf::placeholder<"dyn_d", float, tf::shape<tf::dyn>>();
  tf::session dsess(tf::reduce_sum(d));
  CHECK(dsess.run(tf::reduce_sum(d), tf::feed(d, empty)) == 0.0f);
}

TEST_CASE("wrong rank and wrong dimension, from containers and from lazy expressions") {
  tf::session sess(model::step());
  sess.initialize_all();
  const xt::xarray<float> rank2 = {{1.f, 2.f, 3.f}};
  CHECK_THROWS_WITH_AS(sess.run(model::step(), tf::feed(model::lr(), 1.0f), tf::feed(model::x(), rank2)),
                       "InvalidArgument: Cannot feed value of shape [1, 3] for placeholder 'x3', which has shape [3]",
                       tf::invalid_argument_error);
  const xt::xtensor<float, 1> two = {1, 2};
  CHECK_THROWS_WITH_AS(sess.run(model::step(), tf::feed(model::lr(), 1.0f), tf::feed(model::x(), two)),
                       "InvalidArgument: Cannot feed value of shape [2] for placeholder 'x3', which has shape [3]",
                       tf::invalid_argument_error);
  // A lazy expression is checked before it is copied for the run.
  CHECK_THROWS_WITH_AS(sess.run(model::step(), tf::feed(model::lr(), 1.0f), tf::feed(model::x(), rank2 * 2.f)),
                       "InvalidArgument: Cannot feed value of shape [1, 3] for placeholder 'x3', which has shape [3]",
                       tf::invalid_argument_error);
  // The same checks for feeds given as a hana::map.
  CHECK_THROWS_WITH_AS(
      sess.run(model::step(), hana::make_map(hana::make_pair(model::lr(), 1.0f), hana::make_pair(model::x(), two))),
      "InvalidArgument: Cannot feed value of shape [2] for placeholder 'x3', which has shape [3]",
      tf::invalid_argument_error);
  CHECK(sess.run(model::w()) == fixed3{1, 1, 1});
  const xt::xtensor<float, 1> right = {1, 1, 1};
  sess.run(model::step(), tf::feed(model::lr(), 1.0f), tf::feed(model::x(), right * 2.f));
  CHECK(sess.run(model::w()) == fixed3{-1, -1, -1});
}
