// docs/reference/session.md: sessions, run, feeds, fetches and results.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet roots]
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"w", float, tf::shape<3, 2>>(tf::init::ones());
  auto b = tf::variable<"b", float, tf::shape<2>>(tf::init::zeros());
  auto y = tf::matmul(x, w) + b;
  auto loss = tf::reduce_mean(tf::square(y));

  tf::session sess(loss);  // holds every variable that loss reaches: w and b
  sess.run(tf::global_variables_initializer());
  // [/snippet roots]

  // [snippet results]
  xt::xtensor<float, 2> batch = {{1, 2, 3}, {0, 0, 1}};
  float l = sess.run(loss, tf::feed(x, batch));                       // rank 0: the scalar
  xt::xtensor<float, 2> y_value = sess.run(y, tf::feed(x, batch));    // a dyn dim: xt::xtensor
  xt::xtensor_fixed<float, xt::xshape<3, 2>> w_value = sess.run(w);   // static: xtensor_fixed
  // [/snippet results]
  EXPECT(l == (36.0f + 36.0f + 1.0f + 1.0f) / 4.0f);
  EXPECT(y_value == xt::xtensor<float, 2>{{6, 6}, {1, 1}});
  EXPECT(w_value == xt::xtensor_fixed<float, xt::xshape<3, 2>>{{1, 1}, {1, 1}, {1, 1}});
  static_assert(std::is_same_v<decltype(sess.run(loss, tf::feed(x, batch))), float>);
  static_assert(std::is_same_v<decltype(sess.run(y, tf::feed(x, batch))), xt::xtensor<float, 2>>);
  static_assert(std::is_same_v<decltype(sess.run(w)), xt::xtensor_fixed<float, xt::xshape<3, 2>>>);

  // [snippet fetch]
  auto [y_again, l_again] = sess.run(tf::fetch(y, loss), tf::feed(x, batch));
  // [/snippet fetch]
  EXPECT(y_again == y_value && l_again == l);
  static_assert(std::is_same_v<decltype(sess.run(tf::fetch(y, loss), tf::feed(x, batch))),
                               std::tuple<xt::xtensor<float, 2>, float>>);

  // [snippet once]
  std::ostringstream printed;
  sess.set_print_stream(printed);
  auto traced = tf::print<"y computed">(y);
  auto [sum, mean] = sess.run(tf::fetch(tf::reduce_sum(traced), tf::reduce_mean(traced)),
                              tf::feed(x, batch));
  EXPECT(printed.str() == "y computed\n");  // two consumers, one evaluation
  // [/snippet once]
  EXPECT(sum == 14.0f && mean == 3.5f);

  // [snippet feed_inner]
  xt::xtensor<float, 2> given_y = {{1, 1}, {3, 3}};
  EXPECT(sess.run(loss, tf::feed(y, given_y)) == 5.0f);  // x, w, b and the matmul are not used
  // [/snippet feed_inner]

  // [snippet effect_results]
  tf::none_t nothing = sess.run(tf::group(w, b));
  bool ready = sess.run(tf::is_variable_initialized(w));
  std::vector<std::string> missing = sess.run(tf::report_uninitialized_variables());
  // [/snippet effect_results]
  EXPECT(nothing == tf::none_t{} && ready && missing.empty());

  // [snippet failure]
  auto step = tf::assign_sub(b, tf::reduce_mean<0>(y));
  tf::session trainer(step);
  trainer.initialize_all();
  xt::xtensor<float, 2> bad_batch = {{1, 2}};
  try {
    trainer.run(step, tf::feed(x, bad_batch));
    EXPECT(!"run throws");
  } catch (const tf::invalid_argument_error&) {
    EXPECT(trainer.run(b) == xt::xtensor_fixed<float, xt::xshape<2>>{0, 0});  // unchanged
  }
  // [/snippet failure]

  // [snippet move]
  static_assert(!std::is_copy_constructible_v<decltype(sess)>);
  auto ref = trainer.ref();          // follows the session through its moves
  auto moved = std::move(trainer);  // sessions move; variable values move with them
  EXPECT(moved.is_initialized(b));
  EXPECT(&ref.get() == &moved);
  try {
    trainer.run(b);  // moved from: a closed session
    EXPECT(!"run throws");
  } catch (const tf::cancelled_error& e) {
    EXPECT(std::string(e.what()).starts_with("Cancelled: Attempted to use a closed Session."));
  }
  // [/snippet move]
  return 0;
}
