// The tutorial's sections on tf.Print and on naming and scopes.
#include <doctest/doctest.h>

#include <sstream>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("tf.Print: print_sum_node prints [2][3] and gives 5") {
  // print_sum_node = tf.Print(sum_node, [two_node, three_node])
  auto two_node = tf::constant<2>();
  auto three_node = tf::constant<3>();
  auto sum_node = two_node + three_node;
  auto print_sum_node = tf::print<"">(sum_node, two_node, three_node);
  tf::session sess(print_sum_node);
  std::ostringstream out;
  sess.set_print_stream(out);
  CHECK(sess.run(print_sum_node) == 5);
  CHECK(out.str() == "[2][3]\n");
}

TEST_CASE("tf.Print: a print node off the computation path prints nothing") {
  // print_two_node = tf.Print(two_node, [two_node, three_node, sum_node]); sess.run(sum_node)
  auto two_node = tf::constant<2>();
  auto three_node = tf::constant<3>();
  auto sum_node = two_node + three_node;
  auto print_two_node = tf::print<"">(two_node, two_node, three_node, sum_node);
  tf::session sess(sum_node, print_two_node);
  std::ostringstream out;
  sess.set_print_stream(out);
  CHECK(sess.run(sum_node) == 5);
  CHECK(out.str().empty());
  // On the path it prints, its message first.
  CHECK(sess.run(print_two_node) == 2);
  CHECK(out.str() == "[2][3][5]\n");
}

TEST_CASE("tf.Print: a fed print node does not run; a fed input of it does not stop it") {
  auto x = tf::placeholder<"px", float>();
  auto shown = tf::print<"x: ">(x * tf::constant<2>(), x);
  auto y = shown + tf::constant<1>();
  tf::session sess(y);
  std::ostringstream out;
  sess.set_print_stream(out);
  CHECK(sess.run(y, tf::feed(shown, 10.0f)) == 11.0f);
  CHECK(out.str().empty());
  CHECK(sess.run(y, tf::feed(x, 3.0f)) == 7.0f);
  CHECK(out.str() == "x: [3]\n");
}

TEST_CASE("tf.Print: tensors print their first elements, nested per dimension") {
  auto m = tf::constant<"print_matrix">(xt::xtensor_fixed<float, xt::xshape<2, 2>>{{1, 2}, {3, 4}});
  tf::session sess(m);
  std::ostringstream out;
  sess.set_print_stream(out);
  sess.run(tf::print<"m=", 4>(m, m));
  sess.run(tf::print<"m=">(m, m));
  CHECK(out.str() == "m=[[1 2][3 4]]\nm=[[1 2][3...]]\n");
}

TEST_CASE("naming: anonymous ops get TensorFlow's automatic names") {
  // a = tf.constant(0.); b = tf.constant(1.); c = a + b; d = c + b ...
  auto a = tf::constant<0.>();
  auto b = tf::constant<1.>();
  auto c = a + b;
  auto d = c + b;
  const auto g = tf::describe_graph(d);
  REQUIRE(g.nodes.size() == 4);
  CHECK(g.nodes[0].name == "Const");
  CHECK(g.nodes[1].name == "Const_1");
  CHECK(g.nodes[2].name == "add");
  CHECK(g.nodes[3].name == "add_1");
  CHECK(g.nodes[3].inputs == std::vector<std::string>{"add", "Const_1"});
}

TEST_CASE("scopes: names compose as first_scope/second_scope/..., decided at compile time") {
  // with tf.variable_scope("first_scope"):
  //   with tf.variable_scope("second_scope"):
  //     coef = tf.get_variable("coef", []); m = a * coef; m1 = m * b
  constexpr auto first_scope = tf::name_scope<"first_scope">{};
  constexpr auto second_scope = first_scope.scope<"second_scope">();
  auto a = tf::constant<2.>();
  auto b = tf::constant<3.>();
  auto coef = second_scope.variable<"coef", double>(tf::init::constant(5.));
  auto m = second_scope(a * coef);
  auto m1 = second_scope(m * b);
  static_assert(decltype(coef)::name == tf::fixed_string("first_scope/second_scope/coef"));
  static_assert(decltype(second_scope)::full_name<"coef"> == tf::fixed_string("first_scope/second_scope/coef"));
  const auto g = tf::describe_graph(m1);
  CHECK(g.find("first_scope/second_scope/coef") != nullptr);
  CHECK(g.find("first_scope/second_scope/mul") != nullptr);
  REQUIRE(g.find("first_scope/second_scope/mul_1") != nullptr);
  CHECK(g.find("first_scope/second_scope/mul_1")->inputs ==
        std::vector<std::string>{"first_scope/second_scope/mul", "Const_1"});
  // A scoped op evaluates as the op it wraps.
  tf::session sess(m1);
  sess.initialize_all();
  CHECK(sess.run(m1) == 30.0);
}

TEST_CASE("scopes: ops outside the scope keep their names; the same op in two scopes is two nodes") {
  constexpr auto s = tf::name_scope<"layer">{};
  auto x = tf::placeholder<"sx", float>();
  auto outside = x * x;
  auto inside = s(outside + x);
  static_assert(!std::is_same_v<decltype(s(x * x)), decltype(x * x)>);
  const auto g = tf::describe_graph(inside);
  CHECK(g.find("layer/add") != nullptr);
  CHECK(g.find("layer/mul") != nullptr);  // the expression's anonymous ops join the scope
  tf::session sess(inside);
  CHECK(sess.run(inside, tf::feed(x, 3.0f)) == 12.0f);
}
