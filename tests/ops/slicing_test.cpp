// slice, strided_slice, split, unstack (ops/slice.hpp, ops/split.hpp) and expand_dims,
// squeeze, tile, reverse (ops/expand.hpp): values, static shapes (tf::dyn dims included),
// element types, op names and the run-time errors of dyn dims. The cases with TensorFlow's
// inputs and expected outputs are its docstring examples and the observable cases of
// array_ops_test.py, slice_op_test.py, split_op_test.py, unstack_op_test.py,
// shape_ops_test.py and reverse_op_test.py.
#include <doctest/doctest.h>

#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "ops_testing.hpp"

namespace tf = typeflow;
using ops_testing::check_values;
using tf::dyn;
using tf::ints;
using tf::shape;

template <class N, class S>
constexpr bool has_shape = std::is_same_v<tf::shape_of<N>, S>;

namespace {
// tf.slice's docstring tensor: [[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]].
xt::xtensor_fixed<std::int32_t, xt::xshape<3, 2, 3>> docstring_t() {
  return {{{1, 1, 1}, {2, 2, 2}}, {{3, 3, 3}, {4, 4, 4}}, {{5, 5, 5}, {6, 6, 6}}};
}
}  // namespace

TEST_CASE("slice: tf.slice's docstring cases, int32, op Slice") {
  auto t = tf::constant<"sl_t">(docstring_t());
  auto a = tf::slice<ints<1, 0, 0>, ints<1, 1, 3>>(t);
  auto b = tf::slice<ints<1, 0, 0>, ints<1, 2, 3>>(t);
  auto c = tf::slice<ints<1, 0, 0>, ints<2, 1, 3>>(t);
  static_assert(has_shape<decltype(a), shape<1, 1, 3>> && has_shape<decltype(c), shape<2, 1, 3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(a)>, std::int32_t>);
  static_assert(tf::op_name_of<decltype(a)>() == std::string_view("Slice"));
  tf::session sess(a, b, c);
  check_values(sess.run(a), {1, 1, 3}, {3, 3, 3});
  check_values(sess.run(b), {1, 2, 3}, {3, 3, 3, 4, 4, 4});
  check_values(sess.run(c), {2, 1, 3}, {3, 3, 3, 5, 5, 5});
}

TEST_CASE("slice: size -1 takes the rest, empty slices, a 1-D slice (slice_op_test)") {
  xt::xtensor_fixed<double, xt::xshape<4, 4>> v{};
  for (std::size_t i = 0; i < 16; ++i) v.flat(i) = static_cast<double>(i);
  auto a = tf::constant<"sl_4x4">(v);
  auto top_left = tf::slice<ints<0, 0>, ints<2, 2>>(a);  // testSimple: a[:2, :2]
  auto rest = tf::slice<ints<1, 2>, ints<-1, -1>>(a);    // a[1:, 2:]
  auto empty = tf::slice<ints<0, 3>, ints<4, 0>>(a);     // testEmpty: [4, 0]
  static_assert(has_shape<decltype(rest), shape<3, 2>> && has_shape<decltype(empty), shape<4, 0>>);
  tf::session sess(top_left, rest, empty);
  check_values(sess.run(top_left), {2, 2}, {0, 1, 4, 5});
  check_values(sess.run(rest), {3, 2}, {6, 7, 10, 11, 14, 15});
  CHECK(sess.run(empty).size() == 0);

  auto one_d = tf::constant<"sl_10">(xt::xtensor_fixed<std::int64_t, xt::xshape<10>>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto mid = tf::slice<ints<3>, ints<4>>(one_d);
  tf::session sess1(mid);
  check_values(sess1.run(mid), {4}, {3, 4, 5, 6});
}

TEST_CASE("slice of dyn dims: a static size stays static, -1 stays dyn; out of bounds is InvalidArgument") {
  // [snippet slice_dyn]
  auto x = tf::placeholder<"sl_dyn", float, shape<dyn, 3>>();
  auto row = tf::slice<ints<1, 0>, ints<1, -1>>(x);
  auto tail = tf::slice<ints<1, 1>, ints<-1, 2>>(x);
  static_assert(has_shape<decltype(row), shape<1, 3>> && has_shape<decltype(tail), shape<dyn, 2>>);
  tf::session sess(row, tail);
  const xt::xtensor<float, 2> v{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  check_values(sess.run(row, tf::feed(x, v)), {1, 3}, {4, 5, 6});
  check_values(sess.run(tail, tf::feed(x, v)), {2, 2}, {5, 6, 8, 9});
  const xt::xtensor<float, 2> one{{1, 2, 3}};
  CHECK_THROWS_AS(sess.run(row, tf::feed(x, one)), tf::invalid_argument_error);
  CHECK_THROWS_WITH(sess.run(row, tf::feed(x, one)), doctest::Contains("Expected size[0] in [0, 0], but got 1"));
  // [/snippet slice_dyn]
  const xt::xtensor<float, 2> none = xt::xtensor<float, 2>::from_shape({0, 3});
  CHECK_THROWS_WITH(sess.run(tail, tf::feed(x, none)), doctest::Contains("Expected begin[0] in [0, 0], but got 1"));
  // a negative begin is out of bounds, as in TensorFlow (strided_slice counts from the end)
  auto from_end = tf::slice<ints<-1, 0>, ints<1, -1>>(x);
  tf::session sess_neg(from_end);
  CHECK_THROWS_WITH_AS(sess_neg.run(from_end, tf::feed(x, v)), doctest::Contains("Expected begin[0] in [0, 3], but got -1"),
                       tf::invalid_argument_error);
  // the first bad dimension is reported
  auto any = tf::placeholder<"sl_dyn2", float, shape<dyn, dyn>>();
  auto both_bad = tf::slice<ints<4, 0>, ints<1, 5>>(any);
  tf::session sess_both(both_bad);
  CHECK_THROWS_WITH(sess_both.run(both_bad, tf::feed(any, v)), doctest::Contains("Expected begin[0] in [0, 3], but got 4"));
}

TEST_CASE("strided_slice: tf.strided_slice's docstring cases, negative begin, end and stride") {
  auto t = tf::constant<"ss_t">(docstring_t());
  auto a = tf::strided_slice<ints<1, 0, 0>, ints<2, 1, 3>, ints<1, 1, 1>>(t);
  auto b = tf::strided_slice<ints<1, 0, 0>, ints<2, 2, 3>, ints<1, 1, 1>>(t);
  auto c = tf::strided_slice<ints<1, -1, 0>, ints<2, -3, 3>, ints<1, -1, 1>>(t);
  static_assert(has_shape<decltype(c), shape<1, 2, 3>>);
  static_assert(tf::op_name_of<decltype(a)>() == std::string_view("StridedSlice"));
  tf::session sess(a, b, c);
  check_values(sess.run(a), {1, 1, 3}, {3, 3, 3});
  check_values(sess.run(b), {1, 2, 3}, {3, 3, 3, 4, 4, 4});
  check_values(sess.run(c), {1, 2, 3}, {4, 4, 4, 3, 3, 3});
}

TEST_CASE("strided_slice: python's x[::-1], x[::-2], x[-1::-1], clamping, degenerate ranges (array_ops_test)") {
  auto x = tf::constant<"ss_6">(xt::xtensor_fixed<double, xt::xshape<6>>{0, 1, 2, 3, 4, 5});
  auto rev = tf::strided_slice<ints<0>, ints<0>, ints<-1>, 1, 1>(x);   // x[::-1]
  auto rev2 = tf::strided_slice<ints<0>, ints<0>, ints<-2>, 1, 1>(x);  // x[::-2]
  auto from_last = tf::strided_slice<ints<-1>, ints<0>, ints<-1>, 0, 1>(x);  // x[-1::-1]
  auto clamped = tf::strided_slice<ints<-100>, ints<100>>(x);           // x[-100:100]
  auto step3 = tf::strided_slice<ints<1>, ints<6>, ints<3>>(x);         // x[1:6:3]
  auto empty = tf::strided_slice<ints<3>, ints<1>>(x);                  // x[3:1]
  auto empty_rev = tf::strided_slice<ints<1>, ints<3>, ints<-1>>(x);    // x[1:3:-1]
  static_assert(has_shape<decltype(rev2), shape<3>> && has_shape<decltype(step3), shape<2>>);
  static_assert(has_shape<decltype(empty), shape<0>> && has_shape<decltype(empty_rev), shape<0>>);
  tf::session sess(rev, rev2, from_last, clamped, step3, empty, empty_rev);
  check_values(sess.run(rev), {6}, {5, 4, 3, 2, 1, 0});
  check_values(sess.run(rev2), {3}, {5, 3, 1});
  check_values(sess.run(from_last), {6}, {5, 4, 3, 2, 1, 0});
  check_values(sess.run(clamped), {6}, {0, 1, 2, 3, 4, 5});
  check_values(sess.run(step3), {2}, {1, 4});
  CHECK(sess.run(empty).size() == 0);
  CHECK(sess.run(empty_rev).size() == 0);
}

TEST_CASE("strided_slice: shrink_axis_mask (x[1], x[:, -1], x[1, 2]) and begin/end masks on a matrix") {
  auto x = tf::constant<"ss_m">(xt::xtensor_fixed<float, xt::xshape<3, 4>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}});
  // [snippet strided_slice]
  auto row = tf::strided_slice<ints<1>, ints<2>, ints<>, 0, 0, 1>(x);              // x[1]
  auto col = tf::strided_slice<ints<0, -1>, ints<0, 0>, ints<>, 1, 1, 2>(x);        // x[:, -1]
  auto elem = tf::strided_slice<ints<1, 2>, ints<2, 3>, ints<>, 0, 0, 3>(x);        // x[1, 2]
  auto corner = tf::strided_slice<ints<1, 0>, ints<0, 3>, ints<1, 2>, 0, 1>(x);     // x[1:, 0:3:2]
  auto flipped = tf::strided_slice<ints<0, 0>, ints<0, 0>, ints<-1, -1>, 3, 3>(x);  // x[::-1, ::-1]
  static_assert(has_shape<decltype(row), shape<4>> && has_shape<decltype(col), shape<3>>);
  static_assert(has_shape<decltype(elem), shape<>> && has_shape<decltype(corner), shape<2, 2>>);
  tf::session sess(row, col, elem, corner, flipped);
  check_values(sess.run(row), {4}, {4, 5, 6, 7});
  check_values(sess.run(col), {3}, {3, 7, 11});
  CHECK(sess.run(elem) == 6.0f);
  check_values(sess.run(corner), {2, 2}, {4, 6, 8, 10});
  check_values(sess.run(flipped), {3, 4}, {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  // [/snippet strided_slice]
}

TEST_CASE("strided_slice of dyn dims: resolved at run time; a shrunk index out of bounds is InvalidArgument") {
  auto x = tf::placeholder<"ss_dyn", std::int32_t, shape<dyn, 2>>();
  auto last_rows = tf::strided_slice<ints<-2>, ints<0>, ints<>, 0, 1>(x);  // x[-2:]
  auto rev = tf::strided_slice<ints<0>, ints<0>, ints<-1>, 1, 1>(x);       // x[::-1]
  auto third = tf::strided_slice<ints<2>, ints<3>, ints<>, 0, 0, 1>(x);     // x[2]
  static_assert(has_shape<decltype(last_rows), shape<dyn, 2>> && has_shape<decltype(third), shape<2>>);
  tf::session sess(last_rows, rev, third);
  const xt::xtensor<std::int32_t, 2> v{{1, 2}, {3, 4}, {5, 6}};
  check_values(sess.run(last_rows, tf::feed(x, v)), {2, 2}, {3, 4, 5, 6});
  check_values(sess.run(rev, tf::feed(x, v)), {3, 2}, {5, 6, 3, 4, 1, 2});
  check_values(sess.run(third, tf::feed(x, v)), {2}, {5, 6});
  const xt::xtensor<std::int32_t, 2> two{{1, 2}, {3, 4}};
  check_values(sess.run(last_rows, tf::feed(x, two)), {2, 2}, {1, 2, 3, 4});
  CHECK_THROWS_WITH_AS(sess.run(third, tf::feed(x, two)), doctest::Contains("slice index 2 of dimension 0 out of bounds."),
                       tf::invalid_argument_error);
}

TEST_CASE("split: tf.split's docstring shapes ([5, 30] by 3 and by [4, 15, 11]), values, op names") {
  xt::xtensor_fixed<float, xt::xshape<5, 30>> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<float>(i);
  auto value = tf::constant<"sp_v">(v);
  // [snippet split]
  auto [s0, s1, s2] = tf::split<ints<4, 15, 11>, 1>(value);
  auto [e0, e1, e2] = tf::split<3, 1>(value);
  static_assert(has_shape<decltype(s0), shape<5, 4>> && has_shape<decltype(s1), shape<5, 15>> &&
                has_shape<decltype(s2), shape<5, 11>>);
  static_assert(has_shape<decltype(e0), shape<5, 10>> && has_shape<decltype(e2), shape<5, 10>>);
  static_assert(tf::op_name_of<decltype(s0)>() == std::string_view("SplitV"));
  static_assert(tf::op_name_of<decltype(e0)>() == std::string_view("Split"));
  // [/snippet split]
  tf::session sess(s0, s1, s2, e0, e1, e2);
  const auto [a, b, c] = sess.run(std::tuple{s0, s1, s2});
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = 0; j < 4; ++j) CHECK(a(i, j) == v(i, j));
    for (std::size_t j = 0; j < 15; ++j) CHECK(b(i, j) == v(i, 4 + j));
    for (std::size_t j = 0; j < 11; ++j) CHECK(c(i, j) == v(i, 19 + j));
  }
  const auto e = sess.run(e2);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 10; ++j) CHECK(e(i, j) == v(i, 20 + j));
}

TEST_CASE("split: a -1 size, a negative axis, dyn dims elsewhere (split_op_test)") {
  auto x = tf::placeholder<"sp_dyn", double, shape<dyn, 4>>();
  auto [a, b] = tf::split<ints<1, -1>, -1>(x);
  auto [l, r] = tf::split<2, 1>(x);
  static_assert(has_shape<decltype(a), shape<dyn, 1>> && has_shape<decltype(b), shape<dyn, 3>>);
  static_assert(has_shape<decltype(r), shape<dyn, 2>>);
  tf::session sess(a, b, l, r);
  const xt::xtensor<double, 2> v{{1, 2, 3, 4}, {5, 6, 7, 8}};
  const auto [va, vb, vl, vr] = sess.run(std::tuple{a, b, l, r}, tf::feed(x, v));
  check_values(va, {2, 1}, {1, 5});
  check_values(vb, {2, 3}, {2, 3, 4, 6, 7, 8});
  check_values(vl, {2, 2}, {1, 2, 5, 6});
  check_values(vr, {2, 2}, {3, 4, 7, 8});
  // [snippet split_export]
  // Each piece is its own node, named after the op (TensorFlow: outputs split:0, split:1 of one op).
  CHECK(tf::describe_graph(a, b).to_text() ==
        "sp_dyn = Placeholder() : float64 [?, 4]\n"
        "SplitV = SplitV(sp_dyn) : float64 [?, 1]\n"
        "SplitV_1 = SplitV(sp_dyn) : float64 [?, 3]\n");
  // [/snippet split_export]
}

TEST_CASE("unstack: along axis 0, 1 and -1; rank 1 gives scalars; op Unpack (unstack_op_test)") {
  auto x = tf::constant<"us_x">(xt::xtensor_fixed<std::int64_t, xt::xshape<2, 3>>{{1, 2, 3}, {4, 5, 6}});
  auto [r0, r1] = tf::unstack(x);
  auto cols = tf::unstack<1>(x);
  auto cols_neg = tf::unstack<-1>(x);
  static_assert(std::tuple_size_v<decltype(cols)> == 3 && has_shape<std::tuple_element_t<0, decltype(cols)>, shape<2>>);
  static_assert(std::is_same_v<decltype(cols), decltype(cols_neg)>);
  static_assert(tf::op_name_of<decltype(r0)>() == std::string_view("Unpack"));
  tf::session sess(r0, r1, std::get<0>(cols), std::get<1>(cols), std::get<2>(cols));
  check_values(sess.run(r0), {3}, {1, 2, 3});
  check_values(sess.run(r1), {3}, {4, 5, 6});
  const auto [c0, c1, c2] = sess.run(cols);
  check_values(c0, {2}, {1, 4});
  check_values(c1, {2}, {2, 5});
  check_values(c2, {2}, {3, 6});

  auto v = tf::constant<"us_v">(xt::xtensor_fixed<bool, xt::xshape<3>>{true, false, true});
  auto [b0, b1, b2] = tf::unstack(v);
  static_assert(has_shape<decltype(b1), shape<>> && std::is_same_v<tf::value_type_of<decltype(b1)>, bool>);
  tf::session sb(b0, b1, b2);
  CHECK(sb.run(b0) == true);
  CHECK(sb.run(b1) == false);

  // a dyn batch dimension, unstacked along the static time axis (a sequence model's inputs)
  // [snippet unstack_sequence]
  auto seq = tf::placeholder<"us_seq", float, shape<dyn, 2, 3>>();
  auto [t0, t1] = tf::unstack<1>(seq);
  static_assert(has_shape<decltype(t1), shape<dyn, 3>>);
  tf::session ss(t0, t1);
  const xt::xtensor<float, 3> sv{{{1, 2, 3}, {4, 5, 6}}};
  check_values(ss.run(t1, tf::feed(seq, sv)), {1, 3}, {4, 5, 6});
  // [/snippet unstack_sequence]
}

TEST_CASE("expand_dims: tf.expand_dims's docstring shapes, scalars, dyn dims") {
  auto t = tf::constant<"ed_t">(xt::xtensor_fixed<float, xt::xshape<2>>{1, 2});
  static_assert(has_shape<decltype(tf::expand_dims<0>(t)), shape<1, 2>>);
  static_assert(has_shape<decltype(tf::expand_dims<1>(t)), shape<2, 1>>);
  static_assert(has_shape<decltype(tf::expand_dims<-1>(t)), shape<2, 1>>);
  auto t2 = tf::placeholder<"ed_t2", float, shape<2, 3, 5>>();
  static_assert(has_shape<decltype(tf::expand_dims<0>(t2)), shape<1, 2, 3, 5>>);
  static_assert(has_shape<decltype(tf::expand_dims<2>(t2)), shape<2, 3, 1, 5>>);
  static_assert(has_shape<decltype(tf::expand_dims<3>(t2)), shape<2, 3, 5, 1>>);
  static_assert(has_shape<decltype(tf::expand_dims<-4>(t2)), shape<1, 2, 3, 5>>);
  static_assert(tf::op_name_of<decltype(tf::expand_dims<0>(t))>() == std::string_view("ExpandDims"));
  auto s = tf::constant<"ed_s">(7.0);
  auto es = tf::expand_dims<0>(s);
  static_assert(has_shape<decltype(es), shape<1>>);
  auto col = tf::expand_dims<1>(t);
  tf::session sess(es, col);
  check_values(sess.run(es), {1}, {7});
  check_values(sess.run(col), {2, 1}, {1, 2});

  auto d = tf::placeholder<"ed_d", std::int32_t, shape<dyn, dyn>>();
  auto ed = tf::expand_dims<1>(d);
  static_assert(has_shape<decltype(ed), shape<dyn, 1, dyn>>);
  tf::session sd(ed);
  check_values(sd.run(ed, tf::feed(d, xt::xtensor<std::int32_t, 2>{{1, 2, 3}, {4, 5, 6}})), {2, 1, 3}, {1, 2, 3, 4, 5, 6});
}

TEST_CASE("squeeze: tf.squeeze's docstring shapes; dyn dims are kept by squeeze() and checked when named") {
  auto t = tf::placeholder<"sq_t", double, shape<1, 2, 1, 3, 1, 1>>();
  static_assert(has_shape<decltype(tf::squeeze(t)), shape<2, 3>>);
  static_assert(has_shape<decltype(tf::squeeze<2, 4>(t)), shape<1, 2, 3, 1>>);
  static_assert(has_shape<decltype(tf::squeeze<-1, 0>(t)), shape<2, 1, 3, 1>>);
  static_assert(tf::op_name_of<decltype(tf::squeeze(t))>() == std::string_view("Squeeze"));
  auto one = tf::constant<"sq_1">(xt::xtensor_fixed<float, xt::xshape<1, 1>>{{4}});
  auto scalar = tf::squeeze(one);
  static_assert(has_shape<decltype(scalar), shape<>>);
  tf::session s1(scalar);
  CHECK(s1.run(scalar) == 4.0f);

  // [snippet squeeze_dyn]
  auto x = tf::placeholder<"sq_dyn", float, shape<dyn, 1, dyn>>();
  auto all = tf::squeeze(x);
  auto named = tf::squeeze<2>(x);
  static_assert(has_shape<decltype(all), shape<dyn, dyn>> && has_shape<decltype(named), shape<dyn, 1>>);
  tf::session sess(all, named);
  const xt::xtensor<float, 3> v{{{1}}, {{2}}};  // [2, 1, 1]
  check_values(sess.run(all, tf::feed(x, v)), {2, 1}, {1, 2});
  check_values(sess.run(named, tf::feed(x, v)), {2, 1}, {1, 2});
  const xt::xtensor<float, 3> wide{{{1, 2, 3}}};  // [1, 1, 3]
  CHECK_THROWS_WITH_AS(sess.run(named, tf::feed(x, wide)),
                       doctest::Contains("Can not squeeze dim[2], expected a dimension of 1, got 3"),
                       tf::invalid_argument_error);
  // [/snippet squeeze_dyn]
}

TEST_CASE("tile: tf.tile's docstring cases, a 0 multiple, dyn dims, bool") {
  auto a = tf::constant<"ti_a">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 3>>{{1, 2, 3}, {4, 5, 6}});
  auto b = tf::tile<1, 2>(a);
  auto c = tf::tile<2, 1>(a);
  auto d = tf::tile<2, 2>(a);
  auto z = tf::tile<0, 1>(a);
  static_assert(has_shape<decltype(d), shape<4, 6>> && has_shape<decltype(z), shape<0, 3>>);
  static_assert(tf::op_name_of<decltype(b)>() == std::string_view("Tile"));
  tf::session sess(b, c, d, z);
  check_values(sess.run(b), {2, 6}, {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6});
  check_values(sess.run(c), {4, 3}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6});
  check_values(sess.run(d), {4, 6}, {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6});
  CHECK(sess.run(z).size() == 0);

  auto x = tf::placeholder<"ti_dyn", bool, shape<dyn, 2>>();
  auto tx = tf::tile<3, 2>(x);
  static_assert(has_shape<decltype(tx), shape<dyn, 4>>);
  tf::session sd(tx);
  check_values(sd.run(tx, tf::feed(x, xt::xtensor<bool, 2>{{true, false}})), {3, 4},
               {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
}

TEST_CASE("reverse: tf.reverse's docstring cases on [1, 2, 3, 4], dyn dims, op ReverseV2") {
  xt::xtensor_fixed<std::int32_t, xt::xshape<1, 2, 3, 4>> v{};
  for (std::size_t i = 0; i < 24; ++i) v.flat(i) = static_cast<std::int32_t>(i);
  auto t = tf::constant<"rv_t">(v);
  auto last = tf::reverse<3>(t);
  auto last_neg = tf::reverse<-1>(t);
  auto second = tf::reverse<1>(t);
  auto third = tf::reverse<2>(t);
  static_assert(has_shape<decltype(last), shape<1, 2, 3, 4>>);
  static_assert(tf::op_name_of<decltype(last)>() == std::string_view("ReverseV2"));
  tf::session sess(last, last_neg, second, third);
  check_values(sess.run(last), {1, 2, 3, 4},
               {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20});
  check_values(sess.run(last_neg), {1, 2, 3, 4},
               {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20});
  check_values(sess.run(second), {1, 2, 3, 4},
               {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  check_values(sess.run(third), {1, 2, 3, 4},
               {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15});

  auto x = tf::placeholder<"rv_dyn", float, shape<dyn, 2>>();
  auto both = tf::reverse<0, 1>(x);
  tf::session sd(both);
  check_values(sd.run(both, tf::feed(x, xt::xtensor<float, 2>{{1, 2}, {3, 4}, {5, 6}})), {3, 2}, {6, 5, 4, 3, 2, 1});
}
