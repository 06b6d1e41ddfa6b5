// The tutorial "TensorFlow: The Confusing Parts (1)", sections on the computation graph,
// the session, placeholders and feed_dict, and computation paths, ported cell by cell.
#include <doctest/doctest.h>

#include <type_traits>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("computation graph: two_node + three_node is a node of the graph") {
  // two_node = tf.constant(2); three_node = tf.constant(3); sum_node = two_node + three_node
  auto two_node = tf::constant<2>();
  auto three_node = tf::constant<3>();
  auto sum_node = two_node + three_node;
  static_assert(std::is_same_v<tf::value_type_of<decltype(sum_node)>, std::int32_t>);
  static_assert(tf::shape_of<decltype(sum_node)>::rank == 0);
  // print(two_node) shows Tensor("Const:0", shape=(), dtype=int32)
  const auto g = tf::describe_graph(sum_node);
  REQUIRE(g.nodes.size() == 3);
  CHECK(g.nodes[0].name == "Const");
  CHECK(g.nodes[0].dtype == "int32");
  CHECK(g.nodes[0].shape == "[]");
  CHECK(g.nodes[2].name == "add");
  CHECK(g.nodes[2].inputs == std::vector<std::string>{"Const", "Const_1"});
}

TEST_CASE("computation graph: identical constants are one node (a node's type is its identity)") {
  // TensorFlow makes two nodes of tf.constant(2) twice; in typeflow both are the same type.
  auto two_node = tf::constant<2>();
  auto another_two_node = tf::constant<2>();
  static_assert(std::is_same_v<decltype(two_node), decltype(another_two_node)>);
  CHECK(tf::describe_graph(two_node + another_two_node).nodes.size() == 2);
}

TEST_CASE("session: sess.run(sum_node) gives 5, sess.run([two_node, sum_node]) gives 2, 5") {
  auto two_node = tf::constant<2>();
  auto three_node = tf::constant<3>();
  auto sum_node = two_node + three_node;
  tf::session sess(sum_node);
  CHECK(sess.run(sum_node) == 5);
  auto [two, sum] = sess.run(tf::fetch(two_node, sum_node));
  CHECK(two == 2);
  CHECK(sum == 5);
}

TEST_CASE("placeholders: sess.run(input_placeholder, feed_dict={input_placeholder: 2}) gives 2") {
  auto input_placeholder = tf::placeholder<"input", std::int32_t>();
  tf::session sess(input_placeholder);
  CHECK(sess.run(input_placeholder, tf::feed(input_placeholder, 2)) == 2);
}

TEST_CASE("computation paths: fetching three_node needs no feed, fetching sum_node does") {
  auto input_placeholder = tf::placeholder<"input", std::int32_t>();
  auto three_node = tf::constant<3>();
  auto sum_node = input_placeholder + three_node;
  tf::session sess(sum_node);
  // print(sess.run(three_node)) gives 3: the placeholder is not on three_node's path.
  CHECK(sess.run(three_node) == 3);
  // print(sess.run(sum_node)) fails in TensorFlow at run time; here it does not compile
  // (tests/compile_fail/unfed_placeholder.cpp). Whether a run compiles is a type property:
  CHECK(sess.run(sum_node, tf::feed(input_placeholder, 2)) == 5);
  using path = tf::graph::path_order<boost::mp11::mp_list<decltype(three_node)>, boost::mp11::mp_list<>>;
  static_assert(!tf::contains_v<path, decltype(input_placeholder)>);
  using sum_path = tf::graph::path_order<boost::mp11::mp_list<decltype(sum_node)>, boost::mp11::mp_list<>>;
  static_assert(tf::contains_v<sum_path, decltype(input_placeholder)>);
}

TEST_CASE("feeding tensors: a [None, 3] placeholder takes any number of rows") {
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto y = x * tf::constant<2>();
  tf::session sess(y);
  const xt::xtensor<float, 2> one_row = {{1, 2, 3}};
  const xt::xtensor<float, 2> two_rows = {{1, 2, 3}, {4, 5, 6}};
  CHECK(sess.run(y, tf::feed(x, one_row)) == xt::xtensor<float, 2>{{2, 4, 6}});
  CHECK(sess.run(y, tf::feed(x, two_rows)) == xt::xtensor<float, 2>{{2, 4, 6}, {8, 10, 12}});
}
