// Static tests of the rewrite stage (ops/rewrite.hpp): for each rule of
// docs/reference/graph-rewrites.md, the type a graph is rewritten to; and the cases a rule
// must leave alone. The values are checked in rewrite_test.cpp.
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

#include <boost/mp11/list.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace mp = boost::mp11;
using tf::shape;

namespace {

constexpr auto x = tf::placeholder<"x", double>();
constexpr auto y = tf::placeholder<"y", double>();
constexpr auto v = tf::placeholder<"v", float, shape<3>>();
constexpr auto i = tf::placeholder<"i", std::int32_t>();

template <class A, class B>
constexpr bool same = std::is_same_v<A, B>;
template <class N>
using rw = tf::rewrite_t<N>;
template <auto V, class T = double>
using lit = tf::literal_node<V, T>;
template <class Fn, class... In>
using op = tf::elementwise_node<Fn, In...>;
using X = std::remove_cvref_t<decltype(x)>;  // x is const
using Y = std::remove_cvref_t<decltype(y)>;
using V = std::remove_cvref_t<decltype(v)>;
using I = std::remove_cvref_t<decltype(i)>;

// --- constant folding -------------------------------------------------------------------------
static_assert(same<rw<decltype(tf::constant<2.0>() * tf::constant<3.0>())>, lit<6.0>>);
static_assert(same<rw<decltype(-(tf::constant<2.0>() + tf::constant<0.5>()))>, lit<-2.5>>);
static_assert(same<rw<decltype(tf::square(tf::constant<3>()))>, lit<9, std::int32_t>>);
// A folded subgraph inside a graph: x * (2 * 3) is x * 6.
static_assert(same<rw<decltype(x * (tf::constant<2.0>() * tf::constant<3.0>()))>, op<tf::fn::mul, X, lit<6.0>>>);
// Not folded: a division by zero, an int32 overflow, an op outside the folded set.
static_assert(same<rw<decltype(tf::constant<1.0>() / tf::constant<0.0>())>,
                   decltype(tf::constant<1.0>() / tf::constant<0.0>())>);
static_assert(same<rw<decltype(tf::constant<2147483647>() + tf::constant<1>())>,
                   decltype(tf::constant<2147483647>() + tf::constant<1>())>);
static_assert(same<rw<decltype(tf::exp(tf::constant<1.0>()))>, decltype(tf::exp(tf::constant<1.0>()))>);

// --- identity elimination ---------------------------------------------------------------------
static_assert(same<rw<decltype(tf::identity(x) * y)>, op<tf::fn::mul, X, Y>>);
static_assert(same<rw<decltype(tf::stop_gradient(x + y))>, op<tf::fn::add, X, Y>>);

// --- x * 1, x + 0, x - 0, x / 1 ---------------------------------------------------------------
static_assert(same<rw<decltype(x * tf::constant<1>())>, X>);
static_assert(same<rw<decltype(tf::constant<1.0>() * x)>, X>);
static_assert(same<rw<decltype(v * tf::constant<1>())>, V>);  // a scalar 1 keeps v's shape
static_assert(same<rw<decltype(x + tf::constant<0>())>, X>);
static_assert(same<rw<decltype(tf::constant<0>() + i)>, I>);
static_assert(same<rw<decltype(x - tf::constant<0.0>())>, X>);
static_assert(same<rw<decltype(x / tf::constant<1.0>())>, X>);
// 0 - x is not -x (their zeros differ in sign): left.
static_assert(same<rw<decltype(tf::constant<0.0>() - x)>, decltype(tf::constant<0.0>() - x)>);

// --- negations -------------------------------------------------------------------------------------
static_assert(same<rw<decltype(-(-x))>, X>);
static_assert(same<rw<decltype(-(-(-x)))>, op<tf::fn::neg, X>>);
static_assert(same<rw<decltype(-(x - y))>, op<tf::fn::sub, Y, X>>);
static_assert(same<rw<decltype(x + (-y))>, op<tf::fn::sub, X, Y>>);
static_assert(same<rw<decltype((-x) + y)>, op<tf::fn::sub, Y, X>>);
static_assert(same<rw<decltype(x - (-y))>, op<tf::fn::add, X, Y>>);
static_assert(same<rw<decltype(-(i - i))>, decltype(-(i - i))>);  // integers: -(a - b) is left

// --- literal factors ------------------------------------------------------------------------------
// Literal factors go to the right (exact: multiplication commutes).
static_assert(same<rw<decltype(tf::constant<3.0>() * x)>, op<tf::fn::mul, X, lit<3.0>>>);
// (x * c1) * c2 -> x * (c1 c2) when c1 or c2 is a power of two.
static_assert(same<rw<decltype(x * tf::constant<2.0>() * tf::constant<4.0>())>, op<tf::fn::mul, X, lit<8.0>>>);
static_assert(same<rw<decltype(x * tf::constant<3.0>() * tf::constant<0.5>())>, op<tf::fn::mul, X, lit<1.5>>>);
// ... and not otherwise (x * 3 * 5 rounds differently from x * 15).
static_assert(same<rw<decltype(x * tf::constant<3.0>() * tf::constant<5.0>())>,
                   decltype(x * tf::constant<3.0>() * tf::constant<5.0>())>);
// (x * 2) * y -> (x * y) * 2, y * (x * 2) -> (y * x) * 2: a power-of-two factor moves outward.
static_assert(same<rw<decltype((x * tf::constant<2.0>()) * y)>, op<tf::fn::mul, op<tf::fn::mul, X, Y>, lit<2.0>>>);
static_assert(same<rw<decltype(y * (x * tf::constant<2.0>()))>, op<tf::fn::mul, op<tf::fn::mul, Y, X>, lit<2.0>>>);
// Two factors meet and combine: (x * 2) * (y * 4) -> (x * y) * 8.
static_assert(same<rw<decltype((x * tf::constant<2.0>()) * (y * tf::constant<4.0>()))>,
                   op<tf::fn::mul, op<tf::fn::mul, X, Y>, lit<8.0>>>);
// A factor that is not a power of two stays where it is.
static_assert(same<rw<decltype((x * tf::constant<3.0>()) * y)>, decltype((x * tf::constant<3.0>()) * y)>);
// Integers are not reassociated.
static_assert(same<rw<decltype((i * tf::constant<2>()) * i)>, decltype((i * tf::constant<2>()) * i)>);

// --- the scalar regression's gradient --------------------------------------------------------------
// loss = (m x + b - y)^2: square's rule gives 1 * (e * 2) and the mul's that times x; the
// rewritten gradients are (e * x) * 2 and e * 2, whose factor the optimizer combines with
// its learning rate (train/gradient_descent.hpp).
constexpr auto m = tf::variable<"m", double>();
constexpr auto b = tf::variable<"b", double>();
using M = std::remove_cvref_t<decltype(m)>;
using B = std::remove_cvref_t<decltype(b)>;
using E = decltype(m * x + b - y);
using loss_t = decltype(tf::square(m * x + b - y));
static_assert(same<rw<tf::autodiff::gradient_t<loss_t, M>>, op<tf::fn::mul, op<tf::fn::mul, E, X>, lit<2, double>>>);
static_assert(same<rw<tf::autodiff::gradient_t<loss_t, B>>, op<tf::fn::mul, E, lit<2, double>>>);
static_assert(tf::ops::detail::scaled_c<rw<tf::autodiff::gradient_t<loss_t, M>>>::value);

// --- nodes kept as they are ---------------------------------------------------------------------
// Leaves; a graph no rule applies to (the same type: nothing to plan anew).
static_assert(same<rw<X>, X>);
static_assert(same<rw<M>, M>);
static_assert(same<rw<E>, E>);
// A compute op over a rewritten input is rebuilt (reduce_sum of x * 1 is reduce_sum of x).
static_assert(same<rw<decltype(tf::reduce_sum(v * tf::constant<1>()))>, decltype(tf::reduce_sum(v))>);
// An op in a name scope keeps its node (the rules match anonymous ops only); its inputs
// are rewritten.
using scoped_t = decltype(tf::name_scope<"s">{}(x * tf::constant<1.0>()));
static_assert(same<rw<scoped_t>, scoped_t>);
static_assert(same<rw<decltype(tf::name_scope<"s">{}(-(-x)) * y)>, decltype(tf::name_scope<"s">{}(-(-x)) * y)>);
static_assert(same<rw<decltype(tf::name_scope<"s">{}(-(-x) * y))>,
                   tf::scoped_node<"s", op<tf::fn::mul, tf::scoped_node<"s", op<tf::fn::neg, tf::scoped_node<"s", op<tf::fn::neg, X>>>>, Y>>>);

// --- what a run evaluates ---------------------------------------------------------------------------
using plain = mp::mp_list<decltype(x * tf::constant<1.0>())>;
using fed_op = mp::mp_list<decltype(-(x - y))>;
#ifndef TYPEFLOW_NO_GRAPH_REWRITES
// Fed leaves: the fetches rewritten.
static_assert(same<tf::run_fetches_t<plain, mp::mp_list<X>>, mp::mp_list<X>>);
// A fed op: its consumers must read the fed value, so nothing is rewritten.
static_assert(same<tf::run_fetches_t<fed_op, mp::mp_list<E>>, fed_op>);
static_assert(same<tf::run_fetches_t<fed_op, mp::mp_list<X, Y>>, mp::mp_list<op<tf::fn::sub, Y, X>>>);
#else
// Built with TYPEFLOW_NO_GRAPH_REWRITES (CMake TYPEFLOW_WITHOUT_GRAPH_REWRITES): every run
// evaluates its fetches as written; the rules above are still what rewritten() gives.
static_assert(same<tf::run_fetches_t<plain, mp::mp_list<X>>, plain>);
static_assert(same<tf::run_fetches_t<fed_op, mp::mp_list<X, Y>>, fed_op>);
#endif

}  // namespace

TEST_CASE("the rewrite rules are static_asserts (this file compiles)") { CHECK(true); }
