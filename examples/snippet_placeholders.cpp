// docs/reference/placeholders.md: declaring placeholders and feeding them.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet declare]
  auto learning_rate = tf::placeholder<"learning_rate", float>();            // shape<>: a scalar
  auto images = tf::placeholder<"images", float, tf::shape<tf::dyn, 784>>();  // [None, 784]
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<tf::dyn>>();
  auto mask = tf::placeholder<"mask", bool, tf::shape<2, 3>>();               // fully static
  // [/snippet declare]
  (void)images;
  (void)labels;
  (void)mask;

  // [snippet types]
  static_assert(std::is_same_v<decltype(learning_rate),
                               tf::placeholder_node<"learning_rate", float, tf::shape<>>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(images)>, float>);
  static_assert(std::is_same_v<tf::shape_of<decltype(images)>, tf::shape<tf::dyn, 784>>);
  static_assert(tf::name_of<decltype(images)>() == "images");
  // [/snippet types]

  {
    // [snippet feed_scalar]
    auto x = tf::placeholder<"x", float>();
    tf::session sess;
    float y = sess.run(x * tf::constant<2>(), tf::feed(x, 1.5f));  // 3
    float z = sess.run(x * tf::constant<2>(), tf::feed(x, 3));     // 6: 3 converts to float
    // [/snippet feed_scalar]
    EXPECT(y == 3.0f && z == 6.0f);
  }
  {
    // [snippet feed_static]
    auto m = tf::placeholder<"m", float, tf::shape<2, 3>>();
    tf::session sess;
    xt::xtensor_fixed<float, xt::xshape<2, 3>> value = {{1, 2, 3}, {4, 5, 6}};
    xt::xtensor_fixed<float, xt::xshape<2, 3>> twice = sess.run(m + m, tf::feed(m, value));
    // [/snippet feed_static]
    EXPECT(twice == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{2, 4, 6}, {8, 10, 12}});
  }
  {
    // [snippet feed_dynamic]
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
    tf::session sess;
    xt::xtensor<float, 2> one_row = {{1, 2, 3}};
    xt::xtensor<float, 2> three_rows = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    xt::xtensor<float, 2> a = sess.run(x * x, tf::feed(x, one_row));     // shape {1, 3}
    xt::xtensor<float, 2> b = sess.run(x * x, tf::feed(x, three_rows));  // shape {3, 3}
    // [/snippet feed_dynamic]
    EXPECT(a == xt::xtensor<float, 2>{{1, 4, 9}});
    EXPECT(b.shape(0) == 3 && b(2, 2) == 81.0f);

    // [snippet feed_layout]
    xt::xtensor<float, 2, xt::layout_type::column_major> by_columns = {{1, 2, 3}, {4, 5, 6}};
    auto row_sums = tf::reduce_sum<1>(x);
    EXPECT(sess.run(row_sums, tf::feed(x, by_columns)) == xt::xtensor<float, 1>{6, 15});
    EXPECT(sess.run(row_sums, tf::feed(x, xt::ones<float>({4, 3}))) ==  // an expression
           xt::xtensor<float, 1>{3, 3, 3, 3});
    // [/snippet feed_layout]

    // [snippet feed_kept]
    auto feeds = tf::feed(x, xt::xtensor<float, 2>{{1, 2, 3}});  // the feed owns the values
    xt::xtensor<float, 2> first = sess.run(x * x, feeds);
    xt::xtensor<float, 2> again = sess.run(x * x, feeds);
    // [/snippet feed_kept]
    EXPECT(first == again && again == xt::xtensor<float, 2>{{1, 4, 9}});

    // [snippet wrong_shape]
    xt::xtensor<float, 2> four_columns = {{1, 2, 3, 4}};
    try {
      sess.run(x * x, tf::feed(x, four_columns));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error& e) {
      EXPECT(std::string(e.what()) ==
             "InvalidArgument: Cannot feed value of shape [1, 4] for placeholder 'x', "
             "which has shape [?, 3]");
    }
    // [/snippet wrong_shape]

    // [snippet wrong_rank]
    xt::xarray<float> vector = {1.f, 2.f, 3.f};  // rank known only at run time
    try {
      sess.run(x * x, tf::feed(x, vector));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error& e) {
      EXPECT(e.message() ==
             "Cannot feed value of shape [3] for placeholder 'x', which has shape [?, 3]");
    }
    // [/snippet wrong_rank]
  }
  {
    // [snippet off_path]
    auto x = tf::placeholder<"x", float>();
    auto unused = tf::placeholder<"unused", float>();
    auto y = x * tf::constant<3>();
    tf::session sess(y, unused);
    float value = sess.run(y, tf::feed(x, 2.0f));  // 6: unused is not on y's path
    // [/snippet off_path]
    EXPECT(value == 6.0f);
  }
  {
    // [snippet with_default]
    auto keep_prob = tf::placeholder_with_default<"keep_prob">(tf::constant<1.0f>());
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
    auto y = x * keep_prob;
    tf::session sess(y);
    xt::xtensor<float, 2> rows = {{2, 4, 6}};
    xt::xtensor<float, 2> eval = sess.run(y, tf::feed(x, rows));  // {{2, 4, 6}}: not fed, 1
    xt::xtensor<float, 2> train = sess.run(y, tf::feed(x, rows), tf::feed(keep_prob, 0.5f));  // {{1, 2, 3}}
    // [/snippet with_default]
    EXPECT(eval == xt::xtensor<float, 2>{{2, 4, 6}});
    EXPECT(train == xt::xtensor<float, 2>{{1, 2, 3}});
  }
  {
    // [snippet with_default_shape]
    auto one_row = tf::constant<"one_row">(xt::xtensor_fixed<float, xt::xshape<1, 3>>{{1, 2, 3}});
    auto batch = tf::placeholder_with_default<"batch", tf::shape<tf::dyn, 3>>(one_row);  // [None, 3]
    static_assert(std::is_same_v<tf::shape_of<decltype(batch)>, tf::shape<tf::dyn, 3>>);
    auto sums = tf::reduce_sum<1>(batch);
    tf::session sess(sums);
    EXPECT(sess.run(sums) == xt::xtensor<float, 1>{6});  // the default's one row
    xt::xtensor<float, 2> two_rows = {{1, 1, 1}, {2, 2, 2}};
    EXPECT(sess.run(sums, tf::feed(batch, two_rows)) == xt::xtensor<float, 1>{3, 6});
    xt::xtensor<float, 2> four_columns = {{1, 2, 3, 4}};
    try {
      sess.run(sums, tf::feed(batch, four_columns));
      EXPECT(!"run throws");
    } catch (const tf::invalid_argument_error& e) {
      EXPECT(e.message() == "Cannot feed value of shape [1, 4] for node 'batch', which has shape [?, 3]");
    }
    // [/snippet with_default_shape]
  }
  {
    // [snippet with_default_path]
    auto x = tf::placeholder<"x", float>();
    auto p = tf::placeholder_with_default<"p">(x * tf::constant<2>());
    auto y = p + tf::constant<1>();
    tf::session sess(y);
    float fed = sess.run(y, tf::feed(p, 10.0f));   // 11: x * 2 does not run, x needs no feed
    float unfed = sess.run(y, tf::feed(x, 3.0f));  // 7: p is x * 2
    // sess.run(y) does not compile: y's path reaches placeholder 'x' through p's default
    // [/snippet with_default_path]
    EXPECT(fed == 11.0f && unfed == 7.0f);
  }
  return 0;
}
