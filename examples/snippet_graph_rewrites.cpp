// docs/reference/graph-rewrites.md: the graph a run evaluates, before and after rewriting.
#include <iostream>
#include <string>
#include <tuple>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet before_after]
  auto m = tf::variable<"m", double>(tf::init::constant(0.));
  auto b = tf::variable<"b", double>(tf::init::constant(0.));
  auto x = tf::placeholder<"x", double>();
  auto y = tf::placeholder<"y", double>();
  auto loss = tf::square(m * x + b - y);
  auto dm = std::get<0>(tf::gradients(loss, m));

  std::cout << tf::describe_graph(dm).to_text();               // the user's graph
  std::cout << tf::describe_graph(tf::rewritten(dm)).to_text();  // what a run evaluates
  // [/snippet before_after]
  const std::string before = tf::describe_graph(dm).to_text();
  const std::string after = tf::describe_graph(tf::rewritten(dm)).to_text();
  // [snippet before_after_text]
  EXPECT(before ==
         "Const = Const() : float64 []\n"
         "m = VariableV2() : float64 []\n"
         "x = Placeholder() : float64 []\n"
         "mul = mul(m, x) : float64 []\n"
         "b = VariableV2() : float64 []\n"
         "add = add(mul, b) : float64 []\n"
         "y = Placeholder() : float64 []\n"
         "sub = sub(add, y) : float64 []\n"
         "Const_1 = Const() : float64 []\n"
         "mul_1 = mul(sub, Const_1) : float64 []\n"
         "mul_2 = mul(Const, mul_1) : float64 []\n"
         "mul_3 = mul(mul_2, x) : float64 []\n");
  EXPECT(after ==
         "m = VariableV2() : float64 []\n"
         "x = Placeholder() : float64 []\n"
         "mul = mul(m, x) : float64 []\n"
         "b = VariableV2() : float64 []\n"
         "add = add(mul, b) : float64 []\n"
         "y = Placeholder() : float64 []\n"
         "sub = sub(add, y) : float64 []\n"
         "mul_1 = mul(sub, x) : float64 []\n"
         "Const = Const() : float64 []\n"
         "mul_2 = mul(mul_1, Const) : float64 []\n");
  // [/snippet before_after_text]

  // [snippet same_values]
  auto train_op = tf::train::gradient_descent(1e-3).minimize(loss);
  tf::session sess(train_op);
  sess.run(tf::global_variables_initializer());
  double hm = 0, hb = 0;  // the user's graph's arithmetic, by hand
  for (int i = 0; i < 100; ++i) {
    const double xv = 0.01 * i, yv = 2.5 * xv - 1.25;
    sess.run(train_op, tf::feed(x, xv), tf::feed(y, yv));
    const double e = hm * xv + hb - yv;
    hm -= 1e-3 * ((1.0 * (e * 2)) * xv);
    hb -= 1e-3 * (1.0 * (e * 2));
  }
  EXPECT(sess.run(m) == hm && sess.run(b) == hb);  // to the last bit
  // [/snippet same_values]
  return 0;
}
