// docs/reference/scopes.md: name scopes for named nodes and for anonymous ops.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

// [snippet layer]
// A layer written once, instantiated under several scopes: "<scope>/w" and "<scope>/b".
auto linear_layer(auto scope, auto x) {
  auto w = scope.template variable<"w", float, tf::shape<3, 3>>(tf::init::ones());
  auto b = scope.template variable<"b", float, tf::shape<3>>(tf::init::constant(0.5));
  return tf::matmul(x, w) + b;
}
// [/snippet layer]

int main() {
  // [snippet named]
  constexpr auto model = tf::name_scope<"model">{};
  constexpr auto encoder = model.scope<"encoder">();  // "model/encoder"

  auto x = model.placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto w = encoder.variable<"w", float, tf::shape<3, 3>>(tf::init::zeros());
  xt::xtensor<float, 1> offsets = {1, 2, 3};
  auto offset = encoder.constant<"offset">(offsets);

  static_assert(tf::name_of<decltype(x)>() == "model/x");
  static_assert(tf::name_of<decltype(w)>() == "model/encoder/w");
  static_assert(tf::name_of<decltype(offset)>() == "model/encoder/offset");
  static_assert(encoder.full_name<"w"> == tf::fixed_string("model/encoder/w"));
  // [/snippet named]

  // [snippet ops]
  auto a = tf::placeholder<"a", float>();
  auto b = tf::placeholder<"b", float>();
  auto product = encoder(a * b + a * tf::constant<2>());
  EXPECT(tf::describe_graph(product).to_text() ==
         "a = Placeholder() : float32 []\n"
         "b = Placeholder() : float32 []\n"
         "model/encoder/mul = mul(a, b) : float32 []\n"
         "Const = Const() : float32 []\n"
         "model/encoder/mul_1 = mul(a, Const) : float32 []\n"
         "model/encoder/add = add(model/encoder/mul, model/encoder/mul_1) : float32 []\n");
  // [/snippet ops]

  // [snippet identity]
  static_assert(!std::is_same_v<decltype(encoder(a * b)), decltype(a * b)>);  // two nodes
  static_assert(std::is_same_v<decltype(model(encoder(a * b))), decltype(encoder(a * b))>);
  // [/snippet identity]

  // [snippet paths]
  // A name is held as a type, one component a level; N::name is the string.
  static_assert(std::is_same_v<tf::name_path_t<"model/encoder/w">,
                               tf::name_path<tf::name_path<tf::name_path<void, "model">, "encoder">, "w">>);
  static_assert(tf::name_path_t<"model/encoder/w">::value == tf::fixed_string("model/encoder/w"));
  static_assert(std::is_same_v<decltype(x), tf::named_placeholder<tf::name_path_t<"model/x">, float,
                                                                  tf::shape<tf::dyn, 3>>>);
  static_assert(std::is_same_v<decltype(w), tf::variable_node<"model/encoder/w", float, tf::shape<3, 3>,
                                                              tf::init::run_time>>);
  static_assert(std::is_same_v<decltype(offset), tf::named_constant<tf::name_path_t<"model/encoder/offset">,
                                                                     float, tf::shape<tf::dyn>>>);
  static_assert(std::is_same_v<decltype(encoder(a * b)),
                               tf::scoped_op_node<tf::name_path_t<"model/encoder">, decltype(a * b)>>);
  static_assert(decltype(encoder(a * b))::scope == tf::fixed_string("model/encoder"));
  // [/snippet paths]

  // [snippet reuse_layer]
  auto input = tf::placeholder<"input", float, tf::shape<tf::dyn, 3>>();
  auto hidden = linear_layer(tf::name_scope<"layer1">{}, input);
  auto output = linear_layer(tf::name_scope<"layer2">{}, hidden);

  tf::session sess(output);
  EXPECT((sess.uninitialized_names() ==
          std::vector<std::string>{"layer1/w", "layer1/b", "layer2/w", "layer2/b"}));
  sess.initialize_all();
  xt::xtensor<float, 2> input_value = {{1, 2, 3}};
  EXPECT(sess.run(output, tf::feed(input, input_value)) ==
         xt::xtensor<float, 2>{{20, 20, 20}});  // (6 + 0.5) * 3 + 0.5
  // [/snippet reuse_layer]
  // [snippet dense]
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto encoded = tf::layers::dense<2, encoder.full_name<"dense">>(features);
  tf::session dense_session(encoded);
  EXPECT((dense_session.uninitialized_names() ==
          std::vector<std::string>{"model/encoder/dense/kernel", "model/encoder/dense/bias"}));
  // [/snippet dense]
  (void)w;
  return 0;
}
