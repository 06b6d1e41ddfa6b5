// Names are types, one component a level (name_path, core/fixed_string.hpp): the named
// nodes and the scoped ops of one scope, and of the scopes nested in it, share its path in
// the mangled names of the functions named by them, instead of spelling its string again at
// each node (docs/ARCHITECTURE.md, "Compile time in large graphs").
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace od = typeflow::ops::detail;

namespace {
template <class N>
constexpr std::string_view scope_of() {
  return N::scope.view();
}

// How many times the characters of s appear, one after another, in a mangled name (the
// Itanium ABI's spelling of a string template argument: "Lc97E" for 'a').
std::size_t spelled(const std::string& mangled, std::string_view s) {
  std::string chars;
  for (char c : s) chars += "Lc" + std::to_string(int(c)) + "E";
  std::size_t n = 0;
  for (auto at = mangled.find(chars); at != std::string::npos; at = mangled.find(chars, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("a name is a type, one component a level, and spells its string again") {
  using abc = tf::name_path_t<"a/bb/ccc">;
  static_assert(std::is_same_v<abc, tf::name_path<tf::name_path<tf::name_path<void, "a">, "bb">, "ccc">>);
  static_assert(std::string_view(abc::value) == "a/bb/ccc");
  static_assert(std::is_same_v<tf::name_path_t<"layer1">, tf::name_path<void, "layer1">>);
  // Names a split would not give back stay whole: a leading slash; empty components do
  // come back.
  static_assert(std::is_same_v<tf::name_path_t<"/a">, tf::name_path<void, "/a">>);
  static_assert(std::string_view(tf::name_path_t<"a//b">::value) == "a//b");
  static_assert(std::string_view(tf::name_path_t<"a/">::value) == "a/");
  CHECK(std::string_view(abc::value) == "a/bb/ccc");
}

// The aliases name the types; a function deduces a name from the class, not the alias
// (docs/reference/scopes.md, "Names as types").
template <tf::fixed_string N, class T, class S>
constexpr bool through_alias(tf::placeholder_node<N, T, S>) { return true; }
template <class Name, class T, class S>
constexpr bool through_class(tf::named_placeholder<Name, T, S>) { return true; }
template <class P>
concept deduced_through_alias = requires(P p) { through_alias(p); };
template <class P>
concept deduced_through_class = requires(P p) { through_class(p); };
static_assert(!deduced_through_alias<tf::placeholder_node<"enc/x", float, tf::shape<2>>>);
static_assert(deduced_through_class<tf::placeholder_node<"enc/x", float, tf::shape<2>>>);

TEST_CASE("named nodes hold their names as paths, and say them as strings") {
  auto w = tf::variable<"enc/cell/kernel", float, tf::shape<2>>();
  auto x = tf::placeholder<"enc/x", float, tf::shape<2>>();
  auto c = tf::constant<"enc/table">(xt::xtensor_fixed<float, xt::xshape<2>>{1.0f, 2.0f});
  static_assert(std::is_same_v<decltype(w), tf::named_variable<tf::name_path_t<"enc/cell/kernel">, float, tf::shape<2>, tf::init::fixed<tf::init::default_for<float>::value>>>);
  static_assert(std::is_same_v<decltype(x), tf::placeholder_node<"enc/x", float, tf::shape<2>>>);
  static_assert(decltype(w)::name == tf::fixed_string("enc/cell/kernel"));
  static_assert(decltype(x)::name == tf::fixed_string("enc/x"));
  static_assert(decltype(c)::name == tf::fixed_string("enc/table"));
  static_assert(tf::is_trainable_v<decltype(w)> &&
                !tf::is_trainable_v<tf::variable_node<"enc/step", std::int64_t, tf::scalar, tf::init::not_trainable<tf::init::fixed<tf::init::zeros()>>>>);
  tf::session sess(w * x + c);
  sess.initialize_all();
  auto y = sess.run(w * x + c, tf::feed(x, xt::xtensor_fixed<float, xt::xshape<2>>{3.0f, 4.0f}));
  const auto wv = sess.run(w);
  CHECK(y(0) == doctest::Approx(wv(0) * 3.0f + 1.0f));
  CHECK(y(1) == doctest::Approx(wv(1) * 4.0f + 2.0f));
}

TEST_CASE("scoped ops keep their scope's name, their value and their gradient") {
  auto x = tf::placeholder<"x", float, tf::shape<2>>();
  constexpr auto s = tf::name_scope<"encoder/rnn">{}.scope<"cell_0">();
  auto y = s(tf::exp(x) * x + x);
  using Y = decltype(y);
  static_assert(scope_of<Y>() == "encoder/rnn/cell_0");
  // The op and its anonymous inputs are placed in the scope: the same path type.
  using path = tf::name_path_t<"encoder/rnn/cell_0">;
  using mul = typeflow::mp::mp_front<typeflow::inputs_of<Y>>;
  static_assert(std::is_base_of_v<od::scope_info<path>, Y> && std::is_base_of_v<od::scope_info<path>, mul>);
  static_assert(std::is_same_v<typeflow::mp::mp_back<typeflow::inputs_of<Y>>, decltype(x)>);
  auto g = tf::gradients(tf::reduce_sum(y), x);
  tf::session sess(y, std::get<0>(g));
  xt::xtensor_fixed<float, xt::xshape<2>> v{0.5f, -1.0f};
  auto [yv, gv] = sess.run(tf::fetch(y, std::get<0>(g)), tf::feed(x, v));
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(yv(i) == doctest::Approx(std::exp(v(i)) * v(i) + v(i)));
    CHECK(gv(i) == doctest::Approx(std::exp(v(i)) * v(i) + std::exp(v(i)) + 1.0f));  // d/dx (e^x x + x)
  }
  // The graph's description names the ops in their scope, as TensorFlow does.
  const auto graph = tf::describe_graph(y);
  bool scoped_mul = false;
  for (const auto& n : graph.nodes) scoped_mul = scoped_mul || n.name.rfind("encoder/rnn/cell_0/mul", 0) == 0;
  CHECK(scoped_mul);
}

#if defined(__GXX_ABI_VERSION)
TEST_CASE("a type with several ops and variables of one scope spells the scope once") {
  auto x = tf::placeholder<"x", float, tf::shape<2>>();
  constexpr auto outer = tf::name_scope<"embedding_attention_seq2seq">{};
  constexpr auto gates = outer.scope<"gates">();
  constexpr auto candidate = outer.scope<"candidate">();
  auto kernel = gates.variable<"kernel", float, tf::shape<2>>();
  auto bias = gates.variable<"bias", float, tf::shape<2>>();
  auto y = candidate(tf::tanh(gates(tf::sigmoid(tf::exp(x) * kernel + bias)) * x) + x);
  const std::string mangled = typeid(decltype(y)).name();
  CHECK(spelled(mangled, "gates") == 1);
  CHECK(spelled(mangled, "candidate") == 1);
  CHECK(spelled(mangled, "embedding_attention_seq2seq") == 1);  // the scopes' shared parent
  CHECK(spelled(mangled, "kernel") == 1);
}
#endif
