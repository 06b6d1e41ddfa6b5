// Static tests: the type-level graph algorithms (graph/traverse.hpp). path_order is the
// computation path of a run, inputs first: the ancestors of the fetches and nothing off
// the path, stopping at fed nodes, each node once. graph_order is every node a session's
// roots reach, through inputs and the variables that effects write. path_info decides
// which nodes get a buffer and which are fused into their consumer.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <boost/mp11/list.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace mp = boost::mp11;
using mp::mp_list;
using tf::dyn;
using tf::shape;

namespace {

template <class L, class... N>
constexpr bool is_list = std::is_same_v<L, mp_list<N...>>;

// The graph (DESIGN rule 1: the types are the nodes):
//   a = x * 2      b = a + y      d = square(x)      e = a * a      s = reduce_sum(a)
using X = tf::placeholder_node<"x", float, shape<dyn, 3>>;
using Y = tf::placeholder_node<"y", float, shape<dyn, 3>>;
using Two = tf::literal_node<2, float>;  // tf::constant<2>() adapted to x's float
using A = decltype(X{} * tf::constant<2>());
using B = decltype(A{} + Y{});
using D = decltype(tf::square(X{}));
using E = decltype(A{} * A{});
using S = decltype(tf::reduce_sum(A{}));
using M = decltype(tf::matmul<false, true>(B{}, X{}));

static_assert(is_list<tf::inputs_of<A>, X, Two>);
static_assert(is_list<tf::inputs_of<B>, A, Y>);

// --- path_order: post-order, inputs left to right before the node --------------------
template <class Fetches, class Fed = mp_list<>>
using path = tf::graph::path_order<Fetches, Fed>;

static_assert(is_list<path<mp_list<X>>, X>);
static_assert(is_list<path<mp_list<A>>, X, Two, A>);
static_assert(is_list<path<mp_list<B>>, X, Two, A, Y, B>);
// Nodes off the path are not on it: fetching d = square(x) needs neither y, a nor b.
static_assert(is_list<path<mp_list<D>>, X, D>);
static_assert(!tf::contains_v<path<mp_list<D>>, Y>);
// Several fetches share their ancestors; each node appears once.
static_assert(is_list<path<mp_list<B, D>>, X, Two, A, Y, B, D>);
static_assert(is_list<path<mp_list<D, B>>, X, D, Two, A, Y, B>);
static_assert(is_list<path<mp_list<E>>, X, Two, A, E>);  // a used twice, evaluated once
static_assert(is_list<path<mp_list<B, B>>, X, Two, A, Y, B>);
// The path stops at fed nodes: feeding a cuts x and the literal off.
static_assert(is_list<path<mp_list<B>, mp_list<A>>, A, Y, B>);
static_assert(is_list<path<mp_list<E>, mp_list<A>>, A, E>);
static_assert(is_list<path<mp_list<A>, mp_list<A>>, A>);  // a fed fetch is just read
// A fed node's ancestors stay on the path when another fetch needs them.
static_assert(is_list<path<mp_list<B, D>, mp_list<A>>, A, Y, B, X, D>);
// Feeding a node that is not on the path changes nothing.
static_assert(is_list<path<mp_list<D>, mp_list<Y>>, X, D>);
// Compute ops are nodes of the path like any other.
static_assert(is_list<path<mp_list<S>>, X, Two, A, S>);
static_assert(is_list<path<mp_list<M>>, X, Two, A, Y, B, M>);
static_assert(is_list<path<mp_list<M>, mp_list<B>>, B, X, M>);

// --- graph_order: everything the roots reach, also the variables effects write --------
using V = tf::variable_node<"v", float, shape<3>>;
using Z = tf::placeholder_node<"z", float, shape<3>>;
using Assign = decltype(tf::assign(V{}, Z{}));
using AssignAdd = decltype(tf::assign_add(V{}, Z{}));
using Read = decltype(V{} * tf::constant<2>());
using Grouped = decltype(tf::group(Assign{}, Read{}));

static_assert(is_list<tf::graph::graph_order<B>, X, Two, A, Y, B>);
static_assert(is_list<tf::graph::graph_order<B, D>, X, Two, A, Y, B, D>);
static_assert(is_list<tf::graph::graph_order<D, B>, X, D, Two, A, Y, B>);
static_assert(is_list<tf::graph::graph_order<>>);
// An assign writes v: the session's graph holds v, the run's path does not evaluate it.
static_assert(is_list<tf::graph::graph_order<Assign>, Z, V, Assign>);
static_assert(is_list<path<mp_list<Assign>>, Z, Assign>);
static_assert(is_list<tf::graph::graph_order<Grouped>, Z, V, Assign, tf::literal_node<2, float>, Read, Grouped>);
static_assert(is_list<path<mp_list<Grouped>>, Z, Assign, V, tf::literal_node<2, float>, Read, Grouped>);
// assign_add reads v as well as writing it.
static_assert(is_list<tf::reads_of<AssignAdd>, V> && is_list<tf::reads_of<Assign>>);
static_assert(is_list<tf::targets_of<Assign>, V>);

// The session's variables and named nodes come from graph_order.
using Sess = tf::session<Grouped, B>;
static_assert(is_list<Sess::variables, V>);
static_assert(is_list<Sess::named_nodes, Z, V, X, Y>);
static_assert(Sess::holds<V>);
static_assert(!tf::session<B>::holds<V>);

// --- unique names ---------------------------------------------------------------------
using X_as_int = tf::placeholder_node<"x", std::int32_t, shape<dyn, 3>>;
static_assert(tf::graph::first_duplicate_name<mp_list<X, Y, V>> == 3);
static_assert(tf::graph::first_duplicate_name<mp_list<X, Y, X_as_int>> == 2);
static_assert(tf::graph::first_duplicate_name<mp_list<>> == 0);
// The one scan behind it, and behind the saver's and the signature's unique keys: the
// first name an earlier one equals, else the count.
using names3 = std::array<std::string_view, 3>;
static_assert(tf::core::detail::first_duplicate(names3{"a", "b", "c"}) == 3);
static_assert(tf::core::detail::first_duplicate(names3{"a", "b", "a"}) == 2);
static_assert(tf::core::detail::first_duplicate(names3{"a", "b", "b"}) == 2);
static_assert(tf::core::detail::first_duplicate(std::array<std::string_view, 4>{"x", "y", "y", "x"}) == 2);
static_assert(tf::core::detail::first_duplicate(std::array<std::string_view, 0>{}) == 0);
// ... and its form over names as template arguments (names of different lengths).
static_assert(tf::core::detail::first_duplicate_of<tf::fixed_string{"ab"}, tf::fixed_string{"b"}, tf::fixed_string{"ab"}> == 2);
static_assert(tf::core::detail::first_duplicate_of<tf::fixed_string{"a"}, tf::fixed_string{"ab"}> == 2);
static_assert(tf::core::detail::first_duplicate_of<> == 0);

// --- what gets a buffer ---------------------------------------------------------------
template <class Fetches, class Fed = mp_list<>>
using info = tf::path_info<Fetches, Fed>;

// b = (x * 2) + y fetched: x * 2 is fused into the add; b, a fetch, gets a buffer.
static_assert(!info<mp_list<B>>::materialized_c<A>::value);
static_assert(info<mp_list<B>>::materialized_c<B>::value);
// Leaves never get a buffer (placeholders are read from the feeds).
static_assert(!info<mp_list<B>>::materialized_c<X>::value && !info<mp_list<B>>::materialized_c<Two>::value);
// A node needed twice is computed once, into a buffer.
static_assert(info<mp_list<E>>::materialized_c<A>::value);
// A node a compute op reads is materialized (reductions and matmul read containers).
static_assert(info<mp_list<S>>::materialized_c<A>::value && info<mp_list<S>>::materialized_c<S>::value);
static_assert(info<mp_list<M>>::materialized_c<B>::value);
// A node that is fetched is materialized even if fused elsewhere.
static_assert(info<mp_list<A, B>>::materialized_c<A>::value);
// A fed node is not computed.
static_assert(!info<mp_list<B>, mp_list<A>>::materialized_c<A>::value);
static_assert(is_list<info<mp_list<B>, mp_list<A>>::order, A, Y, B>);

// --- consumers on a path (what gradients() sums over) ----------------------------------
// In the order of the path, each consumer once: e = a * a holds a in two input slots.
using F = decltype(E{} + B{} + D{});
static_assert(is_list<info<mp_list<F>>::order, X, Two, A, E, Y, B, decltype(E{} + B{}), D, F>);
static_assert(is_list<info<mp_list<F>>::consumers<X>, A, D>);
static_assert(is_list<info<mp_list<F>>::consumers<A>, E, B>);
static_assert(is_list<info<mp_list<F>>::consumers<Two>, A>);
static_assert(is_list<info<mp_list<F>>::consumers<D>, F>);
// The fetch has none; a node off the path (s) or cut off by a feed (x) has none.
static_assert(is_list<info<mp_list<F>>::consumers<F>>);
static_assert(is_list<info<mp_list<F>>::consumers<S>>);
static_assert(is_list<info<mp_list<B>, mp_list<A>>::consumers<X>>);
static_assert(is_list<info<mp_list<B>, mp_list<A>>::consumers<A>, B>);
// Several fetches: consumers across all their paths.
static_assert(is_list<info<mp_list<S, D>>::consumers<X>, A, D>);

}  // namespace

TEST_CASE("static graph tests compiled; a run evaluates the path the types describe") {
  // Fetching d = square(x) needs only x: y, not on the path, need not be fed.
  auto x = tf::placeholder<"x", float, shape<dyn, 3>>();
  auto y = tf::placeholder<"y", float, shape<dyn, 3>>();
  auto a = x * tf::constant<2>();
  auto b = a + y;
  auto d = tf::square(x);
  static_assert(std::is_same_v<decltype(b), B> && std::is_same_v<decltype(d), D>);
  tf::session sess(b, d);
  const xt::xtensor<float, 2> v{{1, 2, 3}};
  const auto rd = sess.run(d, tf::feed(x, v));
  CHECK(rd(0, 2) == 9.0f);
  // Feeding a cuts x off the path: x need not be fed.
  const xt::xtensor<float, 2> va{{10, 20, 30}};
  const auto rb = sess.run(b, tf::feed(a, va), tf::feed(y, v));
  CHECK(rb(0, 0) == 11.0f);
  CHECK(rb(0, 2) == 33.0f);
}
