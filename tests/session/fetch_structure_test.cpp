// Structured fetches (DESIGN.md rule 10): run() takes any nesting of nodes in std::tuple,
// std::array, hana::tuple, hana::map and Hana structs, and returns the same structure of
// values; all leaves form one fetch list, each node evaluated once per run.
#include <doctest/doctest.h>

#include <array>
#include <tuple>
#include <type_traits>

#define BOOST_HANA_CONFIG_ENABLE_STRING_UDL
#include <boost/hana.hpp>

#include <typeflow/typeflow.hpp>

#include "../support/counting.hpp"

namespace tf = typeflow;
namespace hana = boost::hana;
using namespace hana::literals;
using typeflow_test::counted;
using typeflow_test::evaluations;

namespace {

void reset() {
  evaluations<11> = 0;
  evaluations<12> = 0;
}

template <class Loss, class Acc>
struct metrics {
  BOOST_HANA_DEFINE_STRUCT(metrics, (Loss, loss), (Acc, accuracy));
};

}  // namespace

TEST_CASE("a nesting of std::tuple, std::array and hana::map returns the same structure of values") {
  reset();
  auto x = tf::placeholder<"nest_x", float>();
  auto a = counted<11>(x * x);
  auto b = counted<12>(a + x);
  tf::session sess(b);
  auto fetches = hana::make_map(hana::make_pair("pair"_s, std::array{std::tuple{a, b}, std::tuple{a, b}}),
                                hana::make_pair("one"_s, a));
  auto r = sess.run(fetches, tf::feed(x, 3.0f));
  static_assert(std::is_same_v<std::decay_t<decltype(r["pair"_s])>, std::array<std::tuple<float, float>, 2>>);
  static_assert(std::is_same_v<std::decay_t<decltype(r["one"_s])>, float>);
  CHECK(std::get<0>(r["pair"_s][0]) == 9.0f);
  CHECK(std::get<1>(r["pair"_s][0]) == 12.0f);
  CHECK(std::get<0>(r["pair"_s][1]) == 9.0f);
  CHECK(std::get<1>(r["pair"_s][1]) == 12.0f);
  CHECK(r["one"_s] == 9.0f);
  // a appears three times, b twice: each evaluated once.
  CHECK(evaluations<11> == 1);
  CHECK(evaluations<12> == 1);
}

TEST_CASE("std::tuple, hana::tuple and fetch(a, b) with a repeated node: each node runs once") {
  reset();
  auto x = tf::placeholder<"rep_x", float, tf::shape<2>>();
  auto a = counted<11>(x + x);
  tf::session sess(a);
  const xt::xtensor_fixed<float, xt::xshape<2>> v = {1, 2};
  const xt::xtensor_fixed<float, xt::xshape<2>> twice = {2, 4};
  auto [p, q] = sess.run(std::tuple{a, a}, tf::feed(x, v));
  CHECK(p == twice);
  CHECK(q == twice);
  CHECK(evaluations<11> == 1);
  auto h = sess.run(hana::make_tuple(a, x, a), tf::feed(x, v));
  CHECK(h[hana::size_c<0>] == twice);
  CHECK(h[hana::size_c<1>] == v);
  CHECK(h[hana::size_c<2>] == twice);
  CHECK(evaluations<11> == 2);
  auto [f0, f1] = sess.run(tf::fetch(a, a), tf::feed(x, v));
  CHECK(f0 == twice);
  CHECK(f1 == twice);
  CHECK(evaluations<11> == 3);
}

TEST_CASE("a Hana struct of nodes fetches a hana::map from its member names to values") {
  auto x = tf::placeholder<"struct_x", float>();
  auto y = x * tf::constant<2>();
  tf::session sess(y);
  const metrics<decltype(y), decltype(x)> m{};
  auto r = sess.run(m, tf::feed(x, 5.0f));
  CHECK(r["loss"_s] == 10.0f);
  CHECK(r[BOOST_HANA_STRING("accuracy")] == 5.0f);
  static_assert(decltype(hana::size(r))::value == 2);
}

TEST_CASE("feeds as a hana::map from placeholders to values, alone or with feed(x, v)") {
  auto x = tf::placeholder<"map_x", float>();
  auto w = tf::placeholder<"map_w", float, tf::shape<tf::dyn>>();
  auto z = tf::placeholder<"map_z", float>();
  auto y = tf::reduce_sum(w) * x + z;
  tf::session sess(y);
  const xt::xtensor<float, 1> wv = {1, 2, 3};
  CHECK(sess.run(y, hana::make_map(hana::make_pair(x, 2.0f), hana::make_pair(w, wv), hana::make_pair(z, 1.0f))) ==
        13.0f);
  CHECK(sess.run(y, hana::make_map(hana::make_pair(x, 2.0f), hana::make_pair(w, wv)), tf::feed(z, 4.0f)) == 16.0f);
  const xt::xarray<float> bad = {{1, 2, 3}};
  CHECK_THROWS_WITH_AS(sess.run(y, hana::make_map(hana::make_pair(x, 2.0f), hana::make_pair(w, bad)),
                                tf::feed(z, 4.0f)),
                       "InvalidArgument: Cannot feed value of shape [1, 3] for placeholder 'map_w', which has shape [?]",
                       tf::invalid_argument_error);
}

TEST_CASE("an empty fetch returns an empty structure and runs nothing") {
  auto v = tf::variable<"empty_fetch_v", float>(tf::init::zeros());
  auto x = tf::placeholder<"empty_fetch_x", float, tf::shape<tf::dyn>>();
  auto step = tf::assign_add(v, tf::reduce_sum(x));
  tf::session sess(step);
  sess.initialize_all();
  static_assert(std::is_same_v<decltype(sess.run(std::tuple<>{})), std::tuple<>>);
  static_assert(std::is_same_v<decltype(sess.run(hana::make_tuple())), hana::tuple<>>);
  static_assert(std::is_same_v<decltype(sess.run(tf::fetch())), std::tuple<>>);
  CHECK(sess.run(std::tuple<>{}) == std::tuple<>{});
  CHECK(sess.run(std::array<decltype(step), 0>{}).empty());
  // Feeds are still checked, as TensorFlow checks a feed_dict before it runs nothing.
  const xt::xarray<float> bad = xt::ones<float>({1, 1});
  CHECK_THROWS_WITH_AS(sess.run(hana::make_tuple(), tf::feed(x, bad)),
                       "InvalidArgument: Cannot feed value of shape [1, 1] for placeholder 'empty_fetch_x', which has shape [?]",
                       tf::invalid_argument_error);
  CHECK(sess.run(v) == 0.0f);
}

TEST_CASE("ops without a value (train op, group, assign) fetch typeflow::none_t, with no warning unused") {
  auto v = tf::variable<"none_v", float>(tf::init::zeros());
  auto bump = tf::assign_add(v, tf::constant<1>());
  auto g = tf::group(bump);
  tf::session sess(g);
  sess.initialize_all();
  auto [nothing, again] = sess.run(std::tuple{g, g});  // unused bindings: no warning
  static_assert(std::is_same_v<decltype(nothing), tf::none_t>);
  CHECK(again == tf::none_t{});
  CHECK(sess.run(v) == 1.0f);  // the update ran once
  sess.run(g);  // the result ignored: no warning
  CHECK(sess.run(v) == 2.0f);
}
