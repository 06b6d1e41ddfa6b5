// The exception hierarchy mirrors TensorFlow's status codes.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("each error class carries its code and prefixes what() with the code's name") {
  auto check = [](const tf::error& e, tf::error_code code, std::string_view prefix) {
    CHECK(e.code() == code);
    CHECK(std::string_view(e.what()).substr(0, prefix.size()) == prefix);
    CHECK(e.message() == "m");
  };
  check(tf::invalid_argument_error("m"), tf::error_code::invalid_argument, "InvalidArgument: m");
  check(tf::failed_precondition_error("m"), tf::error_code::failed_precondition, "FailedPrecondition: m");
  check(tf::not_found_error("m"), tf::error_code::not_found, "NotFound: m");
  check(tf::data_loss_error("m"), tf::error_code::data_loss, "DataLoss: m");
  check(tf::already_exists_error("m"), tf::error_code::already_exists, "AlreadyExists: m");
  check(tf::out_of_range_error("m"), tf::error_code::out_of_range, "OutOfRange: m");
  check(tf::unimplemented_error("m"), tf::error_code::unimplemented, "Unimplemented: m");
  check(tf::internal_error("m"), tf::error_code::internal, "Internal: m");
  check(tf::cancelled_error("m"), tf::error_code::cancelled, "Cancelled: m");
  check(tf::unknown_error("m"), tf::error_code::unknown, "Unknown: m");
  check(tf::deadline_exceeded_error("m"), tf::error_code::deadline_exceeded, "DeadlineExceeded: m");
  check(tf::aborted_error("m"), tf::error_code::aborted, "Aborted: m");
  static_assert(std::is_base_of_v<std::runtime_error, tf::error>);
  static_assert(std::is_base_of_v<tf::error, tf::data_loss_error>);
}

TEST_CASE("throw_error raises the class of a code, with the message") {
  for (const auto code : {tf::error_code::cancelled, tf::error_code::unknown, tf::error_code::invalid_argument,
                          tf::error_code::deadline_exceeded, tf::error_code::not_found, tf::error_code::already_exists,
                          tf::error_code::failed_precondition, tf::error_code::aborted, tf::error_code::out_of_range,
                          tf::error_code::unimplemented, tf::error_code::internal, tf::error_code::data_loss}) {
    try {
      tf::throw_error(code, "m");
    } catch (const tf::error& e) {
      CHECK(e.code() == code);
      CHECK(e.message() == "m");
    }
  }
  CHECK_THROWS_AS(tf::throw_error(tf::error_code::deadline_exceeded, "m"), tf::deadline_exceeded_error);
  CHECK_THROWS_AS(tf::throw_error(tf::error_code::aborted, "m"), tf::aborted_error);
  CHECK_THROWS_AS(tf::throw_error(tf::error_code::data_loss, "m"), tf::data_loss_error);
  CHECK_THROWS_WITH_AS(tf::throw_error(static_cast<tf::error_code>(99), "m"), "Unknown: m", tf::unknown_error);
}

TEST_CASE("a named constant defined twice with other values in one graph is refused, naming it") {
  using values = xt::xtensor_fixed<float, xt::xshape<2>>;
  auto c = tf::constant<"errors_table">(values{1, 2});
  auto same = tf::constant<"errors_table">(values{1, 2});
  auto other = tf::constant<"errors_table">(values{1, 3});  // alone, another graph's definition
  CHECK_NOTHROW(c + same);
  CHECK_THROWS_WITH_AS(c + other,
                       "AlreadyExists: Constant errors_table is defined twice in one graph, with different "
                       "values; a node's name identifies it: build it once and use that node",
                       tf::already_exists_error);
  CHECK_THROWS_AS(tf::session(c, other), tf::already_exists_error);
  tf::session sess(c), sess_other(other);
  CHECK(sess.run(c) == values{1, 2});
  CHECK(sess_other.run(other) == values{1, 3});
}

TEST_CASE("a session whose roots were built from a node's type, not its factory, says so") {
  using table = tf::named_constant_node<"errors_typed", float, tf::shape<2>>;
  CHECK_THROWS_WITH_AS(tf::session(table{} * tf::constant<2.0f>()),
                       "FailedPrecondition: The session's roots carry no value for errors_typed: build it "
                       "with its factory (typeflow::constant, typeflow::variable) and build the roots from "
                       "that node, not from its type",
                       tf::failed_precondition_error);
}

TEST_CASE("check_numerics names its message, and what it found") {
  auto x = tf::placeholder<"checked", double, tf::shape<2>>();
  auto y = tf::check_numerics<"after log">(tf::log(x));
  auto z = tf::check_numerics<"input">(x);
  tf::session sess(y, z);
  const xt::xtensor_fixed<double, xt::xshape<2>> ok = {1, 2}, negative = {1, -1}, zero = {0, 1};
  CHECK_NOTHROW(sess.run(y, tf::feed(x, ok)));
  CHECK_THROWS_WITH_AS(sess.run(y, tf::feed(x, negative)), "InvalidArgument: after log : Tensor had NaN values",
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(sess.run(y, tf::feed(x, zero)), "InvalidArgument: after log : Tensor had Inf values",
                       tf::invalid_argument_error);
  const xt::xtensor_fixed<double, xt::xshape<2>> bad = {std::nan(""), 1.0 / 0.0};
  CHECK_THROWS_WITH_AS(sess.run(z, tf::feed(x, bad)),
                       "InvalidArgument: input : Tensor had NaN and Inf values (node 'checked')", tf::invalid_argument_error);
}
