// concat, stack (ops/concat.hpp), gather (ops/gather.hpp), reverse_sequence and
// sequence_mask (ops/sequence.hpp), where (ops/select.hpp): shapes and element types, values,
// and the run-time errors of dyn dims and bad indices or lengths. The cases of TensorFlow's
// concat_op_test.py, stack_op_test.py, gather_op_test.py, reverse_sequence_op_test.py,
// array_ops_test.py (SequenceMaskTest) and cwise_ops_test.py (SelectOpTest) whose inputs
// and expected values apply, each named after its TensorFlow test.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;
using tf::shape;

namespace {
template <class N, class S>
constexpr bool has_shape = std::is_same_v<tf::shape_of<N>, S>;

// The message of the invalid_argument_error that f throws ("" if it throws none).
template <class F>
std::string invalid_argument_message(F f) {
  try {
    f();
  } catch (const tf::invalid_argument_error& e) {
    return e.message();
  }
  return "";
}

// 0, 1, 2, ... (plus `from`) in a fixed-size tensor.
template <class T, std::size_t... D>
xt::xtensor_fixed<T, xt::xshape<D...>> iota(T from = 0) {
  xt::xtensor_fixed<T, xt::xshape<D...>> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<T>(from + static_cast<T>(i));
  return v;
}
}  // namespace

// --- concat ------------------------------------------------------------------------------

TEST_CASE("concat: testHStack and testVStack (axis 0 and 1 of two [4, 4])") {
  auto p1 = tf::constant<"p1">(iota<float, 4, 4>(0));
  auto p2 = tf::constant<"p2">(iota<float, 4, 4>(100));
  auto h = tf::concat<0>(p1, p2);
  auto v = tf::concat<1>(p1, p2);
  static_assert(has_shape<decltype(h), shape<8, 4>>);
  static_assert(has_shape<decltype(v), shape<4, 8>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(h)>, float>);
  static_assert(tf::op_name_of<decltype(h)>() == "ConcatV2");
  tf::session sess(h, v);
  const auto hv = sess.run(h);
  const auto vv = sess.run(v);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK(hv(i, j) == float(4 * i + j));
      CHECK(hv(i + 4, j) == float(100 + 4 * i + j));
      CHECK(vv(i, j) == float(4 * i + j));
      CHECK(vv(i, j + 4) == float(100 + 4 * i + j));
    }
}

TEST_CASE("concat: test4DStack ([2, 3, 1, 1] and [2, 3, 4, 1] along axis 2) and three inputs") {
  auto p1 = tf::constant<"p1">(iota<std::int32_t, 2, 3, 1, 1>(0));
  auto p2 = tf::constant<"p2">(iota<std::int32_t, 2, 3, 4, 1>(100));
  auto c = tf::concat<2>(p1, p2);
  static_assert(has_shape<decltype(c), shape<2, 3, 5, 1>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(c)>, std::int32_t>);
  tf::session sess(c);
  const auto cv = sess.run(c);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(cv(i, j, 0, 0) == std::int32_t(3 * i + j));
      for (std::size_t k = 0; k < 4; ++k) CHECK(cv(i, j, k + 1, 0) == std::int32_t(100 + 12 * i + 4 * j + k));
    }
  auto a = tf::constant<"a">(xt::xtensor_fixed<double, xt::xshape<2>>{1, 2});
  auto b = tf::constant<"b">(xt::xtensor_fixed<double, xt::xshape<1>>{3});
  auto three = tf::concat<0>(a, b, a);
  static_assert(has_shape<decltype(three), shape<5>>);
  tf::session sess3(three);
  check_values(sess3.run(three), {5}, {1, 2, 3, 1, 2});
}

TEST_CASE("concat: testConcatNegativeAxis (axis -2 and -1 of [2, 3])") {
  auto t1 = tf::constant<"t1">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{1, 2, 3}, {4, 5, 6}});
  auto t2 = tf::constant<"t2">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{7, 8, 9}, {10, 11, 12}});
  auto rows = tf::concat<-2>(t1, t2);
  auto cols = tf::concat<-1>(t1, t2);
  static_assert(std::is_same_v<decltype(rows), decltype(tf::concat<0>(t1, t2))>);  // one node
  static_assert(has_shape<decltype(cols), shape<2, 6>>);
  tf::session sess(rows, cols);
  check_values(sess.run(rows), {4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  check_values(sess.run(cols), {2, 6}, {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12});
}

TEST_CASE("concat: testZeroSize (an input with a zero-size dim along the axis)") {
  auto a = tf::constant<"a">(iota<float, 2, 3>(1));
  auto e = tf::placeholder<"e", float, shape<2, dyn>>();
  auto c = tf::concat<1>(e, a, e);
  static_assert(has_shape<decltype(c), shape<2, dyn>>);
  tf::session sess(c);
  const auto empty = xt::xtensor<float, 2>::from_shape({2, 0});
  check_values(sess.run(c, tf::feed(e, empty)), {2, 3}, {1, 2, 3, 4, 5, 6});
}

TEST_CASE("concat of dyn dims: the static size of another input, the sum at run time") {
  auto x = tf::placeholder<"x", double, shape<dyn, 2>>();
  auto y = tf::placeholder<"y", double, shape<3, dyn>>();
  auto rows = tf::concat<0>(x, y);  // [?, 2] ++ [3, ?] along 0: [?, 2]
  auto cols = tf::concat<1>(x, y);  // along 1: [3, ?]
  static_assert(has_shape<decltype(rows), shape<dyn, 2>>);
  static_assert(has_shape<decltype(cols), shape<3, dyn>>);
  tf::session sess(rows, cols);
  const xt::xtensor<double, 2> xv{{1, 2}, {3, 4}, {5, 6}};
  const xt::xtensor<double, 2> yv{{7, 8}, {9, 10}, {11, 12}};
  check_values(sess.run(rows, tf::feed(x, xv), tf::feed(y, yv)), {6, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  check_values(sess.run(cols, tf::feed(x, xv), tf::feed(y, yv)), {3, 4}, {1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12});
  // testIncompatibleShapes at run time: TensorFlow's InvalidArgument names both shapes.
  const xt::xtensor<double, 2> y_wide{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  CHECK(invalid_argument_message([&] { sess.run(rows, tf::feed(x, xv), tf::feed(y, y_wide)); }) ==
        "ConcatOp : Dimensions of inputs should match: shape[0] = [3, 2] vs. shape[1] = [3, 3]");
  const xt::xtensor<double, 2> x_two{{1, 2}, {3, 4}};
  CHECK(invalid_argument_message([&] { sess.run(cols, tf::feed(x, x_two), tf::feed(y, yv)); }) ==
        "ConcatOp : Dimensions of inputs should match: shape[0] = [2, 2] vs. shape[1] = [3, 2]");
}

// --- stack -------------------------------------------------------------------------------

TEST_CASE("stack: testConst and the axis (tf.stack([[1, 2, 3], [4, 5, 6]], axis))") {
  auto a = tf::constant<"a">(xt::xtensor_fixed<std::int64_t, xt::xshape<3>>{1, 2, 3});
  auto b = tf::constant<"b">(xt::xtensor_fixed<std::int64_t, xt::xshape<3>>{4, 5, 6});
  auto s0 = tf::stack(a, b);
  auto s1 = tf::stack<1>(a, b);
  static_assert(has_shape<decltype(s0), shape<2, 3>>);
  static_assert(has_shape<decltype(s1), shape<3, 2>>);
  static_assert(std::is_same_v<decltype(s1), decltype(tf::stack<-1>(a, b))>);
  static_assert(std::is_same_v<decltype(s0), decltype(tf::stack<-2>(a, b))>);
  static_assert(tf::op_name_of<decltype(s0)>() == "Pack");
  tf::session sess(s0, s1);
  check_values(sess.run(s0), {2, 3}, {1, 2, 3, 4, 5, 6});
  check_values(sess.run(s1), {3, 2}, {1, 4, 2, 5, 3, 6});
}

TEST_CASE("stack: testSimple (three [2, 3] along each axis) and scalars into a vector") {
  auto a = tf::constant<"a">(iota<float, 2, 3>(0));
  auto b = tf::constant<"b">(iota<float, 2, 3>(10));
  auto c = tf::constant<"c">(iota<float, 2, 3>(20));
  auto s0 = tf::stack<0>(a, b, c);
  auto s1 = tf::stack<1>(a, b, c);
  auto s2 = tf::stack<2>(a, b, c);
  static_assert(has_shape<decltype(s0), shape<3, 2, 3>>);
  static_assert(has_shape<decltype(s1), shape<2, 3, 3>>);
  static_assert(has_shape<decltype(s2), shape<2, 3, 3>>);
  tf::session sess(s0, s1, s2);
  const auto v0 = sess.run(s0);
  const auto v1 = sess.run(s1);
  const auto v2 = sess.run(s2);
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        const float want = float(10 * k + 3 * i + j);
        CHECK(v0(k, i, j) == want);
        CHECK(v1(i, k, j) == want);
        CHECK(v2(i, j, k) == want);
      }
  auto x = tf::placeholder<"x", std::int32_t>();
  auto pair = tf::stack(x, tf::constant<"seven">(std::int32_t{7}));
  static_assert(has_shape<decltype(pair), shape<2>>);
  tf::session sess_s(pair);
  check_values(sess_s.run(pair, tf::feed(x, 3)), {2}, {3, 7});
}

TEST_CASE("stack of dyn dims: merged shapes, and TensorFlow's error when fed shapes differ") {
  auto x = tf::placeholder<"x", float, shape<dyn, 2>>();
  auto y = tf::placeholder<"y", float, shape<dyn, 2>>();
  auto s = tf::stack<1>(x, y);
  static_assert(has_shape<decltype(s), shape<dyn, 2, 2>>);
  tf::session sess(s);
  const xt::xtensor<float, 2> xv{{1, 2}, {3, 4}};
  const xt::xtensor<float, 2> yv{{5, 6}, {7, 8}};
  check_values(sess.run(s, tf::feed(x, xv), tf::feed(y, yv)), {2, 2, 2}, {1, 2, 5, 6, 3, 4, 7, 8});
  const xt::xtensor<float, 2> y3{{5, 6}, {7, 8}, {9, 10}};
  CHECK(invalid_argument_message([&] { sess.run(s, tf::feed(x, xv), tf::feed(y, y3)); }) ==
        "Shapes of all inputs must match: values[0].shape = [2, 2] != values[1].shape = [3, 2]");
}

// --- gather ------------------------------------------------------------------------------

TEST_CASE("gather: testScalar1D and testScalar2D (a scalar index)") {
  auto p1 = tf::constant<"p1">(xt::xtensor_fixed<float, xt::xshape<6>>{0, 1, 2, 3, 7, 5});
  auto p2 = tf::constant<"p2">(iota<double, 5, 3>(0));
  auto i = tf::placeholder<"i", std::int32_t>();
  auto g1 = tf::gather(p1, i);
  auto g2 = tf::gather(p2, i);
  static_assert(has_shape<decltype(g1), shape<>>);
  static_assert(has_shape<decltype(g2), shape<3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(g2)>, double>);
  static_assert(tf::op_name_of<decltype(g1)>() == "GatherV2");
  tf::session sess(g1, g2);
  CHECK(sess.run(g1, tf::feed(i, 4)) == 7.0f);
  check_values(sess.run(g2, tf::feed(i, 2)), {3}, {6, 7, 8});
  CHECK(invalid_argument_message([&] { sess.run(g1, tf::feed(i, 6)); }) == "indices = 6 is not in [0, 6)");
}

TEST_CASE("gather: testSimpleTwoD32 (int32 and int64 indices, repeated rows)") {
  auto params = tf::constant<"params">(iota<std::int32_t, 5, 3>(0));
  auto i32 = tf::constant<"i32">(xt::xtensor_fixed<std::int32_t, xt::xshape<4>>{0, 4, 0, 2});
  auto i64 = tf::constant<"i64">(xt::xtensor_fixed<std::int64_t, xt::xshape<4>>{0, 4, 0, 2});
  auto a = tf::gather(params, i32);
  auto b = tf::gather(params, i64);
  static_assert(has_shape<decltype(a), shape<4, 3>>);
  tf::session sess(a, b);
  check_values(sess.run(a), {4, 3}, {0, 1, 2, 12, 13, 14, 0, 1, 2, 6, 7, 8});
  check_values(sess.run(b), {4, 3}, {0, 1, 2, 12, 13, 14, 0, 1, 2, 6, 7, 8});
}

TEST_CASE("gather: testHigherRank (indices [2, 2] into params [3, 2, 2]) and dyn dims") {
  auto params = tf::placeholder<"params", float, shape<dyn, 2, 2>>();
  auto indices = tf::placeholder<"indices", std::int64_t, shape<2, dyn>>();
  auto g = tf::gather(params, indices);
  static_assert(has_shape<decltype(g), shape<2, dyn, 2, 2>>);
  tf::session sess(g);
  xt::xtensor<float, 3> pv = xt::xtensor<float, 3>::from_shape({3, 2, 2});
  for (std::size_t k = 0; k < pv.size(); ++k) pv.flat(k) = float(k);
  const xt::xtensor<std::int64_t, 2> iv{{2, 0}, {1, 1}};
  check_values(sess.run(g, tf::feed(params, pv), tf::feed(indices, iv)), {2, 2, 2, 2},
               {8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7});
  // testEmptySlices: no indices, a result with no elements.
  const auto none = xt::xtensor<std::int64_t, 2>::from_shape({2, 0});
  check_values(sess.run(g, tf::feed(params, pv), tf::feed(indices, none)), {2, 0, 2, 2}, {});
}

TEST_CASE("gather: testBadIndicesCPU (params [2, 3], indices [[7]]) names the index, writes nothing") {
  auto params = tf::constant<"params">(xt::xtensor_fixed<float, xt::xshape<2, 3>>{{0, 1, 2}, {3, 4, 5}});
  auto indices = tf::placeholder<"indices", std::int32_t, shape<1, 1>>();
  auto g = tf::gather(params, indices);
  tf::session sess(g);
  const xt::xtensor_fixed<std::int32_t, xt::xshape<1, 1>> bad{{7}};
  CHECK(invalid_argument_message([&] { sess.run(g, tf::feed(indices, bad)); }) ==
        "indices[0,0] = 7 is not in [0, 2)");
  const xt::xtensor_fixed<std::int32_t, xt::xshape<1, 1>> negative{{-1}};
  CHECK(invalid_argument_message([&] { sess.run(g, tf::feed(indices, negative)); }) ==
        "indices[0,0] = -1 is not in [0, 2)");
  // A run after the failed ones computes from the same inputs as before.
  const xt::xtensor_fixed<std::int32_t, xt::xshape<1, 1>> good{{1}};
  check_values(sess.run(g, tf::feed(indices, good)), {1, 1, 3}, {3, 4, 5});
  auto rows = tf::placeholder<"rows", std::int32_t, shape<3>>();
  auto g3 = tf::gather(params, rows);
  tf::session sess3(g3);
  const xt::xtensor_fixed<std::int32_t, xt::xshape<3>> third_bad{0, 1, 2};
  CHECK(invalid_argument_message([&] { sess3.run(g3, tf::feed(rows, third_bad)); }) ==
        "indices[2] = 2 is not in [0, 2)");
}

// --- reverse_sequence ----------------------------------------------------------------------

TEST_CASE("reverse_sequence: testFloatBasic / testInt32Basic ([3, 2, 4], lengths [3, 0, 4])") {
  const xt::xtensor_fixed<float, xt::xshape<3, 2, 4>> x0{
      {{1, 2, 3, 4}, {5, 6, 7, 8}}, {{9, 10, 11, 12}, {13, 14, 15, 16}}, {{17, 18, 19, 20}, {21, 22, 23, 24}}};
  auto x = tf::constant<"x">(x0);
  auto lengths = tf::constant<"lengths">(xt::xtensor_fixed<std::int64_t, xt::xshape<3>>{3, 0, 4});
  auto r = tf::reverse_sequence<2, 0>(x, lengths);
  static_assert(has_shape<decltype(r), shape<3, 2, 4>>);
  static_assert(tf::op_name_of<decltype(r)>() == "ReverseSequence");
  const std::initializer_list<double> truth = {3,  2,  1,  4,  7,  6,  5,  8,  9,  10, 11, 12,
                                               13, 14, 15, 16, 20, 19, 18, 17, 24, 23, 22, 21};
  tf::session sess(r);
  check_values(sess.run(r), {3, 2, 4}, truth);
  // The same with the axes swapped by a transpose: seq_axis 0, batch_axis 2 (negative: -1).
  auto xt_ = tf::transpose<2, 1, 0>(x);
  auto rt = tf::transpose<2, 1, 0>(tf::reverse_sequence<0, -1>(xt_, lengths));
  tf::session sess_t(rt);
  check_values(sess_t.run(rt), {3, 2, 4}, truth);
  // int32 values and lengths.
  auto xi = tf::constant<"xi">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{1, 2, 3}, {4, 5, 6}});
  auto li = tf::constant<"li">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{2, 3});
  tf::session sess_i(tf::reverse_sequence<1>(xi, li));
  check_values(sess_i.run(tf::reverse_sequence<1>(xi, li)), {2, 3}, {2, 1, 3, 6, 5, 4});
}

TEST_CASE("reverse_sequence of dyn dims, and TensorFlow's errors for bad lengths") {
  auto x = tf::placeholder<"x", double, shape<dyn, dyn>>();
  auto lengths = tf::placeholder<"lengths", std::int32_t, shape<dyn>>();
  auto r = tf::reverse_sequence<1, 0>(x, lengths);
  static_assert(has_shape<decltype(r), shape<dyn, dyn>>);
  tf::session sess(r);
  const xt::xtensor<double, 2> xv{{1, 2, 3}, {4, 5, 6}};
  const xt::xtensor<std::int32_t, 1> lv{1, 2};
  check_values(sess.run(r, tf::feed(x, xv), tf::feed(lengths, lv)), {2, 3}, {1, 2, 3, 5, 4, 6});
  const xt::xtensor<std::int32_t, 1> too_long{1, 4};
  CHECK(invalid_argument_message([&] { sess.run(r, tf::feed(x, xv), tf::feed(lengths, too_long)); }) ==
        "seq_lens(1) > input.dims(1)");
  const xt::xtensor<std::int32_t, 1> negative{-1, 0};
  CHECK(invalid_argument_message([&] { sess.run(r, tf::feed(x, xv), tf::feed(lengths, negative)); }) ==
        "seq_lens(0) < 0");
  const xt::xtensor<std::int32_t, 1> three{1, 1, 1};
  CHECK(invalid_argument_message([&] { sess.run(r, tf::feed(x, xv), tf::feed(lengths, three)); }) ==
        "Length of seq_lengths != input.dims(0), (3 vs. 2)");
}

// --- sequence_mask -------------------------------------------------------------------------

TEST_CASE("sequence_mask: testOneDimensionalWithMaxlen and testOneDimensionalWithoutMaxlen") {
  auto lengths = tf::constant<"lengths">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{1, 3, 2});
  auto m = tf::sequence_mask<5>(lengths);
  static_assert(has_shape<decltype(m), shape<3, 5>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(m)>, bool>);
  static_assert(tf::op_name_of<decltype(m)>() == "SequenceMask");
  static_assert(!tf::differentiable<decltype(m)>);
  tf::session sess(m);
  check_values(sess.run(m), {3, 5}, {1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0});

  auto l2 = tf::placeholder<"l2", std::int64_t, shape<dyn>>();
  auto m2 = tf::sequence_mask(l2);
  static_assert(has_shape<decltype(m2), shape<dyn, dyn>>);
  tf::session sess2(m2);
  const xt::xtensor<std::int64_t, 1> lv{0, 1, 4};
  check_values(sess2.run(m2, tf::feed(l2, lv)), {3, 4}, {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1});
  const auto empty = xt::xtensor<std::int64_t, 1>::from_shape({0});
  check_values(sess2.run(m2, tf::feed(l2, empty)), {0, 0}, {});
}

TEST_CASE("sequence_mask: testOneDimensionalDtypeWithoutMaxlen and testTwoDimensional") {
  auto l = tf::constant<"l">(xt::xtensor_fixed<std::int32_t, xt::xshape<3>>{0, 1, 4});
  auto mf = tf::sequence_mask<dyn, float>(l);
  static_assert(std::is_same_v<tf::value_type_of<decltype(mf)>, float>);
  static_assert(has_shape<decltype(mf), shape<3, dyn>>);
  auto l2 = tf::constant<"l2">(xt::xtensor_fixed<std::int32_t, xt::xshape<1, 3>>{{1, 3, 2}});
  auto m2 = tf::sequence_mask<5>(l2);
  static_assert(has_shape<decltype(m2), shape<1, 3, 5>>);
  auto l3 = tf::constant<"l3">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{0, 1, 4}, {1, 2, 3}});
  auto m3 = tf::sequence_mask<dyn, float>(l3);
  tf::session sess(mf, m2, m3);
  check_values(sess.run(mf), {3, 4}, {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1});
  check_values(sess.run(m2), {1, 3, 5}, {1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0});
  check_values(sess.run(m3), {2, 3, 4}, {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0});
  // A scalar length gives a vector; a negative one no true element.
  auto n = tf::placeholder<"n", std::int32_t>();
  tf::session sess_n(tf::sequence_mask<3, std::int32_t>(n));
  check_values(sess_n.run(tf::sequence_mask<3, std::int32_t>(n), tf::feed(n, 2)), {3}, {1, 1, 0});
  check_values(sess_n.run(tf::sequence_mask<3, std::int32_t>(n), tf::feed(n, -1)), {3}, {0, 0, 0});
}

// --- where -------------------------------------------------------------------------------

TEST_CASE("where: testBasic (a cond of x's shape) and testScalar (a scalar cond)") {
  auto c = tf::placeholder<"c", bool, shape<1, 3, 2>>();
  auto x = tf::constant<"x">(iota<float, 1, 3, 2>(1));
  auto y = tf::constant<"y">(iota<float, 1, 3, 2>(-6));
  auto w = tf::where(c, x, y);
  static_assert(has_shape<decltype(w), shape<1, 3, 2>>);
  static_assert(std::is_same_v<decltype(w), decltype(tf::select(c, x, y))>);
  static_assert(tf::op_name_of<decltype(w)>() == "Select");
  tf::session sess(w);
  const xt::xtensor_fixed<bool, xt::xshape<1, 3, 2>> cv{{{true, false}, {false, true}, {true, true}}};
  check_values(sess.run(w, tf::feed(c, cv)), {1, 3, 2}, {1, -5, -4, 4, 5, 6});
  auto s = tf::placeholder<"s", bool>();
  auto ws = tf::where(s, x, y);
  tf::session sess_s(ws);
  check_values(sess_s.run(ws, tf::feed(s, true)), {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  check_values(sess_s.run(ws, tf::feed(s, false)), {1, 3, 2}, {-6, -5, -4, -3, -2, -1});
}

TEST_CASE("where: testBroadcast (a vector cond over x's first dim), a comparison as cond, dyn dims") {
  auto x = tf::placeholder<"x", double, shape<dyn, 2>>();
  auto y = tf::placeholder<"y", double, shape<dyn, 2>>();
  auto c = tf::placeholder<"c", bool, shape<dyn>>();
  auto rows = tf::where(c, x, y);
  auto elems = tf::where(x > y, x, y);  // maximum, as TensorFlow users write it
  static_assert(has_shape<decltype(rows), shape<dyn, 2>>);
  tf::session sess(rows, elems);
  const xt::xtensor<double, 2> xv{{1, 2}, {3, 4}, {5, 6}};
  const xt::xtensor<double, 2> yv{{0, 9}, {9, 0}, {6, 5}};
  const xt::xtensor<bool, 1> cv{false, true, false};
  check_values(sess.run(rows, tf::feed(c, cv), tf::feed(x, xv), tf::feed(y, yv)), {3, 2}, {0, 9, 3, 4, 6, 5});
  check_values(sess.run(elems, tf::feed(x, xv), tf::feed(y, yv)), {3, 2}, {1, 9, 9, 4, 6, 6});
  // testShapeMismatch at run time, and a cond of the wrong length.
  const xt::xtensor<double, 2> y2{{0, 9}, {9, 0}};
  CHECK(invalid_argument_message([&] { sess.run(rows, tf::feed(c, cv), tf::feed(x, xv), tf::feed(y, y2)); }) ==
        "'then' and 'else' must have the same size.  but received: [3, 2] vs. [2, 2]");
  const xt::xtensor<bool, 1> c2{true, false};
  CHECK(invalid_argument_message([&] { sess.run(rows, tf::feed(c, c2), tf::feed(x, xv), tf::feed(y, yv)); }) ==
        "Number of batches of 'then' must match size of 'cond', but saw: 3 vs. 2");
  auto s = tf::placeholder<"s", bool>();
  tf::session sess_s(tf::where(s, x, y));
  CHECK(invalid_argument_message([&] { sess_s.run(tf::where(s, x, y), tf::feed(s, true), tf::feed(x, xv), tf::feed(y, y2)); }) ==
        "'then' and 'else' must have the same size.  but received: [3, 2] vs. [2, 2]");
  auto ce = tf::placeholder<"ce", bool, shape<dyn, 2>>();
  tf::session sess_e(tf::where(ce, x, y));
  const xt::xtensor<bool, 2> c22{{true, false}, {false, true}};
  CHECK(invalid_argument_message([&] { sess_e.run(tf::where(ce, x, y), tf::feed(ce, c22), tf::feed(x, xv), tf::feed(y, yv)); }) ==
        "Inputs to operation Select of type Select must have the same size and shape.  Input 0: [2, 2] != input 1: [3, 2]");
  const xt::xtensor<bool, 2> c32{{true, false}, {false, true}, {true, true}};
  CHECK(invalid_argument_message([&] { sess_e.run(tf::where(ce, x, y), tf::feed(ce, c32), tf::feed(x, xv), tf::feed(y, y2)); }) ==
        "Inputs to operation Select of type Select must have the same size and shape.  Input 0: [3, 2] != input 2: [2, 2]");
}

TEST_CASE("where: testEmptyTensor and int32 values") {
  auto c = tf::placeholder<"c", bool, shape<1, dyn>>();
  auto x = tf::placeholder<"x", std::int32_t, shape<1, dyn>>();
  auto w = tf::where(c, x, -x);
  static_assert(std::is_same_v<tf::value_type_of<decltype(w)>, std::int32_t>);
  tf::session sess(w);
  const auto ce = xt::xtensor<bool, 2>::from_shape({1, 0});
  const auto xe = xt::xtensor<std::int32_t, 2>::from_shape({1, 0});
  check_values(sess.run(w, tf::feed(c, ce), tf::feed(x, xe)), {1, 0}, {});
  const xt::xtensor<bool, 2> cv{{true, false, true}};
  const xt::xtensor<std::int32_t, 2> xv{{1, 2, 3}};
  check_values(sess.run(w, tf::feed(c, cv), tf::feed(x, xv)), {1, 3}, {1, -2, 3});
}
