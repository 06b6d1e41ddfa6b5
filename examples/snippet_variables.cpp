// docs/reference/variables.md: definitions, initializers, identity, storage in sessions.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xsort.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet define]
  auto w = tf::variable<"w", float, tf::shape<784, 128>>(tf::init::glorot_uniform());
  auto b = tf::variable<"b", float, tf::shape<128>>(tf::init::zeros());
  auto step = tf::variable<"global_step", std::int64_t>();  // scalar, zeros by default
  auto scale = tf::variable<"scale", double>();             // scalar, glorot_uniform by default
  // [/snippet define]

  // [snippet initializers]
  auto zeros = tf::variable<"zeros", float, tf::shape<3>>(tf::init::zeros());
  auto ones = tf::variable<"ones", float, tf::shape<3>>(tf::init::ones());
  auto sevens = tf::variable<"sevens", std::int32_t, tf::shape<3>>(tf::init::constant(7));
  auto uniform = tf::variable<"uniform", float, tf::shape<1000>>(tf::init::random_uniform(-1, 1));
  auto normal = tf::variable<"normal", double, tf::shape<1000>>(tf::init::random_normal(0, 2));
  auto truncated =
      tf::variable<"truncated", double, tf::shape<1000>>(tf::init::truncated_normal(0, 2));
  auto glorot = tf::variable<"glorot", float, tf::shape<3, 2>>(tf::init::glorot_uniform());

  tf::session sess(zeros, ones, sevens, uniform, normal, truncated, glorot);
  sess.run(tf::global_variables_initializer());
  EXPECT(sess.run(zeros) == xt::xtensor_fixed<float, xt::xshape<3>>{0, 0, 0});
  EXPECT(sess.run(ones) == xt::xtensor_fixed<float, xt::xshape<3>>{1, 1, 1});
  EXPECT(sess.run(sevens) == xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{7, 7, 7});
  EXPECT(xt::amin(sess.run(uniform))() >= -1.0f && xt::amax(sess.run(uniform))() < 1.0f);
  EXPECT(xt::amax(xt::abs(sess.run(truncated)))() <= 4.0);      // within 2 stddev of the mean
  EXPECT(xt::amax(xt::abs(sess.run(glorot)))() <= std::sqrt(6.0f / (3 + 2)));  // fan_in 3, fan_out 2
  // random_normal draws floating values only (TensorFlow: ValueError); the check, as a constant:
  static_assert(!tf::init::valid_for<std::int32_t>(tf::init::random_normal()) &&
                tf::init::valid_for<std::int32_t>(tf::init::random_uniform(0, 10)));
  // [/snippet initializers]
  EXPECT(xt::amax(xt::abs(sess.run(normal)))() > 4.0);  // not truncated: some beyond 2 stddev

  {
    // [snippet seeds]
    auto a = tf::variable<"seeded_a", float, tf::shape<4>>(tf::init::random_uniform(0, 1, 42));
    auto b = tf::variable<"seeded_b", float, tf::shape<4>>(tf::init::random_uniform(0, 1, 42));
    auto c = tf::variable<"unseeded_c", float, tf::shape<4>>(tf::init::random_uniform(0, 1));
    tf::session sess(a, b, c);
    sess.initialize_all();
    auto a0 = sess.run(a);
    auto c0 = sess.run(c);
    EXPECT(sess.run(b) == a0);  // the same seed: the same values

    tf::session again(a, c);  // another session, or another run of the program
    again.initialize_all();
    EXPECT(again.run(a) == a0 && again.run(c) == c0);  // reproducible

    again.set_random_seed(2024);  // this session's graph seed: unseeded draws change
    again.initialize_all();
    EXPECT(again.run(a) == a0 && again.run(c) != c0);
    sess.initialize_all();        // the first session keeps its own seed
    EXPECT(sess.run(c) == c0);
    // [/snippet seeds]
  }

  // [snippet identity]
  auto w_again = tf::variable<"w", float, tf::shape<784, 128>>(tf::init::glorot_uniform());
  static_assert(std::is_same_v<decltype(w_again), decltype(w)>);  // the same variable

  auto w_double = tf::variable<"w", double, tf::shape<784, 128>>();  // another dtype:
  static_assert(!std::is_same_v<decltype(w_double), decltype(w)>);   // another variable

  auto w_zeros = tf::variable<"w", float, tf::shape<784, 128>>(tf::init::zeros());
  static_assert(std::is_same_v<decltype(w_zeros), decltype(w)>);  // a second definition...
  try {
    auto both = w + w_zeros;  // ...meets the first in one graph
    EXPECT(!"building the node throws");
    (void)both;
  } catch (const tf::already_exists_error& e) {
    EXPECT(e.message() ==
           "Variable w is defined twice in one graph, with different initializers; a node's name "
           "identifies it: build it once and use that node");
  }
  // [/snippet identity]

  // [snippet handle]
  // An initializer in the type makes the type itself a handle to the variable.
  using weights = decltype(tf::variable<"w2", float, tf::shape<784, 128>, tf::init::zeros()>());
  tf::session model(tf::matmul(tf::placeholder<"x", float, tf::shape<1, 784>>(), weights{}) + b);
  // [/snippet handle]

  // [snippet state]
  EXPECT(!model.is_initialized(weights{}));
  EXPECT((model.uninitialized_names() == std::vector<std::string>{"w2", "b"}));
  model.initialize<decltype(b)>();  // one variable, as variables_initializer(b) does
  EXPECT((model.uninitialized_names() == std::vector<std::string>{"w2"}));
  model.initialize_all();           // as running global_variables_initializer()
  EXPECT(model.is_initialized(weights{}) && model.is_initialized(b));
  // [/snippet state]

  // [snippet per_session]
  auto counter = tf::variable<"counter", std::int32_t>();
  auto increment = tf::assign_add(counter, tf::constant<1>());
  tf::session first(increment), second(increment);
  first.initialize_all();
  second.initialize_all();
  first.run(increment);
  first.run(increment);
  second.run(increment);
  EXPECT(first.run(counter) == 2 && second.run(counter) == 1);
  // [/snippet per_session]

  {
    // [snippet trainable]
    using vec2 = xt::xtensor_fixed<double, xt::xshape<2>>;
    auto kernel = tf::variable<"dense/kernel", double, tf::shape<2>, tf::init::ones()>();
    auto offset = tf::variable<"dense/offset", double, tf::shape<2>, tf::init::ones()>(tf::not_trainable);
    auto factor = tf::variable<"dense/factor", double>(tf::init::constant(2), tf::not_trainable);
    static_assert(tf::is_trainable_v<decltype(kernel)> && !tf::is_trainable_v<decltype(offset)>);

    auto loss = tf::reduce_sum(kernel * factor + offset);  // gradients: 2 for kernel, 1 for offset
    auto train_op = tf::train::gradient_descent(0.5).minimize(loss);  // the trainable variables
    auto named = tf::train::gradient_descent(0.5).minimize(loss, tf::train::var_list(offset));
    tf::session sess(train_op, named);
    sess.initialize_all();
    sess.run(train_op);
    EXPECT(sess.run(kernel) == vec2{0, 0});  // 1 - 0.5 * 2
    EXPECT(sess.run(offset) == vec2{1, 1} && sess.run(factor) == 2.0);  // left out
    sess.run(named);  // a var_list trains the variables it names, trainable or not
    EXPECT(sess.run(offset) == vec2{0.5, 0.5});
    EXPECT(sess.run(tf::gradient(loss, offset)) == vec2{1, 1});  // gradients do not ask
    // [/snippet trainable]
  }

  (void)step;
  (void)scale;
  (void)w_double;
  return 0;
}
