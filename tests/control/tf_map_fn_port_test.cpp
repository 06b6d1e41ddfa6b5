// tf.map_fn (control/map_fn.hpp), ported from TensorFlow 1.x's functional_ops_test.py:
// testMap_Simple, testMap_Scoped, testMap_Grad, testMap_SimpleNotTensor,
// testMap_SingleInputMultiOutput, testMap_MultiInputSingleOutput,
// testMap_MultiInputSameStructureOutput, testMapShape, testMapUnknownShape,
// testMapEmptyScalar, testMapEmptyTensor, with the test's values; and map_fn's gradients
// against central differences (fd_check). Not ported: testMapSparseTensor (typeflow has no
// sparse tensors), testMap_MultiOutputMismatchedDtype (map_fn takes no dtype argument: the
// output's structure and element types are fn's, known statically), and
// testMapOverScalarErrors, which is the compile-fail test compile_fail.map_fn_scalar_elems.
// TensorFlow's nested input structures (x, (y, z)) are flat std::tuples here.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <typeflow/control/map_fn.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;

namespace {
using i32v = xt::xtensor<std::int32_t, 1>;
using i64v = xt::xtensor<std::int64_t, 1>;
const i64v nums = {1, 2, 3, 4, 5, 6};
}  // namespace

TEST_CASE("map_fn: testMap_Simple, an int32 elems") {
  auto elems = tf::placeholder<"data", std::int32_t, tf::shape<6>>();
  auto r = tf::map_fn([](auto x) { return (x + tf::constant<3>()) * tf::constant<2>(); }, elems);
  static_assert(std::is_same_v<tf::value_type_of<decltype(r)>, std::int32_t>);
  static_assert(std::is_same_v<tf::shape_of<decltype(r)>, tf::shape<6>>);
  tf::session s(r);
  const i32v got = s.run(r, tf::feed(elems, i32v{1, 2, 3, 4, 5, 6}));
  CHECK(got == i32v{8, 10, 12, 14, 16, 18});
}

TEST_CASE("map_fn: testMap_SimpleNotTensor, a constant of values") {
  auto elems = tf::constant<"nums">(nums);
  auto r = tf::map_fn([](auto x) { return (x + tf::constant<3>()) * tf::constant<2>(); }, elems);
  tf::session s(r);
  const i64v got = s.run(r);
  CHECK(got == (nums + 3) * 2);
}

TEST_CASE("map_fn: testMap_Scoped, a variable read by fn, shared by two map_fn") {
  auto elems = tf::placeholder<"root/data", double, tf::shape<tf::dyn>>();
  const auto double_scoped = [](auto x) {
    auto two = tf::variable<"root/body/two", double, tf::shape<>, tf::init::constant(2.0)>();
    return x * two;
  };
  auto r = tf::map_fn(double_scoped, elems);
  auto r2 = tf::map_fn<"map_1">(double_scoped, elems);  // reuse: the same variable (its type)
  tf::session s(r, r2);
  s.initialize_all();
  const xt::xtensor<double, 1> e = {1, 2, 3, 4, 5, 6};
  const auto [a, b] = s.run(tf::fetch(r, r2), tf::feed(elems, e));
  CHECK(a == 2.0 * e);
  CHECK(b == 2.0 * e);
  // The gradient reaches the variable: d sum(2 x) / d two = sum(x).
  auto two = tf::variable<"root/body/two", double, tf::shape<>, tf::init::constant(2.0)>();
  auto dtwo = tf::gradient(tf::reduce_sum(r), two);
  tf::session sg(dtwo);
  sg.initialize_all();
  CHECK(sg.run(dtwo, tf::feed(elems, e)) == 21.0);
}

TEST_CASE("map_fn: testMap_Grad, to a captured node and to elems") {
  auto param = tf::placeholder<"param", float>();
  auto elems = tf::placeholder<"elems", float, tf::shape<6>>();
  auto y = tf::map_fn([&](auto x) { return tf::square(x) * param; }, elems);
  auto loss = tf::reduce_sum(y);
  auto dparam = tf::gradient(loss, param);
  auto delems = tf::gradient(loss, elems);
  tf::session s(dparam, delems);
  const xt::xtensor_fixed<float, xt::xshape<6>> e = {1, 2, 3, 4, 5, 6};
  const auto [gp, ge] = s.run(tf::fetch(dparam, delems), tf::feed(param, 2.0f), tf::feed(elems, e));
  CHECK(gp == 91.0f);
  CHECK(ge == xt::xtensor_fixed<float, xt::xshape<6>>{4, 8, 12, 16, 20, 24});
}

TEST_CASE("map_fn: testMap_SingleInputMultiOutput") {
  auto elems = tf::placeholder<"nums", std::int64_t, tf::shape<6>>();
  auto [r0, r1] = tf::map_fn(
      [](auto x) {
        auto y = (x + tf::constant<3>()) * tf::constant<2>();
        return std::tuple{y, -y};
      },
      elems);
  static_assert(std::is_same_v<tf::shape_of<decltype(r0)>, tf::shape<6>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(r1)>, tf::shape<6>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(r1)>, std::int64_t>);
  tf::session s(r0, r1);
  const auto [a, b] = s.run(tf::fetch(r0, r1), tf::feed(elems, nums));
  CHECK(a == (nums + 3) * 2);
  CHECK(b == -(nums + 3) * 2);
}

TEST_CASE("map_fn: testMap_MultiInputSingleOutput, testMap_MultiInputSameStructureOutput") {
  auto n = tf::placeholder<"nums", std::int64_t, tf::shape<6>>();
  // (nums, (nums, -nums)) flattened.
  auto r = tf::map_fn([](auto x) { return std::get<0>(x) * std::get<1>(x) + std::get<2>(x); }, std::tuple{n, n, -n});
  static_assert(std::is_same_v<tf::shape_of<decltype(r)>, tf::shape<6>>);
  // (nums, (2 * nums, -nums)) -> (x[1][0], (x[1][1], x[0])), flattened.
  auto [r0, r1, r2] = tf::map_fn<"map_1">(
      [](auto x) { return std::tuple{std::get<1>(x), std::get<2>(x), std::get<0>(x)}; },
      std::tuple{n, n * tf::constant<2>(), -n});
  tf::session s(r, r0, r1, r2);
  const auto [v, a, b, c] = s.run(tf::fetch(r, r0, r1, r2), tf::feed(n, nums));
  CHECK(v == nums * nums - nums);
  CHECK(a == 2 * nums);
  CHECK(b == -nums);
  CHECK(c == nums);
}

TEST_CASE("map_fn: testMapShape, testMapUnknownShape") {
  auto x = tf::placeholder<"x", std::int32_t, tf::shape<2, 3>>();
  auto y = tf::map_fn([](auto e) { return e; }, x);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<2, 3>>);
  auto u = tf::placeholder<"u", float, tf::shape<tf::dyn, 3>>();
  auto yu = tf::map_fn<"map_1">([](auto e) { return e; }, u);
  static_assert(std::is_same_v<tf::shape_of<decltype(yu)>, tf::shape<tf::dyn, 3>>);
  tf::session s(y, yu);
  const xt::xtensor<std::int32_t, 2> got = s.run(y, tf::feed(x, xt::xtensor<std::int32_t, 2>{{1, 2, 3}, {4, 5, 6}}));
  CHECK(got == xt::xtensor<std::int32_t, 2>{{1, 2, 3}, {4, 5, 6}});
  const xt::xtensor<float, 2> gu = s.run(yu, tf::feed(u, xt::xtensor<float, 2>{{1, 2, 3}}));
  CHECK(gu == xt::xtensor<float, 2>{{1, 2, 3}});
}

TEST_CASE("map_fn: testMapEmptyScalar, testMapEmptyTensor: zero elements") {
  auto elems = tf::placeholder<"elems", float, tf::shape<tf::dyn>>();
  auto ones = tf::map_fn([](auto) { return tf::constant<1>(); }, elems);
  static_assert(std::is_same_v<tf::value_type_of<decltype(ones)>, std::int32_t>);
  auto zeros = tf::map_fn<"map_1">([](auto) { return tf::zeros<tf::shape<3, 2>>(); }, elems);
  static_assert(std::is_same_v<tf::shape_of<decltype(zeros)>, tf::shape<tf::dyn, 3, 2>>);
  tf::session s(ones, zeros);
  const xt::xtensor<float, 1> none = xt::zeros<float>({std::size_t(0)});
  const auto [a, b] = s.run(tf::fetch(ones, zeros), tf::feed(elems, none));
  CHECK(a.shape()[0] == 0);
  CHECK(b.shape() == std::array<std::size_t, 3>{0, 3, 2});
  const auto [c, d] = s.run(tf::fetch(ones, zeros), tf::feed(elems, xt::xtensor<float, 1>{5, 6}));
  CHECK(c == xt::xtensor<std::int32_t, 1>{1, 1});
  CHECK(d.shape() == std::array<std::size_t, 3>{2, 3, 2});
  // A static first dim of 0 (TensorFlow's constant_op.constant([])): the shape [0, 3, 2] is static.
  auto empty = tf::placeholder<"empty", float, tf::shape<0>>();
  auto z0 = tf::map_fn<"map_2">([](auto) { return tf::zeros<tf::shape<3, 2>>(); }, empty);
  static_assert(std::is_same_v<tf::shape_of<decltype(z0)>, tf::shape<0, 3, 2>>);
  tf::session s0(z0);
  const auto v0 = s0.run(z0, tf::feed(empty, xt::xtensor_fixed<float, xt::xshape<0>>{}));
  CHECK(v0.size() == 0);
}

TEST_CASE("map_fn: gradients against central differences, to elems and to a variable") {
  auto elems = tf::placeholder<"elems", double, tf::shape<4, 3>>();
  auto w = tf::placeholder<"w", double, tf::shape<3, 2>>();
  auto ys = tf::map_fn([&](auto x) { return tf::tanh(tf::matmul(tf::expand_dims<0>(x), w)); }, elems);  // [4, 1, 2]
  auto c = tf::placeholder<"c", double, tf::shape<4, 1, 2>>();
  auto loss = tf::reduce_sum(ys * c);
  tf::session s(loss, tf::gradient(loss, elems), tf::gradient(loss, w));
  const auto e0 = fd_check::uniform<tf::shape<4, 3>>();
  const auto w0 = fd_check::uniform<tf::shape<3, 2>>();
  const auto c0 = fd_check::uniform<tf::shape<4, 1, 2>>();
  fd_check::check_gradient(s, loss, elems, e0, tf::feed(w, w0), tf::feed(c, c0));
  fd_check::check_gradient(s, loss, w, w0, tf::feed(elems, e0), tf::feed(c, c0));
}
