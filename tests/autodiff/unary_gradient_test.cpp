// Gradient rules of the unary elementwise ops (ops/arithmetic.hpp, math.hpp,
// activation.hpp, state.hpp's identity, debug's print and check_numerics), against
// central differences, for shapes [], [3], [2, 3] and [2, 3, 4]. The loss is
// reduce_sum(op(x) * w) with random weights w, so every output element's gradient counts.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using fd_check::value_t;
using op_testing::check_unary;

namespace {

// The op on each shape: x0 from `values`, which returns a value for a shape.
template <class Op, class Values>
void check_unary_all_shapes(Op op, Values values) {
  {
    INFO("shape []");
    check_unary<tf::shape<>>(op, values(tf::shape<>{}));
  }
  {
    INFO("shape [3]");
    check_unary<tf::shape<3>>(op, values(tf::shape<3>{}));
  }
  {
    INFO("shape [2, 3]");
    check_unary<tf::shape<2, 3>>(op, values(tf::shape<2, 3>{}));
  }
  {
    INFO("shape [2, 3, 4]");
    check_unary<tf::shape<2, 3, 4>>(op, values(tf::shape<2, 3, 4>{}));
  }
}

constexpr auto any_values = []<class S>(S) { return fd_check::uniform<S>(-1.5, 1.5); };
constexpr auto nonzero_values = []<class S>(S) { return fd_check::away_from_zero<S>(); };
constexpr auto positive_values = []<class S>(S) { return fd_check::positive<S>(0.3, 3.0); };

}  // namespace

TEST_CASE("gradient of unary minus") {
  check_unary_all_shapes([](auto a) { return -a; }, any_values);
}

TEST_CASE("gradient of square") {
  check_unary_all_shapes([](auto a) { return tf::square(a); }, any_values);
}

TEST_CASE("gradient of sqrt, on positive inputs") {
  check_unary_all_shapes([](auto a) { return tf::sqrt(a); }, positive_values);
}

TEST_CASE("gradient of exp") {
  check_unary_all_shapes([](auto a) { return tf::exp(a); }, any_values);
}

TEST_CASE("gradient of log, on positive inputs") {
  check_unary_all_shapes([](auto a) { return tf::log(a); }, positive_values);
}

TEST_CASE("gradient of abs, away from 0") {
  check_unary_all_shapes([](auto a) { return tf::abs(a); }, nonzero_values);
}

TEST_CASE("gradient of tanh") {
  check_unary_all_shapes([](auto a) { return tf::tanh(a); }, any_values);
}

TEST_CASE("gradient of sigmoid, including large |x| where the stable branch matters") {
  check_unary_all_shapes([](auto a) { return tf::sigmoid(a); }, any_values);
  INFO("x in [-8, 8]");
  check_unary<tf::shape<2, 3>>([](auto a) { return tf::sigmoid(a); }, fd_check::uniform<tf::shape<2, 3>>(-8, 8));
}

TEST_CASE("gradient of relu, away from 0") {
  check_unary_all_shapes([](auto a) { return tf::relu(a); }, nonzero_values);
}

TEST_CASE("gradient of sign is zero (away from 0)") {
  check_unary_all_shapes([](auto a) { return tf::sign(a); }, nonzero_values);
  auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
  tf::session sess(tf::sign(x));
  const auto g = sess.run(tf::gradient(tf::reduce_sum(tf::sign(x)), x),
                          tf::feed(x, fd_check::away_from_zero<tf::shape<2, 3>>()));
  for (double v : g) CHECK(v == 0.0);
}

TEST_CASE("gradients of identity, cast<double>, print, check_numerics and control_dependencies "
          "pass the gradient through") {
  check_unary_all_shapes([](auto a) { return tf::identity(a); }, any_values);
  check_unary_all_shapes([](auto a) { return tf::cast<double>(a); }, any_values);
  check_unary_all_shapes([](auto a) { return tf::square(tf::check_numerics<"checked">(a)); }, any_values);
  check_unary_all_shapes([](auto a) { return tf::tanh(tf::control_dependencies(tf::exp(a))(a)); }, any_values);
}

TEST_CASE("gradient of print passes to its first input only, not to the printed tensors") {
  std::ostringstream out;
  auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
  auto y = tf::placeholder<"y", double, tf::shape<3>>();
  auto w = tf::placeholder<"w", double, tf::shape<2, 3>>();
  auto loss = tf::reduce_sum(tf::exp(tf::print<"x, y: ">(x, y)) * w) + tf::reduce_sum(tf::square(y));
  tf::session sess(loss);
  sess.set_print_stream(out);
  const auto w0 = fd_check::uniform<tf::shape<2, 3>>();
  const auto x0 = fd_check::uniform<tf::shape<2, 3>>();
  const auto y0 = fd_check::uniform<tf::shape<3>>();
  fd_check::check_gradient(sess, loss, x, x0, tf::feed(w, w0), tf::feed(y, y0));
  fd_check::check_gradient(sess, loss, y, y0, tf::feed(w, w0), tf::feed(x, x0));
  CHECK(out.str().find("x, y: ") != std::string::npos);
}

TEST_CASE("gradient through cast to float and back flows, with float precision") {
  auto x = tf::placeholder<"x", double, tf::shape<2, 3>>();
  auto w = tf::placeholder<"w", double, tf::shape<2, 3>>();
  auto loss = tf::reduce_sum(tf::cast<double>(tf::cast<float>(x)) * w);
  tf::session sess(loss);
  const auto w0 = fd_check::uniform<tf::shape<2, 3>>();
  const auto g = sess.run(tf::gradient(loss, x), tf::feed(x, fd_check::uniform<tf::shape<2, 3>>()), tf::feed(w, w0));
  for (std::size_t i = 0; i < g.size(); ++i) CHECK(g.flat(i) == doctest::Approx(w0.flat(i)).epsilon(1e-6));
}
