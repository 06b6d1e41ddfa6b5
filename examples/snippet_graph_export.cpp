// docs/reference/graph-export.md: the graph as data, as text and as Graphviz DOT.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet describe]
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"w", float, tf::shape<3, 2>>(tf::init::ones());
  auto b = tf::variable<"b", float, tf::shape<2>>(tf::init::zeros());
  auto y = tf::relu(tf::matmul(x, w) + b);
  auto train = tf::assign_sub(b, tf::reduce_mean<0>(y));

  tf::graph_description graph = tf::describe_graph(y, train);
  std::cout << graph.to_text();
  // [/snippet describe]
  // [snippet describe_text]
  EXPECT(graph.to_text() ==
         "x = Placeholder() : float32 [?, 3]\n"
         "w = VariableV2() : float32 [3, 2]\n"
         "MatMul = MatMul(x, w) : float32 [?, 2]\n"
         "b = VariableV2() : float32 [2]\n"
         "add = add(MatMul, b) : float32 [?, 2]\n"
         "Relu = Relu(add) : float32 [?, 2]\n"
         "Mean = Mean(Relu) : float32 [2]\n"
         "AssignSub = AssignSub(Mean) : float32 [2] writes b\n");
  // [/snippet describe_text]

  // [snippet fields]
  const tf::node_description* matmul = graph.find("MatMul");
  EXPECT(matmul != nullptr);
  EXPECT(matmul->op == "MatMul" && matmul->dtype == "float32" && matmul->shape == "[?, 2]");
  EXPECT((matmul->inputs == std::vector<std::string>{"x", "w"}));
  EXPECT((graph.find("AssignSub")->writes == std::vector<std::string>{"b"}));
  EXPECT(graph.nodes.front().name == "x");  // inputs before the nodes that use them
  // [/snippet fields]

  const auto grouped = tf::describe_graph(tf::group(w, b));
  EXPECT(grouped.find("group_deps") != nullptr && grouped.find("group_deps")->dtype.empty());

  // [snippet names]
  auto two = tf::constant<2.0f>();
  auto z = (x + two) * (x + two) + tf::constant<1.0f>();  // (x + 2) is one node
  EXPECT(tf::describe_graph(z).to_text() ==
         "x = Placeholder() : float32 [?, 3]\n"
         "Const = Const() : float32 []\n"
         "add = add(x, Const) : float32 [?, 3]\n"
         "mul = mul(add, add) : float32 [?, 3]\n"
         "Const_1 = Const() : float32 []\n"
         "add_1 = add(mul, Const_1) : float32 [?, 3]\n");

  auto add = tf::placeholder<"add", float>();  // a named node called "add"
  auto sum = add + add;
  EXPECT(tf::describe_graph(sum).to_text() ==
         "add = Placeholder() : float32 []\n"
         "add_1 = add(add, add) : float32 []\n");  // automatic names skip "add"
  // [/snippet names]

  // [snippet path]
  tf::graph_description path = tf::describe_path(y, tf::feed(x, xt::xtensor<float, 2>{{1, 2, 3}}));
  EXPECT(path.nodes.size() == 6);  // x, w, MatMul, b, add, Relu: not Mean, not AssignSub
  tf::graph_description cut = tf::describe_path(tf::fetch(tf::reduce_mean<0>(y)), tf::feed(y, xt::xtensor<float, 2>{{1, 2}}));
  EXPECT(cut.to_text() ==
         "Relu = Relu() : float32 [?, 2]\n"   // fed: its inputs are not on the path
         "Mean = Mean(Relu) : float32 [2]\n");
  // [/snippet path]

  // [snippet dot]
  std::string dot = tf::describe_graph(train).to_dot();
  // [/snippet dot]
  EXPECT(dot.rfind("digraph typeflow {\n", 0) == 0);
  EXPECT(dot.find("  \"MatMul\" [label=\"MatMul\\nMatMul\\nfloat32 [?, 2]\"];\n") != std::string::npos);
  EXPECT(dot.find("  \"x\" -> \"MatMul\";\n") != std::string::npos);
  EXPECT(dot.find("  \"AssignSub\" -> \"b\" [style=dashed];\n") != std::string::npos);
  std::cout << dot;
  return 0;
}
