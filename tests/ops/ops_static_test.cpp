// Static tests: the output shape and element type of every op, literal adaptation, and
// the rules that are constraints (negative cases as static_assert(!requires { ... })).
// Rules checked by static_assert inside an op (matmul inner dims, broadcasting,
// reshape element counts, element types) are hard errors: tests/compile_fail/ has them.
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

namespace {

template <class N, class S, class T>
constexpr bool is_node_of = tf::node<N> && std::is_same_v<tf::shape_of<N>, S> &&
                            std::is_same_v<tf::value_type_of<N>, T>;

constexpr auto x = tf::placeholder<"x", float, shape<dyn, 3>>();     // [None, 3]
constexpr auto m = tf::placeholder<"m", float, shape<2, 3>>();
constexpr auto w = tf::placeholder<"w", float, shape<3, 4>>();
constexpr auto row = tf::placeholder<"row", float, shape<3>>();
constexpr auto col = tf::placeholder<"col", float, shape<2, 1>>();
constexpr auto t = tf::placeholder<"t", double, shape<2, 3, 4>>();
constexpr auto i = tf::placeholder<"i", std::int32_t, shape<2, 3>>();
constexpr auto l = tf::placeholder<"l", std::int64_t>();
constexpr auto d = tf::placeholder<"d", double>();
constexpr auto b = tf::placeholder<"b", bool, shape<dyn>>();
using X = std::remove_const_t<decltype(x)>;  // decltype of a constexpr variable is const
using I = std::remove_const_t<decltype(i)>;

// --- nodes and the node concept ---------------------------------------------------------
static_assert(tf::node<X> && tf::named_node<X>);
static_assert(!tf::node<int> && !tf::node<float> && !tf::node<tf::shape<2>>);
static_assert(!tf::node<xt::xtensor<float, 2>>);
static_assert(tf::node<decltype(tf::constant<2>())> && !tf::named_node<decltype(tf::constant<2>())>);
static_assert(!tf::named_node<decltype(x + x)>);
static_assert(std::is_empty_v<X> && std::is_empty_v<decltype(tf::matmul(m, w))>);
static_assert(tf::name_of<X>() == "x" && tf::name_of<decltype(x * x)>().empty());
static_assert(tf::op_name_of<decltype(x + x)>() == "add" && tf::op_name_of<decltype(tf::matmul(m, w))>() == "MatMul");

// --- elementwise: broadcasting shapes, element types --------------------------------------
static_assert(is_node_of<decltype(x + row), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(col * row), shape<2, 3>, float>);
static_assert(is_node_of<decltype(m - col), shape<2, 3>, float>);
static_assert(is_node_of<decltype(x / x), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(-x), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(i * i), shape<2, 3>, std::int32_t>);
static_assert(is_node_of<decltype(tf::maximum(x, row)), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(tf::minimum(i, i)), shape<2, 3>, std::int32_t>);
static_assert(is_node_of<decltype(tf::square(i)), shape<2, 3>, std::int32_t>);
static_assert(is_node_of<decltype(tf::abs(l)), shape<>, std::int64_t>);
static_assert(is_node_of<decltype(tf::relu(t)), shape<2, 3, 4>, double>);
static_assert(is_node_of<decltype(tf::sqrt(x)), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(tf::exp(d)), shape<>, double>);
static_assert(is_node_of<decltype(tf::log(t)), shape<2, 3, 4>, double>);
static_assert(is_node_of<decltype(tf::tanh(m)), shape<2, 3>, float>);
static_assert(is_node_of<decltype(tf::sigmoid(row)), shape<3>, float>);
static_assert(is_node_of<decltype(tf::identity(b)), shape<dyn>, bool>);
static_assert(tf::is_elementwise<decltype(x + row)> && tf::is_elementwise<decltype(tf::relu(x))>);
// tf.add and friends are the operators
static_assert(std::is_same_v<decltype(tf::add(x, row)), decltype(x + row)>);
static_assert(std::is_same_v<decltype(tf::multiply(m, col)), decltype(m * col)>);
static_assert(std::is_same_v<decltype(tf::negative(x)), decltype(-x)>);
// identical expressions are one node (DESIGN rule 1)
static_assert(std::is_same_v<decltype(x * row + x), decltype(x * row + x)>);
static_assert(!std::is_same_v<decltype(x + row), decltype(row + x)>);  // operand order is structure

// comparisons give bool, with broadcasting; cast changes only the element type
static_assert(is_node_of<decltype(x < row), shape<dyn, 3>, bool>);
static_assert(is_node_of<decltype(tf::equal(i, i)), shape<2, 3>, bool>);
static_assert(is_node_of<decltype(tf::not_equal(b, b)), shape<dyn>, bool>);
static_assert(is_node_of<decltype(col >= row), shape<2, 3>, bool>);
static_assert(is_node_of<decltype(tf::cast<std::int32_t>(x)), shape<dyn, 3>, std::int32_t>);
static_assert(is_node_of<decltype(tf::cast<float>(b)), shape<dyn>, float>);
static_assert(is_node_of<decltype(tf::cast<double>(tf::constant<3>())), shape<>, double>);

// --- literals -----------------------------------------------------------------------------
static_assert(is_node_of<decltype(tf::constant<2>()), shape<>, std::int32_t>);
static_assert(is_node_of<decltype(tf::constant<2.0>()), shape<>, double>);
static_assert(is_node_of<decltype(tf::constant<0.5f>()), shape<>, float>);
static_assert(is_node_of<decltype(tf::constant<0.5, float>()), shape<>, float>);
static_assert(is_node_of<decltype(tf::constant<std::int64_t{1} << 40>()), shape<>, std::int64_t>);
static_assert(is_node_of<decltype(tf::constant<true>()), shape<>, bool>);
static_assert(decltype(tf::constant<0.5, float>())::value == 0.5f);
static_assert(std::is_same_v<decltype(tf::constant<2>()), decltype(tf::constant<2>())>);
static_assert(!std::is_same_v<decltype(tf::constant<2>()), decltype(tf::constant<3>())>);
// A literal adopts the other operand's element type, on either side.
static_assert(is_node_of<decltype(x * tf::constant<2>()), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(tf::constant<2>() * x), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(d + tf::constant<1>()), shape<>, double>);
static_assert(is_node_of<decltype(l - tf::constant<1>()), shape<>, std::int64_t>);
static_assert(is_node_of<decltype(m > tf::constant<0>()), shape<2, 3>, bool>);
static_assert(std::is_same_v<tf::inputs_of<decltype(x * tf::constant<2>())>,
                             boost::mp11::mp_list<X, tf::literal_node<2, float>>>);
// A literal converts to an integer operand only exactly (0.5 + i does not compile).
static_assert(std::is_same_v<tf::inputs_of<decltype(tf::constant<2.0>() + i)>,
                             boost::mp11::mp_list<tf::literal_node<2.0, std::int32_t>, I>>);
static_assert(tf::literal_must_convert_exactly<2.0, std::int32_t>::value);
static_assert(!tf::literal_must_convert_exactly<0.5, std::int32_t>::value);
static_assert(tf::literal_must_convert_exactly<0.1, float>::value);
// Between two literals nothing adapts; the same type is one op.
static_assert(is_node_of<decltype(tf::constant<2>() + tf::constant<3>()), shape<>, std::int32_t>);
static_assert(is_node_of<decltype(tf::constant<2.0>() * tf::constant<3.0>()), shape<>, double>);

// --- matmul -------------------------------------------------------------------------------
static_assert(is_node_of<decltype(tf::matmul(m, w)), shape<2, 4>, float>);
static_assert(is_node_of<decltype(tf::matmul(x, w)), shape<dyn, 4>, float>);
static_assert(is_node_of<decltype(tf::matmul<true, false>(m, m)), shape<3, 3>, float>);
static_assert(is_node_of<decltype(tf::matmul<false, true>(m, m)), shape<2, 2>, float>);
static_assert(is_node_of<decltype(tf::matmul<true, true>(w, m)), shape<4, 2>, float>);
static_assert(is_node_of<decltype(tf::matmul<false, true>(x, x)), shape<dyn, dyn>, float>);
static_assert(is_node_of<decltype(tf::matmul(i, tf::transpose(i))), shape<2, 2>, std::int32_t>);
constexpr auto ba = tf::placeholder<"ba", double, shape<dyn, 2, 3>>();
constexpr auto bb = tf::placeholder<"bb", double, shape<5, 3, 4>>();
static_assert(is_node_of<decltype(tf::matmul(ba, bb)), shape<5, 2, 4>, double>);    // batch from b
static_assert(is_node_of<decltype(tf::matmul<false, true>(ba, ba)), shape<dyn, 2, 2>, double>);
static_assert(is_node_of<decltype(tf::matmul<true, false>(t, t)), shape<2, 4, 4>, double>);
static_assert(decltype(tf::matmul<true, false>(m, m))::transpose_a);
static_assert(decltype(tf::matmul(m, w))::kind == tf::node_kind::compute);

// --- reductions ---------------------------------------------------------------------------
static_assert(is_node_of<decltype(tf::reduce_sum(t)), shape<>, double>);
static_assert(is_node_of<decltype(tf::reduce_sum(t, tf::keep_dims)), shape<1, 1, 1>, double>);
static_assert(is_node_of<decltype(tf::reduce_sum<0>(t)), shape<3, 4>, double>);
static_assert(is_node_of<decltype(tf::reduce_sum<1>(t)), shape<2, 4>, double>);
static_assert(is_node_of<decltype(tf::reduce_sum<1>(t, tf::keep_dims)), shape<2, 1, 4>, double>);
static_assert(is_node_of<decltype(tf::reduce_sum<-1>(t)), shape<2, 3>, double>);
static_assert(is_node_of<decltype(tf::reduce_sum<0, -1>(t)), shape<3>, double>);
static_assert(is_node_of<decltype(tf::reduce_mean<2, 0>(t, tf::keep_dims)), shape<1, 3, 1>, double>);
static_assert(is_node_of<decltype(tf::reduce_mean(i)), shape<>, std::int32_t>);  // int mean stays int
static_assert(is_node_of<decltype(tf::reduce_mean<0>(x)), shape<3>, float>);
static_assert(is_node_of<decltype(tf::reduce_mean<1>(x)), shape<dyn>, float>);
static_assert(is_node_of<decltype(tf::reduce_sum<-1>(x, tf::keep_dims)), shape<dyn, 1>, float>);
static_assert(is_node_of<decltype(tf::reduce_sum(d)), shape<>, double>);
static_assert(tf::op_name_of<decltype(tf::reduce_sum(t))>() == "Sum");
static_assert(tf::op_name_of<decltype(tf::reduce_mean(t))>() == "Mean");

// --- reshape and transpose ----------------------------------------------------------------
static_assert(is_node_of<decltype(tf::reshape<shape<6>>(m)), shape<6>, float>);
static_assert(is_node_of<decltype(tf::reshape<shape<dyn, 2>>(m)), shape<3, 2>, float>);  // inferred: 3
static_assert(is_node_of<decltype(tf::reshape<shape<dyn>>(t)), shape<24>, double>);
static_assert(is_node_of<decltype(tf::reshape<shape<4, dyn, 2>>(t)), shape<4, 3, 2>, double>);
static_assert(is_node_of<decltype(tf::reshape<shape<1, 1>>(d)), shape<1, 1>, double>);
static_assert(is_node_of<decltype(tf::reshape<shape<>>(tf::reshape<shape<1>>(d))), shape<>, double>);
static_assert(is_node_of<decltype(tf::reshape<shape<dyn, 1>>(x)), shape<dyn, 1>, float>);  // dyn input: at run time
static_assert(is_node_of<decltype(tf::reshape<shape<3, dyn>>(x)), shape<3, dyn>, float>);
static_assert(is_node_of<decltype(tf::transpose(m)), shape<3, 2>, float>);
static_assert(is_node_of<decltype(tf::transpose(x)), shape<3, dyn>, float>);
static_assert(is_node_of<decltype(tf::transpose(t)), shape<4, 3, 2>, double>);
static_assert(is_node_of<decltype(tf::transpose<1, 0, 2>(t)), shape<3, 2, 4>, double>);
static_assert(is_node_of<decltype(tf::transpose<0, 2, 1>(t)), shape<2, 4, 3>, double>);
static_assert(std::is_same_v<decltype(tf::transpose(t)), decltype(tf::transpose<2, 1, 0>(t))>);

// --- softmax --------------------------------------------------------------------------
static_assert(is_node_of<decltype(tf::softmax(x)), shape<dyn, 3>, float>);
static_assert(is_node_of<decltype(tf::log_softmax(t)), shape<2, 3, 4>, double>);
static_assert(is_node_of<decltype(tf::softmax(row)), shape<3>, float>);

// --- negative cases: rules that are constraints ----------------------------------------
// (A requires-expression is only a soft check when it depends on a template parameter,
// hence these small concepts.)
template <class A, class B> concept addable = requires(A a, B b) { a + b; };
template <class A, class B> concept subtractable = requires(A a, B b) { a - b; };
template <class A, class B> concept multipliable = requires(A a, B b) { a * b; };
template <class A, class B> concept less_comparable = requires(A a, B b) { a < b; };
template <class A, class B> concept equality_comparable = requires(A a, B b) { a == b; };
template <class A, class B> concept inequality_comparable = requires(A a, B b) { a != b; };
template <class A> concept relu_applies = requires(A a) { tf::relu(a); };
template <class A> concept square_applies = requires(A a) { tf::square(a); };
template <class A> concept transpose_applies = requires(A a) { tf::transpose(a); };
template <class A> concept reduce_sum_applies = requires(A a) { tf::reduce_sum(a); };
template <class A, class B> concept matmul_applies = requires(A a, B b) { tf::matmul(a, b); };
template <class A, class B> concept maximum_applies = requires(A a, B b) { tf::maximum(a, b); };
template <class N, class V> concept feedable = requires(N n, V v) { tf::feed(n, v); };
template <class To, class A> concept castable = requires(A a) { tf::cast<To>(a); };
template <class T, class S> concept placeholder_makes = requires { tf::placeholder<"p", T, S>(); };
template <class S, class A> concept reshapable = requires(A a) { tf::reshape<S>(a); };

// A node and a run-time number do not make an expression: write tf::constant<3.0>().
static_assert(!addable<X, double>);
static_assert(!multipliable<int, X>);
static_assert(!subtractable<X, float>);
static_assert(!less_comparable<X, int>);
static_assert(addable<X, decltype(tf::constant<3.0>())>);
static_assert(addable<X, X> && multipliable<X, X> && less_comparable<X, X>);
// (A node and an xtensor container are not checked here: xtensor's own unconstrained
// operator+ takes the node as a scalar and fails hard inside xtensor.)
// Equality operators are not overloaded (as in TensorFlow): use tf::equal.
static_assert(!equality_comparable<X, X>);
static_assert(!inequality_comparable<X, X>);
// Ops take nodes, not values.
static_assert(!relu_applies<float> && relu_applies<X>);
static_assert(!square_applies<int> && square_applies<I>);
static_assert(!transpose_applies<double>);
static_assert(!reduce_sum_applies<double> && reduce_sum_applies<X>);
static_assert(!matmul_applies<decltype(m), int>);
static_assert(!maximum_applies<X, float>);
static_assert(!feedable<int, float> && feedable<decltype(d), double>);
// Element types and shapes are checked by concepts.
static_assert(!castable<char, X> && !castable<std::uint8_t, X> && castable<std::int64_t, X>);
static_assert(!castable<float, int>);
static_assert(!placeholder_makes<char, shape<>>);
static_assert(!placeholder_makes<float, int>);
static_assert(!placeholder_makes<std::uint64_t, shape<2>>);
static_assert(placeholder_makes<std::int64_t, shape<2>>);
static_assert(!reshapable<int, X> && reshapable<shape<dyn>, X>);

// --- the diagnostic types name the culprit and are false ---------------------------------
static_assert(!tf::you_must_feed_a_value_for_placeholder<"x">::value);
static_assert(!tf::matmul_inner_dimensions_must_agree<shape<2, 3>, shape<4, 5>>::value);
static_assert(!tf::shapes_must_be_broadcast_compatible<shape<2, 3>, shape<4>>::value);
static_assert(tf::shapes_must_be_broadcast_compatible<shape<2, 3>, shape<3>>::value);
static_assert(!tf::operands_must_have_the_same_element_type<float, double>::value);
static_assert(tf::operands_must_have_the_same_element_type<float, float>::value);
static_assert(!tf::reshape_needs_the_same_number_of_elements<shape<2, 3>, shape<4>>::value);
static_assert(!tf::fetch_is_not_a_typeflow_node<int>::value);

}  // namespace

TEST_CASE("static op tests compiled; run-time values agree with the static rules") {
  tf::session sess(x);
  // The literal in x * 2 was adapted to float at compile time; its value too.
  auto doubled = tf::constant<2>() * x;
  static_assert(std::is_same_v<tf::inputs_of<decltype(doubled)>, boost::mp11::mp_list<tf::literal_node<2, float>, X>>);
  const xt::xtensor<float, 2> v{{0.25f, 1, 1.5f}};
  const auto dv = sess.run(doubled, tf::feed(x, v));
  CHECK(dv(0, 0) == 0.5f);
  CHECK(dv(0, 2) == 3.0f);
  // A named constant's values travel with the nodes built from it to the session they root.
  const auto ones_sum = tf::reduce_sum<1>(
      tf::constant<"ops_static_ones">(xt::xtensor_fixed<float, xt::xshape<2, 3>>{{1, 1, 1}, {1, 1, 1}}));
  tf::session ones_sess(ones_sum);
  const auto r = ones_sess.run(ones_sum);
  static_assert(std::is_same_v<std::remove_const_t<decltype(r)>, xt::xtensor_fixed<float, xt::xshape<2>>>);
  CHECK(r(0) == 3.0f);
  CHECK(r(1) == 3.0f);
}
