// Graph export: the session's graph or a fetch's path as text and Graphviz DOT.
#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

TEST_CASE("describe_graph lists nodes inputs first with names, ops, dtypes, shapes and writes") {
  auto x = tf::placeholder<"gx", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"gw", float, tf::shape<3, 2>>(tf::init::zeros());
  auto y = tf::relu(tf::matmul(x, w));
  auto update = tf::assign(w, w * tf::constant<2>());
  const auto g = tf::describe_graph(y, update);
  CHECK(g.to_text() ==
        "gx = Placeholder() : float32 [?, 3]\n"
        "gw = VariableV2() : float32 [3, 2]\n"
        "MatMul = MatMul(gx, gw) : float32 [?, 2]\n"
        "Relu = Relu(MatMul) : float32 [?, 2]\n"
        "Const = Const() : float32 []\n"
        "mul = mul(gw, Const) : float32 [3, 2]\n"
        "Assign = Assign(mul) : float32 [3, 2] writes gw\n");
  const std::string dot = g.to_dot();
  CHECK(dot.rfind("digraph typeflow {", 0) == 0);
  CHECK(dot.find("\"gx\" -> \"MatMul\";") != std::string::npos);
  CHECK(dot.find("\"Assign\" -> \"gw\" [style=dashed];") != std::string::npos);
  CHECK(dot.find("[label=\"Relu\\nRelu\\nfloat32 [?, 2]\"]") != std::string::npos);
}

TEST_CASE("automatic names skip the names of named nodes") {
  auto add = tf::placeholder<"add", float>();
  auto sum = add + add;
  const auto g = tf::describe_graph(sum);
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[1].name == "add_1");
}

TEST_CASE("describe_path shows what a run evaluates, stopping at fed nodes") {
  auto x = tf::placeholder<"px", float>();
  auto a = x * x;
  auto b = a + tf::constant<1>();
  auto off = tf::exp(x);
  tf::session sess(b, off);
  const auto full = tf::describe_path(b);
  CHECK(full.nodes.size() == 4);
  CHECK(full.find("Exp") == nullptr);
  const auto cut = tf::describe_path(b, tf::feed(a, 2.0f));
  CHECK(cut.to_text() ==
        "mul = mul() : float32 []\n"
        "Const = Const() : float32 []\n"
        "add = add(mul, Const) : float32 []\n");
  CHECK(tf::describe_path(tf::fetch(b, off)).nodes.size() == 5);
}
