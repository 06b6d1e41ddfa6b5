// tf::session, ported from TensorFlow 1.x's tensorflow/python/client/session_test.py
// (SessionTest): fetches and their structures, running ops, several sessions over one graph,
// pruning, errors. Feeding (testFeedAndFetch, testRunFeedDict, testFeedShapeCompatibility,
// testFeedPrecisionLossError, ...) is in tf_session_feed_port_test.cpp. Each case names the
// TensorFlow test it ports; the expected values are the test's literals. TensorFlow's
// anonymous constants become typeflow literals (`constant<42.0f>()`) or, for tensors, named
// constants (`constant<"a">(values)`); `a.op` and `no_op()` become tf::group, whose value is
// tf::none_t (TensorFlow's None); a Python list of fetches is a std::tuple, a dict a hana::map,
// a namedtuple or attrs class a Hana struct (fetched as a hana::map from its member names).
// Differences from TensorFlow: docs/reference/session.md, "Differences from TensorFlow".
//
// Not ported:
// - testManyCPUs, testPerSessionThreads, testSessionInterOpThreadPool, testDefaultLogDevicePlacement,
//   testDeviceAttributes*, testBuildCostModel, testInferShapes*, testOptimizerOptions,
//   testInvalidTargetFails, testInvalidArgument, test*GrpcSession, testOutputPartitionGraphs*,
//   testLocalMasterSessionTimeout, testDefaultServerTimeout, testTimeoutWithShortOperations: devices,
//   ConfigProto, thread pools, targets and servers, timeouts and queues; typeflow runs in the
//   calling thread (const sessions from several threads: testParallelRun below).
// - testPerStepTrace, testRunOptionsRunMetadata, testMakeCallable*WithRunOptions,
//   testOptimizedMakeCallable*: RunOptions, RunMetadata and callables. There is no make_callable:
//   a run's plan is made once per (fetch, fed nodes) combination at compile time, and its buffers
//   are kept by the session, so calling run() again is what a callable does.
// - testErrorCodeWithNoNodeDef and every partial_run: no partial runs.
// - testFetchSparseTensor, testFeed*Sparse*, testFetchIndexedSlices*, testFeedIndexedSlices*,
//   testString*, testAutoConvertAndCheckData: no sparse tensors, IndexedSlices or string dtype.
// - testErrorsReported, testFetchSingletonByName, testFetchByNameDifferentStringTypes,
//   testFeedDictKeyException, the `a.name` fetches of testFetchList / testFetchTuple /
//   testFetchNestingOneLevel: no lookup by name strings (a node's name is in its type); those
//   fetches use the node itself.
// - testFetchNone, testFeedError (a tf.Tensor as a fed value), testErrorPayload (an unfed
//   placeholder): compile errors, tested by tests/compile_fail/ fetch_non_node,
//   fetch_structure_not_node, feed_unsupported_container (any value that is not a scalar or an
//   xtensor expression, a node included) and unfed_placeholder.
// - testIncorrectGraph's ValueError: a typeflow fetch may lie outside the session's roots (its
//   nodes carry their definitions); only a variable the session does not hold is rejected, at
//   compile time (compile_fail variable_not_in_session).
// - testExtendWith*, testGraphDef, testDefaultGraph's graph identity,
//   testUseAfterCloseConcurrent (a session is closed by a move, in the thread that owns it), testNotEntered, testAsDefault, testReentry, test*SessionNesting,
//   testMultipleInteractiveSessionsWarning, testOpenAndCloseSession, testErrorBasedOn,
//   runTestBuildGraphError, testAddFunctionToSession, testRegisterFetchAndFeedConversionFunctions:
//   graphs built while a session runs, GraphDefs, default sessions and graphs, close(), Defun,
//   frames and conversion registries. A typeflow graph is a type, complete before the session;
//   a session has no close(): its destructor frees it, and a moved-from session is closed
//   (testUseAfterClose, below). The values
//   of testExtendWithStatelessOperations, testExtendWithStatefulOperations and
//   testExtendWithGroupBy are ported below.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#define BOOST_HANA_CONFIG_ENABLE_STRING_UDL
#include <boost/hana.hpp>
#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../support/counting.hpp"

namespace tf = typeflow;
namespace hana = boost::hana;
using namespace hana::literals;
using typeflow_test::counted;
using typeflow_test::evaluations;

namespace {

template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;
using none = tf::none_t;

// collections.namedtuple('ABC', ['a', 'b', 'c']) and an attrs class of two fields.
template <class A, class B, class C>
struct abc {
  BOOST_HANA_DEFINE_STRUCT(abc, (A, a), (B, b), (C, c));
};
template <class A, class B, class C>
abc<A, B, C> make_abc(A a, B b, C c) {
  return {a, b, c};
}
template <class F0, class F1>
struct sample_attr {
  BOOST_HANA_DEFINE_STRUCT(sample_attr, (F0, field0), (F1, field1));
};
template <class F0, class F1>
sample_attr<F0, F1> make_attr(F0 f0, F1 f1) {
  return {f0, f1};
}
template <class F1, class F2>
struct sample_attr12 {  // testFetchAttrs' SampleAttr: field1, field2
  BOOST_HANA_DEFINE_STRUCT(sample_attr12, (F1, field1), (F2, field2));
};

// The graph of testFetchTensorObject, testTensorGetMethod, testInteractive, testDefaultGraph
// and testSharedGraph: a = constant(1.0, [1, 2]), b = constant(2.0, [2, 3]), c = matmul(a, b).
auto const_a() { return tf::constant<"a">(fixed<float, 1, 2>{{1.0f, 1.0f}}); }
auto const_b() { return tf::constant<"b">(fixed<float, 2, 3>{{2.0f, 2.0f, 2.0f}, {2.0f, 2.0f, 2.0f}}); }
auto matmul_c() { return tf::matmul(const_a(), const_b()); }
const fixed<float, 1, 3> fours = {{4.0f, 4.0f, 4.0f}};

// The scalars of testFetchSingleton, testFetchList, testFetchTuple, testFetchDict, ...
constexpr auto a42 = tf::constant<42.0f>();
constexpr auto c44 = tf::constant<44.0f>();

}  // namespace

TEST_CASE("SessionTest.testUseExistingGraph / testUseDefaultGraph: matmul of [[6]] and [[7]]") {
  auto a = tf::constant<"a">(fixed<float, 1, 1>{{6.0f}});
  auto b = tf::constant<"b">(fixed<float, 1, 1>{{7.0f}});
  auto c = tf::matmul(a, b);
  tf::session sess(c);
  CHECK(sess.run(c) == fixed<float, 1, 1>{{42.0f}});
}

TEST_CASE("SessionTest.testFetchSingleton: a tensor gives its value, an op None") {
  tf::session sess;
  const float res = sess.run(a42);
  CHECK(res == 42.0f);
  static_assert(std::is_same_v<decltype(sess.run(tf::group(a42))), none>);  // sess.run(a.op)
  CHECK(sess.run(tf::group(a42)) == none{});
}

TEST_CASE("SessionTest.testFetchList / testDuplicatedInputs: [a, no_op, c, a, assign.op]") {
  auto v = tf::variable<"Variable", float, tf::shape<1>>(tf::init::constant(54.0));
  auto assign = tf::assign(v, tf::constant<"assign/value">(fixed<float, 1>{63.0f}));
  auto no_op = tf::group();
  tf::session sess(assign);
  // v is not initialized: the assign initializes it, as in TensorFlow.
  auto res = sess.run(std::tuple{a42, no_op, c44, a42, tf::group(assign)});
  static_assert(std::is_same_v<decltype(res), std::tuple<float, none, float, float, none>>);
  CHECK(res == std::tuple{42.0f, none{}, 44.0f, 42.0f, none{}});
  CHECK(sess.run(v) == fixed<float, 1>{63.0f});
  // testDuplicatedInputs: a_val, b_val, a2_val = sess.run([a, b, a])
  auto a = tf::constant<"a">(fixed<float, 1, 2>{{1.0f, 1.0f}});
  auto b = tf::constant<"b">(fixed<float, 1, 3>{{2.0f, 2.0f, 2.0f}});
  auto [a_val, b_val, a2_val] = sess.run(tf::fetch(a, b, a));
  CHECK(a_val == fixed<float, 1, 2>{{1.0f, 1.0f}});
  CHECK(b_val == fixed<float, 1, 3>{{2.0f, 2.0f, 2.0f}});
  CHECK(a2_val == fixed<float, 1, 2>{{1.0f, 1.0f}});
}

TEST_CASE("SessionTest.testFetchTuple: (a, no_op, c, a), as std::tuple and hana::tuple") {
  tf::session sess;
  auto no_op = tf::group();
  CHECK(sess.run(std::tuple{a42, no_op, c44, a42}) == std::tuple{42.0f, none{}, 44.0f, 42.0f});
  auto h = sess.run(hana::make_tuple(a42, no_op, c44, a42));
  CHECK(hana::equal(h, hana::make_tuple(42.0f, none{}, 44.0f, 42.0f)));
}

TEST_CASE("SessionTest.testFetchNamedTuple / testFetchDict / testFetchOrderedDict") {
  tf::session sess;
  auto no_op = tf::group();
  auto named = sess.run(make_abc(a42, no_op, c44));  // ABC(a, b, c): a map of its fields
  CHECK(named["a"_s] == 42.0f);
  CHECK(named["b"_s] == none{});
  CHECK(named["c"_s] == 44.0f);
  auto dict = sess.run(hana::make_map(hana::make_pair("a"_s, a42), hana::make_pair("b"_s, no_op),
                                      hana::make_pair("c"_s, c44)));
  static_assert(decltype(hana::size(dict))::value == 3);
  CHECK(dict["a"_s] == 42.0f);
  CHECK(dict["b"_s] == none{});
  CHECK(dict["c"_s] == 44.0f);
  // OrderedDict([(3, a), (2, b), (1, c)]): compile-time integer keys
  auto ordered = sess.run(hana::make_map(hana::make_pair(hana::int_c<3>, a42), hana::make_pair(hana::int_c<2>, no_op),
                                         hana::make_pair(hana::int_c<1>, c44)));
  CHECK(ordered[hana::int_c<3>] == 42.0f);
  CHECK(ordered[hana::int_c<2>] == none{});
  CHECK(ordered[hana::int_c<1>] == 44.0f);
}

TEST_CASE("SessionTest.testFetchAttrs: a struct of tensors, fetched, then with field1 fed") {
  auto t1 = tf::constant<"t1">(fixed<double, 3>{1.2, 3.4, 5.6});
  auto t2 = tf::constant<"t2">(fixed<std::int64_t, 2, 2>{{1, 2}, {4, 3}});
  const sample_attr12<decltype(t1), decltype(t2)> sample{t1, t2};
  tf::session sess;
  auto result = sess.run(sample);
  CHECK(result["field1"_s] == fixed<double, 3>{1.2, 3.4, 5.6});
  CHECK(result["field2"_s] == fixed<std::int64_t, 2, 2>{{1, 2}, {4, 3}});
  // feed_dict={sample.field1: val3}, val3 = [10, 20, 30] (a tensor is fed its own dtype)
  const fixed<double, 3> val3 = {10, 20, 30};
  auto fed = sess.run(sample, tf::feed(sample.field1, val3));
  CHECK(fed["field1"_s] == val3);
  CHECK(fed["field2"_s] == fixed<std::int64_t, 2, 2>{{1, 2}, {4, 3}});
}

TEST_CASE("SessionTest.testFetchNestedAttrs: structs of structs, a dict and a list of structs") {
  auto arr1 = tf::constant<"arr1">(fixed<double, 3>{1.2, 6.7, 3.4});
  auto arr2 = tf::constant<"arr2">(fixed<std::int64_t, 3>{7, 11, 3});
  auto sample = make_attr(
      make_attr(make_attr(tf::constant<10>(), tf::constant<20>()), make_attr(arr1, arr2)),
      hana::make_map(hana::make_pair("A"_s, make_attr(tf::constant<1.2f>(), tf::constant<3.4f>())),
                     hana::make_pair("B"_s, std::tuple{make_attr(tf::constant<100.001>(), tf::constant<-23.451>())})));
  tf::session sess;
  auto result = sess.run(sample);
  auto& f0 = result["field0"_s];
  CHECK(f0["field0"_s]["field0"_s] == 10);
  CHECK(f0["field0"_s]["field1"_s] == 20);
  static_assert(std::is_same_v<std::decay_t<decltype(f0["field0"_s]["field0"_s])>, std::int32_t>);
  CHECK(f0["field1"_s]["field0"_s] == fixed<double, 3>{1.2, 6.7, 3.4});
  CHECK(f0["field1"_s]["field1"_s] == fixed<std::int64_t, 3>{7, 11, 3});
  auto& f1 = result["field1"_s];
  CHECK(f1["A"_s]["field0"_s] == 1.2f);
  CHECK(f1["A"_s]["field1"_s] == 3.4f);
  static_assert(std::tuple_size_v<std::decay_t<decltype(f1["B"_s])>> == 1);
  CHECK(std::get<0>(f1["B"_s])["field0"_s] == 100.001);
  CHECK(std::get<0>(f1["B"_s])["field1"_s] == -23.451);
}

TEST_CASE("SessionTest.testFetchNestingEmptyOneLevel: [[], (), {}] and [[], (), {}, a]") {
  tf::session sess;
  auto empty = std::tuple{std::tuple<>{}, hana::make_tuple(), hana::make_map()};
  auto res = sess.run(empty);
  static_assert(std::is_same_v<decltype(res), std::tuple<std::tuple<>, hana::tuple<>, hana::map<>>>);
  auto a = tf::constant<11.0f>();
  auto [r0, r1, r2, r3] = sess.run(std::tuple{std::tuple<>{}, hana::make_tuple(), hana::make_map(), a});
  static_assert(std::is_same_v<decltype(r0), std::tuple<>>);
  static_assert(decltype(hana::size(r1))::value == 0 && decltype(hana::size(r2))::value == 0);
  CHECK(r3 == 11.0f);
}

TEST_CASE("SessionTest.testFetchNestingOneLevel: lists, tuples, namedtuples and dicts in each other") {
  tf::session sess;
  auto b = tf::group();
  auto dict = hana::make_map(hana::make_pair("a"_s, a42), hana::make_pair("c"_s, c44), hana::make_pair("b"_s, b));
  const auto abc_values = [](const auto& r) {
    CHECK(r["a"_s] == 42.0f);
    CHECK(r["b"_s] == none{});
    CHECK(r["c"_s] == 44.0f);
  };
  // List of lists, tuples, namedtuple, and dict
  auto res = sess.run(std::tuple{std::tuple{a42, b, c44}, hana::make_tuple(a42, b, c44), make_abc(a42, b, c44), dict});
  CHECK(std::get<0>(res) == std::tuple{42.0f, none{}, 44.0f});
  CHECK(hana::equal(std::get<1>(res), hana::make_tuple(42.0f, none{}, 44.0f)));
  abc_values(std::get<2>(res));
  abc_values(std::get<3>(res));
  // Namedtuple of lists, tuples, namedtuples, and dict: DEFG(d=[a, b, c], e=(a, b, c), f=ABC, g={})
  auto defg = hana::make_map(hana::make_pair("d"_s, std::tuple{a42, b, c44}),
                             hana::make_pair("e"_s, hana::make_tuple(a42, b, c44)),
                             hana::make_pair("f"_s, make_abc(a42, b, c44)), hana::make_pair("g"_s, dict));
  auto r = sess.run(defg);
  CHECK(r["d"_s] == std::tuple{42.0f, none{}, 44.0f});
  CHECK(hana::equal(r["e"_s], hana::make_tuple(42.0f, none{}, 44.0f)));
  abc_values(r["f"_s]);
  abc_values(r["g"_s]);
}

TEST_CASE("SessionTest.testFetchTensorObject: [c], c, [a, b], dicts and nested lists; each node once") {
  tf::session s;
  auto a = const_a();
  auto b = const_b();
  evaluations<21> = 0;
  auto c = counted<21>(matmul_c());
  CHECK(std::get<0>(s.run(std::tuple{c})) == fours);  // results_with_list
  CHECK(s.run(c) == fours);                            // results_with_single
  CHECK(evaluations<21> == 2);
  auto [c1, c2] = s.run(tf::fetch(c, c));  // one node twice in one fetch: computed once
  CHECK(c1 == fours);
  CHECK(c2 == fours);
  CHECK(evaluations<21> == 3);
  const fixed<float, 1, 2> a_lit = {{1.0f, 1.0f}};
  const fixed<float, 2, 3> b_lit = {{2.0f, 2.0f, 2.0f}, {2.0f, 2.0f, 2.0f}};
  auto [a_val, b_val] = s.run(tf::fetch(a, b));  // multiple fetches
  CHECK(a_val == a_lit);
  CHECK(b_val == b_lit);
  auto with_dict = s.run(hana::make_map(hana::make_pair("a"_s, std::tuple{a}), hana::make_pair("b"_s, b),
                                        hana::make_pair("z"_s, std::tuple{a, b})));
  CHECK(std::get<0>(with_dict["a"_s]) == a_lit);
  CHECK(with_dict["b"_s] == b_lit);
  CHECK(std::get<0>(with_dict["z"_s]) == std::get<0>(with_dict["a"_s]));
  CHECK(std::get<1>(with_dict["z"_s]) == with_dict["b"_s]);
  // Nested structures: [[[a, b], b], a, [a, b]]
  auto nested = s.run(std::tuple{std::tuple{std::tuple{a, b}, b}, a, std::tuple{a, b}});
  CHECK(std::get<0>(std::get<0>(std::get<0>(nested))) == a_lit);
  CHECK(std::get<1>(std::get<0>(std::get<0>(nested))) == b_lit);
  CHECK(std::get<1>(nested) == a_lit);
  CHECK(std::get<0>(std::get<2>(nested)) == a_lit);
  CHECK(std::get<1>(std::get<0>(nested)) == b_lit);
  CHECK(std::get<1>(std::get<2>(nested)) == b_lit);
}

namespace {
template <class T>
void fetch_scalar() {
  auto tf_x = tf::constant<"x">(T(7));
  auto tf_y = tf::constant<"y">(T(8));
  auto tf_xy = tf_x + tf_y;
  tf::session s;
  const auto xy = s.run(tf_xy);  // single fetch
  static_assert(std::is_same_v<std::decay_t<decltype(xy)>, T>);
  CHECK(xy == T(15));
  auto [xy_list] = s.run(std::tuple{tf_xy});  // list fetch
  CHECK(xy_list == T(15));
  CHECK(s.run(hana::make_map(hana::make_pair("xy"_s, tf_xy)))["xy"_s] == T(15));  // dict fetch
  // [[[xy]], xy, [xy]] (make_tuple: std::tuple{std::tuple{x}} would deduce a copy, not a nesting)
  auto n = s.run(std::make_tuple(std::make_tuple(std::make_tuple(tf_xy)), tf_xy, std::make_tuple(tf_xy)));
  static_assert(std::is_same_v<decltype(n), std::tuple<std::tuple<std::tuple<T>>, T, std::tuple<T>>>);
  CHECK(n == std::make_tuple(std::make_tuple(std::make_tuple(T(15))), T(15), std::make_tuple(T(15))));
}
}  // namespace

TEST_CASE("SessionTest.testFetchScalar: 7 + 8 in int32, int64, float32 and float64, of that type") {
  fetch_scalar<std::int32_t>();
  fetch_scalar<std::int64_t>();
  fetch_scalar<float>();
  fetch_scalar<double>();
}

TEST_CASE("SessionTest.testFetchOperationObject / testExtendWithGroupBy: an initializer's run, then the values") {
  // v = Variable(constant(1.0, shape=[1, 2])); s.run(v.initializer); s.run(v)
  auto v = tf::variable<"testFetchOperationObject_v", float, tf::shape<1, 2>>(tf::init::ones());
  // p = Variable([[1, 1]]), q = Variable([[2, 2]]); s.run(group(p.initializer, q.initializer))
  auto p = tf::variable<"testExtendWithGroupBy_p", float, tf::shape<1, 2>>(tf::init::ones());
  auto q = tf::variable<"testExtendWithGroupBy_q", float, tf::shape<1, 2>>(tf::init::constant(2.0));
  auto init = tf::group(tf::variables_initializer(p), tf::variables_initializer(q));
  tf::session s(v, init);
  CHECK(s.run(tf::variables_initializer(v)) == none{});
  CHECK(s.run(v) == fixed<float, 1, 2>{{1.0f, 1.0f}});
  CHECK_FALSE(s.is_initialized(p));
  CHECK(s.run(init) == none{});
  auto [p_val, q_val] = s.run(tf::fetch(p, q));
  CHECK(p_val == fixed<float, 1, 2>{{1.0f, 1.0f}});
  CHECK(q_val == fixed<float, 1, 2>{{2.0f, 2.0f}});
}

namespace {
// testDefaultGraph / testExtendWithStatefulOperations / _testDefaultGraphInThread, in session s.
// v = Variable(c) is assign(v, c) (a variable's initial value is not computed from nodes).
template <tf::fixed_string Name>
void default_graph_steps() {
  auto a = const_a();
  auto c = matmul_c();
  auto v = tf::variable<Name, float, tf::shape<1, 3>>(tf::init::zeros());
  auto initialize_v = tf::assign(v, c);
  auto d = tf::constant<"d">(fixed<float, 2, 3>{{3.0f, 3.0f, 3.0f}, {3.0f, 3.0f, 3.0f}});
  auto e = tf::matmul(a, d);
  auto assign_e_to_v = tf::assign(v, e);
  tf::session s(initialize_v, assign_e_to_v);
  s.run(initialize_v);
  CHECK(s.run(v) == fours);
  CHECK(s.run(e) == fixed<float, 1, 3>{{6.0f, 6.0f, 6.0f}});
  CHECK(s.run(v) == fours);  // computing e assigns nothing
  s.run(assign_e_to_v);
  CHECK(s.run(v) == fixed<float, 1, 3>{{6.0f, 6.0f, 6.0f}});
}
}  // namespace

TEST_CASE("SessionTest.testDefaultGraph / testExtendWithStatefulOperations: assign(v, e) changes v when run") {
  default_graph_steps<"testDefaultGraph_v">();
}

TEST_CASE("SessionTest.testDefaultGraphWithThreads: ten threads, each its own session and variable state") {
  // TensorFlow's threads build var_0 ... var_9 in their own default graphs; here the ten
  // sessions share one graph type and hold one variable each: a session's state is its own.
  std::vector<std::thread> threads;
  for (int i = 0; i < 10; ++i) threads.emplace_back([] { default_graph_steps<"var">(); });
  for (auto& t : threads) t.join();
}

TEST_CASE("SessionTest.testTensorGetMethod: c.eval(), and c.eval(feed_dict={a: [[4, 4]]})") {
  tf::session s;
  CHECK(s.run(matmul_c()) == fours);
  const fixed<float, 1, 2> four_four = {{4.0f, 4.0f}};
  CHECK(s.run(matmul_c(), tf::feed(const_a(), four_four)) == fixed<float, 1, 3>{{16.0f, 16.0f, 16.0f}});
}

TEST_CASE("SessionTest.testOperationRunMethod: assign a, assign b, assign b with b fed") {
  auto a = const_a();
  auto b = tf::constant<"b">(fixed<float, 1, 2>{{2.0f, 2.0f}});
  auto v = tf::variable<"Variable", float, tf::shape<1, 2>>(tf::init::zeros());  // VariableV1(a)
  auto assign_a_to_v = tf::assign(v, a);
  auto assign_b_to_v = tf::assign(v, b);
  tf::session s(assign_a_to_v, assign_b_to_v);
  s.run(assign_a_to_v);  // v was never initialized: the assign initializes it
  CHECK(s.run(v) == fixed<float, 1, 2>{{1.0f, 1.0f}});
  s.run(assign_b_to_v);
  CHECK(s.run(v) == fixed<float, 1, 2>{{2.0f, 2.0f}});
  s.run(assign_b_to_v);  // run twice: the same value
  CHECK(s.run(v) == fixed<float, 1, 2>{{2.0f, 2.0f}});
  const fixed<float, 1, 2> threes = {{3.0f, 3.0f}};
  s.run(assign_b_to_v, tf::feed(b, threes));  // feed_dict={'b:0': [[3.0, 3.0]]}
  CHECK(s.run(v) == threes);
  // An assign_add run twice adds twice (VariablesTestCase.testAssignments has the rest).
  auto add_a = tf::assign_add(v, a);
  tf::session t(add_a);
  t.run(assign_b_to_v);
  t.run(add_a);
  t.run(add_a);
  CHECK(t.run(v) == fixed<float, 1, 2>{{4.0f, 4.0f}});
}

TEST_CASE("SessionTest.testParallelRun: a constant fetched from 8 threads through one const session") {
  tf::session sess;
  const auto& serving = sess;
  const auto c = tf::constant<5.0f>();
  std::vector<int> fives(8, 0);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < fives.size(); ++i)
    threads.emplace_back([&, i] {
      for (int k = 0; k < 100; ++k) fives[i] += serving.run(c) == 5.0f;
    });
  for (auto& t : threads) t.join();
  CHECK(fives == std::vector<int>(8, 100));
}

TEST_CASE("SessionTest.testInteractive / testExtendWithStatelessOperations: c = [[4, 4, 4]], then e = matmul(c, [[1], [2], [3]]) = [[24]]") {
  tf::session sess;
  CHECK(sess.run(matmul_c()) == fours);
  auto d = tf::constant<"d">(fixed<float, 3, 1>{{1.0f}, {2.0f}, {3.0f}});
  CHECK(sess.run(tf::matmul(matmul_c(), d)) == fixed<float, 1, 1>{{24.0f}});
}

TEST_CASE("SessionTest.testInteractivePlacePrunedGraph / testDefaultSessionPlacePrunedGraph: only the path runs") {
  // TensorFlow's bad op is a constant placed on a GPU without kernels. Here: a node whose
  // evaluation fails (check_numerics of a NaN) and a placeholder nobody feeds, both in the
  // session's graph. Running b touches neither (TensorFlow's InteractiveSession; its Session
  // places the whole graph and fails even for b: a difference, session.md).
  auto bad = tf::constant<"bad">(fixed<float, 1, 2>{{1.0f, std::numeric_limits<float>::quiet_NaN()}});
  auto a = tf::check_numerics<"a is bad">(bad);
  auto unfed = tf::placeholder<"unfed", float, tf::shape<1, 2>>();
  auto b = tf::constant<"b">(fixed<float, 1, 2>{{1.0f, 1.0f}});
  tf::session sess(a, b, unfed * b);
  CHECK(sess.run(b) == fixed<float, 1, 2>{{1.0f, 1.0f}});
  CHECK_THROWS_WITH_AS(sess.run(a), "InvalidArgument: a is bad : Tensor had NaN values (node 'bad')",
                       tf::invalid_argument_error);
}

TEST_CASE("SessionTest.testSharedGraph: two sessions over one graph, same values, their own variables") {
  tf::session sess1(matmul_c());
  tf::session sess2(matmul_c());
  CHECK(sess1.run(matmul_c()) == sess2.run(matmul_c()));
  // Variables: an assign in one session leaves the other's value alone.
  auto v = tf::variable<"shared_v", float, tf::shape<1, 3>>(tf::init::zeros());
  auto set = tf::assign(v, matmul_c());
  tf::session first(set), second(set);
  first.initialize_all();
  second.initialize_all();
  first.run(set);
  CHECK(first.run(v) == fours);
  CHECK(second.run(v) == fixed<float, 1, 3>{{0.0f, 0.0f, 0.0f}});
}

TEST_CASE("SessionTest.testUseEmptyGraph: an empty fetch returns the empty structure (TensorFlow raises)") {
  // TensorFlow: RuntimeError "The Session graph is empty." for run([]), run(()), run({}) on a
  // graph with no node. A typeflow session has no graph of its own to be empty; an empty fetch
  // runs nothing (a difference, session.md).
  tf::session sess;
  CHECK(sess.run(std::tuple<>{}) == std::tuple<>{});
  static_assert(std::is_same_v<decltype(sess.run(hana::make_tuple())), hana::tuple<>>);
  static_assert(std::is_same_v<decltype(sess.run(hana::make_map())), hana::map<>>);
}

TEST_CASE("numerics_test.py's check_numerics in a run: its error, the effects before it, a rejected feed") {
  // Not a SessionTest case: how a run fails. TensorFlow's InvalidArgumentError from
  // check_numerics: "message : Tensor had NaN values". Ops run in the order fixed at compile
  // time, inputs first, so the assign_add (the group's first input) has run when it fails.
  auto x = tf::placeholder<"x", float>();
  auto count = tf::variable<"count", float>(tf::init::zeros());
  auto checked = tf::check_numerics<"log of x">(tf::log(x));
  auto step = tf::group(tf::assign_add(count, tf::constant<1.0f>()), checked);
  tf::session sess(step);
  sess.initialize_all();
  sess.run(step, tf::feed(x, 1.0f));
  CHECK(sess.run(count) == 1.0f);
  CHECK_THROWS_WITH_AS(sess.run(step, tf::feed(x, -1.0f)), "InvalidArgument: log of x : Tensor had NaN values",
                       tf::invalid_argument_error);
  CHECK(sess.run(count) == 2.0f);  // the assign_add came first in the order and ran
  // A rejected feed, checked before anything runs, changes nothing (DESIGN.md rule 4).
  const xt::xarray<float> two = {1.0f, 2.0f};
  CHECK_THROWS_WITH_AS(sess.run(step, tf::feed(x, two)),
                       "InvalidArgument: Cannot feed value of shape [2] for placeholder 'x', which has shape []",
                       tf::invalid_argument_error);
  CHECK(sess.run(count) == 2.0f);
}

TEST_CASE("SessionTest.testUseAfterClose: a moved-from session is closed; using it throws, and the moved-to one "
          "runs") {
  // TensorFlow: sess.run(c) after the with-block closed sess raises RuntimeError "Attempted to
  // use a closed Session.". A typeflow session is closed by a move: every use of the moved-from
  // one throws tf::cancelled_error (TensorFlow's C++ DirectSession: Cancelled, "Session has
  // been closed.").
  auto c = tf::constant<5.0f>();
  auto v = tf::variable<"uac_v", float, tf::shape<2>>(tf::init::ones());
  auto add = tf::assign_add(v, tf::constant<"uac_one">(fixed<float, 2>{1.0f, 1.0f}));
  tf::session sess(c, add);
  sess.initialize_all();
  CHECK(sess.run(c) == 5.0f);
  auto moved = std::move(sess);
  const std::string closed = "Cancelled: Attempted to use a closed Session. This session was moved from: use the "
                             "session it was moved to.";
  CHECK_THROWS_WITH_AS(sess.run(c), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS(sess.run(add), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS(sess.run(tf::fetch()), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS(std::as_const(sess).run(v), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS(sess.initialize_all(), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS(sess.is_initialized(v), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS((void)sess.uninitialized_names(), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS(sess.set_random_seed(1), closed.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS((void)sess.ref(), closed.c_str(), tf::cancelled_error);
  // The state moved with it: v is still initialized and the update runs there.
  CHECK(moved.run(c) == 5.0f);
  moved.run(add);
  CHECK(moved.run(v) == fixed<float, 2>{2.0f, 2.0f});
  // A closed session can be assigned to, and is open again.
  sess = std::move(moved);
  CHECK(sess.run(v) == fixed<float, 2>{2.0f, 2.0f});
  CHECK_THROWS_AS(moved.run(c), tf::cancelled_error);

  // A state over 4 KB (8 KB of fixed-shape values here) is checked another way (session.hpp,
  // run_impl): the same error.
  auto big = tf::variable<"uac_big", float, tf::shape<2048>>(tf::init::ones());
  tf::session big_sess(big);
  big_sess.initialize_all();
  auto big_moved = std::move(big_sess);
  CHECK_THROWS_WITH_AS(big_sess.run(big), closed.c_str(), tf::cancelled_error);
  CHECK(big_moved.run(big)(2047) == 1.0f);
}
