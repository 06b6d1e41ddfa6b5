// docs/reference/errors.md: the exception classes and the message of each run-time error.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

// The error f throws: its class must be E; returns what().
template <class E, class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (...) {
    return "another exception";
  }
  return "no exception";
}

int main() {
  // [snippet hierarchy]
  static_assert(std::is_base_of_v<std::runtime_error, tf::error>);
  static_assert(std::is_base_of_v<tf::error, tf::invalid_argument_error>);
  static_assert(std::is_base_of_v<tf::error, tf::failed_precondition_error>);

  auto count = tf::variable<"count", float>();
  tf::session sess(count);
  try {
    sess.run(count);
    EXPECT(!"run throws");
  } catch (const tf::error& e) {  // every typeflow error
    EXPECT(e.code() == tf::error_code::failed_precondition);
    EXPECT(tf::error_code_name(e.code()) == "FailedPrecondition");
    EXPECT(e.message() == "Attempting to use uninitialized value count");
    EXPECT(std::string(e.what()) == "FailedPrecondition: Attempting to use uninitialized value count");
  }
  // [/snippet hierarchy]

  // [snippet codes]
  static_assert(int(tf::error_code::invalid_argument) == 3);     // as TensorFlow's
  static_assert(int(tf::error_code::not_found) == 5);            // error codes
  static_assert(int(tf::error_code::already_exists) == 6);
  static_assert(int(tf::error_code::failed_precondition) == 9);
  static_assert(int(tf::error_code::data_loss) == 15);
  // [/snippet codes]

  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  xt::xtensor<float, 2> two_columns = {{1, 2}};
  EXPECT(error_of<tf::invalid_argument_error>([&] { sess.run(x, tf::feed(x, two_columns)); }) ==
         "InvalidArgument: Cannot feed value of shape [1, 2] for placeholder 'x', which has shape [?, 3]");

  EXPECT(error_of<tf::already_exists_error>([] {
           auto count = tf::variable<"count", float>(tf::init::zeros());
           return count + tf::variable<"count", float>(tf::init::ones());
         }) == "AlreadyExists: Variable count is defined twice in one graph, with different initializers; "
               "a node's name identifies it: build it once and use that node");

  xt::xtensor_fixed<float, xt::xshape<2>> values = {1, 2};
  auto table = tf::constant<"table">(values);
  EXPECT(error_of<tf::already_exists_error>([&] {
           return table + tf::constant<"table">(xt::xtensor_fixed<float, xt::xshape<2>>{1, 3});
         }) == "AlreadyExists: Constant table is defined twice in one graph, with different values; a "
               "node's name identifies it: build it once and use that node");
  EXPECT(error_of<tf::invalid_argument_error>([] {
           tf::constant<"square", float, tf::shape<2, 2>>(xt::xtensor<float, 2>{{1, 2}, {3, 4}, {5, 6}});
         }) == "InvalidArgument: Constant square has shape [2, 2] but its values have shape [3, 2]");

  // [snippet undefined_constant]
  auto undefined = tf::named_constant_node<"undefined", float, tf::shape<>>{};  // never defined
  EXPECT(error_of<tf::failed_precondition_error>([&] { sess.run(undefined * undefined); }) ==
         "FailedPrecondition: Constant undefined has no value: define it with "
         "typeflow::constant<\"undefined\">(values)");
  // [/snippet undefined_constant]

  auto s = tf::placeholder<"s", float>();
  EXPECT(error_of<tf::invalid_argument_error>([&] {
           sess.run(tf::check_numerics<"log(s)">(tf::log(s)), tf::feed(s, -1.0f));
         }) == "InvalidArgument: log(s) : Tensor had NaN values");
  EXPECT(error_of<tf::invalid_argument_error>([&] {
           sess.run(tf::check_numerics<"log(s)">(tf::log(s)), tf::feed(s, 0.0f));
         }) == "InvalidArgument: log(s) : Tensor had Inf values");
  auto v = tf::placeholder<"v", float, tf::shape<2>>();
  xt::xtensor_fixed<float, xt::xshape<2>> nan_and_inf = {NAN, INFINITY};
  EXPECT(error_of<tf::invalid_argument_error>([&] {
           sess.run(tf::check_numerics<"input">(v), tf::feed(v, nan_and_inf));
         }) == "InvalidArgument: input : Tensor had NaN and Inf values (node 'v')");

  auto p = tf::placeholder<"p", float, tf::shape<tf::dyn, tf::dyn>>();
  auto q = tf::placeholder<"q", float, tf::shape<tf::dyn, tf::dyn>>();
  xt::xtensor<float, 2> p_value = {{1, 2}};
  xt::xtensor<float, 2> q_value = {{1, 2}, {3, 4}, {5, 6}};
  EXPECT(error_of<tf::invalid_argument_error>([&] {
           sess.run(tf::matmul(p, q), tf::feed(p, p_value), tf::feed(q, q_value));
         }) == "InvalidArgument: Matrix size-incompatible in MatMul: In[0]: [1, 2], In[1]: [3, 2]");

  xt::xtensor<float, 2> three = {{1, 2, 3}};
  EXPECT(error_of<tf::invalid_argument_error>([&] {
           sess.run(tf::reshape<tf::shape<tf::dyn, 2>>(x), tf::feed(x, three));
         }) == "InvalidArgument: Input to reshape is a tensor with 3 values, but the requested shape "
               "[?, 2] does not fit it");

  auto w = tf::variable<"w", float, tf::shape<3>>(tf::init::zeros());
  auto value = tf::placeholder<"value", float, tf::shape<tf::dyn>>();
  tf::session assigner(tf::assign(w, value));
  xt::xtensor<float, 1> two_values = {1, 2};
  EXPECT(error_of<tf::invalid_argument_error>([&] {
           assigner.run(tf::assign(w, value), tf::feed(value, two_values));
         }) == "InvalidArgument: Assign requires shapes of both tensors to match. lhs shape= [3] rhs "
               "shape= [2] (variable w)");

  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<2>>();
  auto logits = tf::placeholder<"logits", float, tf::shape<2, 3>>();
  auto loss = tf::sparse_softmax_cross_entropy_with_logits(labels, logits);
  xt::xtensor_fixed<std::int32_t, xt::xshape<2>> bad_labels = {0, 5};
  xt::xtensor_fixed<float, xt::xshape<2, 3>> logits_value = {{1, 2, 3}, {1, 2, 3}};
  EXPECT(error_of<tf::invalid_argument_error>([&] {
           sess.run(loss, tf::feed(labels, bad_labels), tf::feed(logits, logits_value));
         }) == "InvalidArgument: Received a label value of 5 which is outside the valid range of [0, 3)");

  // [snippet broadcast_error]
  auto a = tf::placeholder<"a", float, tf::shape<tf::dyn>>();
  auto b = tf::placeholder<"b", float, tf::shape<tf::dyn>>();
  xt::xtensor<float, 1> two = {1, 2};
  xt::xtensor<float, 1> three_values = {1, 2, 3};
  try {
    sess.run(a + b, tf::feed(a, two), tf::feed(b, three_values));  // dyn dims 2 and 3
    EXPECT(!"run throws");
  } catch (const tf::invalid_argument_error& e) {
    // The message goes on with xtensor's description of the two shapes.
    EXPECT(e.message().rfind("Incompatible shapes in an elementwise op: ", 0) == 0);
  }
  // [/snippet broadcast_error]
  return 0;
}
