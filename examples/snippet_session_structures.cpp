// docs/reference/session.md: structured fetches, feeds as a hana::map, feed checks.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

// "loss"_s (a GNU extension that g++ and clang accept) must be enabled before Hana is
// included; BOOST_HANA_STRING("loss") needs nothing.
#define BOOST_HANA_CONFIG_ENABLE_STRING_UDL
#include <boost/hana.hpp>
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;
namespace hana = boost::hana;
using namespace hana::literals;

// [snippet struct_type]
template <class Loss, class Prediction>
struct report {
  BOOST_HANA_DEFINE_STRUCT(report, (Loss, loss), (Prediction, prediction));
};
// [/snippet struct_type]

int main() {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 2>>();
  auto lr = tf::placeholder<"lr", float>();
  auto w = tf::variable<"w", float, tf::shape<2, 1>>(tf::init::ones());
  auto y = tf::matmul(x, w);
  auto loss = tf::reduce_mean(tf::square(y));
  auto train = tf::group(tf::assign_sub(w, lr * w));  // an op: its value is tf::none_t
  tf::session sess(loss, train);
  sess.initialize_all();
  xt::xtensor<float, 2> batch = {{1, 2}, {3, 4}};

  {
    // [snippet nested]
    auto fetches = hana::make_map(
        hana::make_pair("loss"_s, loss),
        hana::make_pair("pair"_s, std::array{std::tuple{y, loss}, std::tuple{y, loss}}));
    auto r = sess.run(fetches, tf::feed(x, batch));
    float l = r["loss"_s];                                   // the same keys, values for nodes
    auto [y_value, l_again] = r["pair"_s][1];                // std::array of std::tuple
    // [/snippet nested]
    EXPECT(l == (9.0f + 49.0f) / 2.0f && l_again == l);
    EXPECT(y_value == xt::xtensor<float, 2>{{3}, {7}});
  }
  {
    // [snippet struct]
    report<decltype(loss), decltype(y)> wanted;  // members are nodes
    auto r = sess.run(wanted, tf::feed(x, batch));
    float l = r["loss"_s];                       // a hana::map keyed by the member names
    xt::xtensor<float, 2> p = r[BOOST_HANA_STRING("prediction")];
    // [/snippet struct]
    EXPECT(l == 29.0f && p == xt::xtensor<float, 2>{{3}, {7}});
  }
  {
    // [snippet feed_map]
    auto feeds = hana::make_map(hana::make_pair(x, batch), hana::make_pair(lr, 0.01f));
    auto [loss_value, done] = sess.run(std::tuple{loss, train}, feeds);  // done: tf::none_t
    // [/snippet feed_map]
    static_assert(std::is_same_v<decltype(done), tf::none_t>);
    EXPECT(loss_value == 29.0f);
  }
  {
    // [snippet empty]
    std::tuple<> nothing = sess.run(std::tuple<>{});          // runs nothing
    hana::tuple<> nothing_either = sess.run(hana::make_tuple());
    // [/snippet empty]
    EXPECT(nothing == std::tuple<>{} && hana::length(nothing_either) == hana::size_c<0>);
  }
  {
    // [snippet feed_check]
    xt::xarray<float> three = {0.1f, 0.2f, 0.3f};
    const auto before = sess.run(w);
    try {
      sess.run(train, tf::feed(x, batch), tf::feed(lr, three));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error& e) {
      EXPECT(e.message() == "Cannot feed value of shape [3] for placeholder 'lr', which has shape []");
    }
    EXPECT(sess.run(w) == before);  // nothing changed
    // [/snippet feed_check]
  }
  {
    // [snippet adapt]
    std::vector<float> rows = {1, 2, 3, 4, 5, 6};
    // tf::feed(x, rows) does not compile: a std::vector has no shape. Give it one:
    float l = sess.run(loss, tf::feed(x, xt::adapt(rows, std::array<std::size_t, 2>{3, 2})));
    // [/snippet adapt]
    EXPECT(l > 0.0f);
  }
  std::puts("ok");
}
