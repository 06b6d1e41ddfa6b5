// Loops in the graph (control/scan.hpp): tf.scan's values as TensorFlow's scan tests give
// them (functional_ops_test.py), sequence lengths, captured placeholders and variables,
// nested loops, loops of 0 and 1 steps, and gradients against central differences.
#include <doctest/doctest.h>

#include <cmath>
#include <tuple>

#include <typeflow/control/scan.hpp>
#include <xtensor/xview.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/counting_differentiable.hpp"
#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;

namespace {
using seq_t = xt::xtensor<double, 2>;
using vec2 = xt::xtensor_fixed<double, xt::xshape<2>>;
namespace cd = tf::control::detail;
namespace mp = boost::mp11;

template <class N>
struct is_grad_part : std::false_type {};
template <class LG, std::size_t I>
struct is_grad_part<cd::loop_grad_part<LG, I>> : std::true_type {};
}  // namespace

TEST_CASE("scan: the running sum of TensorFlow's testScan_Simple") {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn>>();
  auto zero = tf::placeholder<"zero", double>();
  auto sums = tf::scan([](auto a, auto x) { return a + x; }, elems, zero);
  static_assert(std::is_same_v<tf::shape_of<decltype(sums)>, tf::shape<tf::dyn>>);
  tf::session s(sums);
  const xt::xtensor<double, 1> e = {1, 2, 3, 4, 5, 6};
  const xt::xtensor<double, 1> got = s.run(sums, tf::feed(elems, e), tf::feed(zero, 0.0));
  CHECK(got == xt::xtensor<double, 1>{1, 3, 6, 10, 15, 21});
  // testScan_SimpleWithInitializer: a * x from 2.
  auto products = tf::scan<"mul_scan">([](auto a, auto x) { return a * x; }, elems, zero);
  tf::session s2(products);
  const xt::xtensor<double, 1> p = s2.run(products, tf::feed(elems, e), tf::feed(zero, 2.0));
  CHECK(p == xt::xtensor<double, 1>{2, 4, 12, 48, 240, 1440});
}

TEST_CASE("scan: a vector state with a variable, values and the run of 0 steps") {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn, 2>>();
  auto init = tf::placeholder<"init", double, tf::shape<2>>();
  auto w = tf::variable<"w", double, tf::shape<2>, tf::init::constant(0.5)>();
  auto ys = tf::scan([&](auto a, auto x) { return a * w + x; }, elems, init);
  tf::session s(ys);
  s.initialize_all();
  const seq_t e = {{1, 2}, {3, 4}, {5, 6}};
  const vec2 i0 = {1, 1};
  const seq_t got = s.run(ys, tf::feed(elems, e), tf::feed(init, i0));
  CHECK(got == seq_t{{1.5, 2.5}, {3.75, 5.25}, {6.875, 8.625}});
  // Zero steps: an empty result of shape [0, 2].
  const seq_t none = xt::zeros<double>({std::size_t(0), std::size_t(2)});
  const seq_t empty = s.run(ys, tf::feed(elems, none), tf::feed(init, i0));
  CHECK(empty.shape()[0] == 0);
  CHECK(empty.shape()[1] == 2);
  // A shorter run after a longer one, and a longer one again.
  const seq_t one = s.run(ys, tf::feed(elems, seq_t{{1, 1}}), tf::feed(init, i0));
  CHECK(one == seq_t{{1.5, 1.5}});
  CHECK(s.run(ys, tf::feed(elems, e), tf::feed(init, i0)) == got);
}

TEST_CASE("scan: gradients with respect to the sequence, the initial state and a variable") {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn, 2>>();
  auto init = tf::placeholder<"init", double, tf::shape<2>>();
  auto w = tf::variable<"w", double, tf::shape<2>, tf::init::constant(0.7)>();
  auto ys = tf::scan([&](auto a, auto x) { return tf::tanh(a * w + x); }, elems, init);
  auto loss = tf::reduce_sum(ys * ys * ys);
  tf::session s(loss, tf::gradient(loss, w), tf::gradient(loss, elems), tf::gradient(loss, init));
  // The steps that read the three gradients from the reverse loop's record call kernels named
  // by the value's type, shape and place in the record, not by the loop (compute_kernel_t).
  using parts = mp::mp_copy_if<tf::graph::graph_order<decltype(tf::gradient(loss, w)),
                                                      decltype(tf::gradient(loss, elems)),
                                                      decltype(tf::gradient(loss, init))>,
                               is_grad_part>;
  using kernels = mp::mp_transform<tf::session_detail::compute_kernel_t, parts>;
  using place = cd::loop_grad_place;
  static_assert(mp::mp_size<parts>::value == 3);
  static_assert(mp::mp_contains<kernels, cd::loop_grad_part_kernel<double, tf::shape<2>, place::state, 0>>::value);
  static_assert(
      mp::mp_contains<kernels, cd::loop_grad_part_kernel<double, tf::shape<tf::dyn, 2>, place::sequence, 0>>::value);
  static_assert(mp::mp_contains<kernels, cd::loop_grad_part_kernel<double, tf::shape<2>, place::capture, 0>>::value);
  s.initialize_all();
  const vec2 i0 = fd_check::fill_uniform(vec2{});
  for (std::size_t steps : {0u, 1u, 4u}) {
    CAPTURE(steps);
    const seq_t e = fd_check::fill_uniform(seq_t(std::array<std::size_t, 2>{steps, 2}));
    fd_check::check_gradient(s, loss, elems, e, tf::feed(init, i0));
    fd_check::check_gradient(s, loss, init, i0, tf::feed(elems, e));
    fd_check::check_gradient(s, loss, w, fd_check::fill_uniform(vec2{}), tf::feed(elems, e), tf::feed(init, i0));
  }
}

TEST_CASE("scan: the body reads a placeholder of the enclosing graph, which the run feeds") {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn>>();
  auto zero = tf::placeholder<"zero", double>();
  auto scale = tf::placeholder<"scale", double>();
  auto ys = tf::scan([&](auto a, auto x) { return a + scale * x * x; }, elems, zero);
  auto loss = tf::reduce_sum(ys);
  tf::session s(loss, tf::gradient(loss, scale));
  const xt::xtensor<double, 1> e = {1, 2, 3};
  const xt::xtensor<double, 1> got = s.run(ys, tf::feed(elems, e), tf::feed(zero, 0.0), tf::feed(scale, 2.0));
  CHECK(got == xt::xtensor<double, 1>{2, 10, 28});
  // d/dscale of sum_t sum_{u<=t} x_u^2 = 1 + 5 + 14.
  CHECK(s.run(tf::gradient(loss, scale), tf::feed(elems, e), tf::feed(zero, 0.0), tf::feed(scale, 2.0)) == 20.0);
  fd_check::check_gradient(s, loss, scale, 0.3, tf::feed(elems, e), tf::feed(zero, 0.5));
}

TEST_CASE("scan: a loop in a loop's body, values and gradients") {
  // The outer loop runs over rows; for each row the inner loop sums its elements times a
  // variable, and the outer state accumulates those sums.
  auto rows = tf::placeholder<"rows", double, tf::shape<tf::dyn, 3>>();
  auto zero = tf::placeholder<"zero", double>();
  auto w = tf::variable<"w", double, tf::shape<>, tf::init::constant(1.5)>();
  auto ys = tf::scan<"outer">(
      [&](auto acc, auto row) {
        auto inner = tf::scan<"inner">([&](auto a, auto x) { return a + w * x; }, row, tf::constant<0.0>());
        return acc + tf::reduce_sum(inner);
      },
      rows, zero);
  auto loss = tf::reduce_sum(ys * ys);
  tf::session s(loss, tf::gradient(loss, w), tf::gradient(loss, rows));
  s.initialize_all();
  const seq_t r = {{1, 2, 3}, {4, 5, 6}};
  // Inner cumulative sums of row 0: 1.5, 4.5, 9 -> 15; row 1: 6, 13.5, 22.5 -> 42.
  const xt::xtensor<double, 1> got = s.run(ys, tf::feed(rows, r), tf::feed(zero, 0.0));
  CHECK(got == xt::xtensor<double, 1>{15, 57});
  fd_check::check_gradient(s, loss, rows, fd_check::fill_uniform(seq_t(std::array<std::size_t, 2>{3, 3})),
                           tf::feed(zero, 0.25));
  fd_check::check_gradient(s, loss, w, 0.8, tf::feed(rows, r), tf::feed(zero, 0.25));
}

TEST_CASE("dynamic_loop: outputs and final states with sequence lengths") {
  // A batch of 3 examples, state [3, 2]; example b stops after lengths[b] steps.
  auto xs = tf::placeholder<"xs", double, tf::shape<tf::dyn, tf::dyn, 2>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<tf::dyn, 2>>();
  auto len = tf::placeholder<"len", std::int32_t, tf::shape<tf::dyn>>();
  auto w = tf::variable<"w", double, tf::shape<2, 2>, tf::init::constant(0.3)>();
  auto r = tf::control::dynamic_loop<"rnn">(
      [&](const auto& states, const auto& x) {
        auto h = tf::tanh(tf::matmul(std::get<0>(states), w) + x);
        return std::pair{h * h, std::tuple{h}};
      },
      xs, std::tuple{h0}, len);
  auto out = r.outputs;
  auto last = std::get<0>(r.final_state);
  tf::session s(out, last);
  s.initialize_all();
  xt::xtensor<double, 3> x = fd_check::fill_uniform(xt::xtensor<double, 3>(std::array<std::size_t, 3>{4, 3, 2}));
  const xt::xtensor<double, 2> h = fd_check::fill_uniform(xt::xtensor<double, 2>(std::array<std::size_t, 2>{3, 2}));
  const xt::xtensor<std::int32_t, 1> lengths = {4, 2, 0};
  const auto [o, f] = s.run(tf::fetch(out, last), tf::feed(xs, x), tf::feed(h0, h), tf::feed(len, lengths));
  // Each example alone, unmasked, for exactly its length.
  for (std::size_t b = 0; b < 3; ++b) {
    CAPTURE(b);
    const std::size_t n = std::size_t(lengths(b));
    xt::xtensor<double, 3> xb = xt::zeros<double>({n, std::size_t(1), std::size_t(2)});
    for (std::size_t t = 0; t < n; ++t) xt::view(xb, t, 0, xt::all()) = xt::view(x, t, b, xt::all());
    const xt::xtensor<double, 2> hb = xt::view(h, xt::range(b, b + 1), xt::all());
    const xt::xtensor<int32_t, 1> lb = {std::int32_t(n)};
    const auto [ob, fb] = s.run(tf::fetch(out, last), tf::feed(xs, xb), tf::feed(h0, hb), tf::feed(len, lb));
    for (std::size_t t = 0; t < 4; ++t)
      for (std::size_t j = 0; j < 2; ++j)
        CHECK(o(t, b, j) == doctest::Approx(t < n ? ob(t, 0, j) : 0.0).epsilon(1e-15));
    for (std::size_t j = 0; j < 2; ++j) CHECK(f(b, j) == doctest::Approx(fb(0, j)).epsilon(1e-15));
  }
  // Lengths must be one per example and not negative.
  CHECK_THROWS_WITH_AS(s.run(out, tf::feed(xs, x), tf::feed(h0, h), tf::feed(len, xt::xtensor<std::int32_t, 1>{1, 2})),
                       doctest::Contains("sequence_length has 2 entries, the batch has 3"), tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(s.run(out, tf::feed(xs, x), tf::feed(h0, h), tf::feed(len, xt::xtensor<std::int32_t, 1>{1, -2, 0})),
                       doctest::Contains("sequence_length[1] = -2 is negative"), tf::invalid_argument_error);
}

TEST_CASE("dynamic_loop: gradients through masked steps, of the outputs and of the final state") {
  auto xs = tf::placeholder<"xs", double, tf::shape<tf::dyn, 3, 2>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<3, 2>>();
  auto len = tf::placeholder<"len", std::int64_t, tf::shape<3>>();
  auto w = tf::variable<"w", double, tf::shape<2, 2>, tf::init::constant(0.3)>();
  auto r = tf::control::dynamic_loop<"rnn">(
      [&](const auto& states, const auto& x) {
        auto h = tf::tanh(tf::matmul(std::get<0>(states), w) + x);
        return std::pair{tf::sigmoid(h), std::tuple{h}};
      },
      xs, std::tuple{h0}, len);
  auto loss = tf::reduce_sum(r.outputs * r.outputs) + tf::reduce_sum(std::get<0>(r.final_state) * tf::constant<3.0>());
  tf::session s(loss, tf::gradient(loss, w), tf::gradient(loss, xs), tf::gradient(loss, h0));
  s.initialize_all();
  const xt::xtensor<std::int64_t, 1> lengths = {3, 1, 0};
  const auto x = fd_check::fill_uniform(xt::xtensor<double, 3>(std::array<std::size_t, 3>{3, 3, 2}));
  const auto h = fd_check::uniform<tf::shape<3, 2>>();
  fd_check::check_gradient(s, loss, xs, x, tf::feed(h0, h), tf::feed(len, lengths));
  fd_check::check_gradient(s, loss, h0, h, tf::feed(xs, x), tf::feed(len, lengths));
  fd_check::check_gradient(s, loss, w, fd_check::uniform<tf::shape<2, 2>>(), tf::feed(xs, x), tf::feed(h0, h),
                           tf::feed(len, lengths));
}

TEST_CASE("dynamic_loop: a training run computes each step's forward values once, for both of its reverse loops") {
  // The reverse steps are fed the values the forward steps computed (TensorFlow's stacks of
  // a while loop's forward values), not computed again: h's counting op runs once per step
  // in a run that takes the gradients of both the outputs and the final state (two reverse
  // loops, one keeping the values for both).
  using typeflow_test::counted_differentiable;
  using typeflow_test::differentiable_evaluations;
  auto xs = tf::placeholder<"xs", double, tf::shape<tf::dyn, 3, 2>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<3, 2>>();
  auto w = tf::variable<"w", double, tf::shape<2, 2>, tf::init::constant(0.3)>();
  auto r = tf::control::dynamic_loop<"rnn">(
      [&](const auto& states, const auto& x) {
        auto h = counted_differentiable<41>(tf::tanh(tf::matmul(std::get<0>(states), w) + x));
        return std::pair{tf::sigmoid(h) * h, std::tuple{h}};
      },
      xs, std::tuple{h0});
  auto out_loss = tf::reduce_sum(r.outputs * r.outputs);
  auto loss = out_loss + tf::reduce_sum(std::get<0>(r.final_state) * tf::constant<3.0>());
  auto state_loss = tf::reduce_sum(std::get<0>(r.final_state) * std::get<0>(r.final_state));
  tf::session s(loss, tf::gradient(loss, w), tf::gradient(loss, xs), tf::gradient(state_loss, w),
                tf::gradient(out_loss, h0));
  s.initialize_all();
  const auto h = fd_check::uniform<tf::shape<3, 2>>();
  for (std::size_t steps : {0u, 1u, 5u}) {
    CAPTURE(steps);
    const auto x = fd_check::fill_uniform(xt::xtensor<double, 3>(std::array<std::size_t, 3>{steps, 3, 2}));
    auto evaluations_of = [&](const auto& fetch) {
      differentiable_evaluations<41> = 0;
      (void)s.run(fetch, tf::feed(xs, x), tf::feed(h0, h));
      return std::size_t(differentiable_evaluations<41>);
    };
    CHECK(evaluations_of(loss) == steps);
    CHECK(evaluations_of(tf::fetch(tf::gradient(loss, w), tf::gradient(loss, xs))) == steps);
    CHECK(evaluations_of(tf::gradient(state_loss, w)) == steps);  // the final state's reverse loop alone
    CHECK(evaluations_of(tf::gradient(out_loss, h0)) == steps);   // the outputs' alone
    fd_check::check_gradient(s, loss, w, fd_check::uniform<tf::shape<2, 2>>(), tf::feed(xs, x), tf::feed(h0, h));
    fd_check::check_gradient(s, loss, xs, x, tf::feed(h0, h));
    fd_check::check_gradient(s, state_loss, w, fd_check::uniform<tf::shape<2, 2>>(), tf::feed(xs, x), tf::feed(h0, h));
    fd_check::check_gradient(s, out_loss, h0, h, tf::feed(xs, x));
  }
}

TEST_CASE("scan: a const session runs a loop, from several threads' worth of leases") {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn>>();
  auto zero = tf::placeholder<"zero", double>();
  auto sums = tf::scan([](auto a, auto x) { return a + x; }, elems, zero);
  const tf::session s(sums);
  const xt::xtensor<double, 1> e = {1, 2, 3};
  CHECK(s.run(sums, tf::feed(elems, e), tf::feed(zero, 1.0)) == xt::xtensor<double, 1>{2, 4, 7});
}

TEST_CASE("scan: a sequence and an initializer that are expressions, and a state of another rank than a step") {
  // The state is [2, 2], a step of the sequence [2]: the output (the state) is [time, 2, 2].
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn, 2>>();
  auto init = tf::placeholder<"init", double, tf::shape<2, 2>>();
  auto ys = tf::scan([](auto a, auto x) { return a + x; }, elems * tf::constant<2.0>(), init + tf::constant<1.0>());
  static_assert(std::is_same_v<tf::shape_of<decltype(ys)>, tf::shape<tf::dyn, 2, 2>>);
  auto loss = tf::reduce_sum(ys * ys);
  tf::session s(loss, tf::gradient(loss, elems), tf::gradient(loss, init));
  const seq_t e = {{1, 2}, {3, 4}};
  const xt::xtensor_fixed<double, xt::xshape<2, 2>> i0 = {{0, 0}, {1, 1}};
  const xt::xtensor<double, 3> got = s.run(ys, tf::feed(elems, e), tf::feed(init, i0));
  // a0 = [[1, 1], [2, 2]]; step 0 adds [2, 4] to each row, step 1 adds [6, 8].
  CHECK(got == xt::xtensor<double, 3>{{{3, 5}, {4, 6}}, {{9, 13}, {10, 14}}});
  fd_check::check_gradient(s, loss, elems, e, tf::feed(init, i0));
  fd_check::check_gradient(s, loss, init, i0, tf::feed(elems, e));
}

TEST_CASE("foldl, foldr and scan in reverse: TensorFlow's testFoldl_Simple, testFoldr_Simple, testScan_Reverse") {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn>>();
  auto init = tf::placeholder<"init", double>();
  auto twice_sum = [](auto a, auto x) { return (a + x) * tf::constant<2.0>(); };
  auto left = tf::foldl(twice_sum, elems, init);
  auto right = tf::foldr(twice_sum, elems, init);
  auto sums_from_end = tf::scan<"rscan", true>([](auto a, auto x) { return a + x; }, elems, init);
  static_assert(std::is_same_v<tf::shape_of<decltype(left)>, tf::shape<>>);
  tf::session s(left, right, sums_from_end);
  const xt::xtensor<double, 1> e = {1, 2, 3, 4, 5, 6};
  CHECK(s.run(left, tf::feed(elems, e), tf::feed(init, 10.0)) == 880.0);
  CHECK(s.run(right, tf::feed(elems, e), tf::feed(init, 10.0)) == 1282.0);
  CHECK(s.run(sums_from_end, tf::feed(elems, e), tf::feed(init, 0.0)) == xt::xtensor<double, 1>{21, 20, 18, 15, 11, 6});
  // An empty elems folds to the initializer.
  CHECK(s.run(left, tf::feed(elems, xt::xtensor<double, 1>(std::array<std::size_t, 1>{0})), tf::feed(init, 3.0)) == 3.0);
  // Gradients in reverse order.
  auto w = tf::variable<"w", double>(tf::init::constant(0.9));
  auto ys = tf::scan<"rdecay", true>([&](auto a, auto x) { return tf::tanh(a * w + x); }, elems, init);
  auto loss = tf::reduce_sum(ys * ys) + tf::foldr<"rfold">([&](auto a, auto x) { return a * w - x; }, elems, init);
  tf::session g(loss, tf::gradient(loss, w), tf::gradient(loss, elems), tf::gradient(loss, init));
  g.initialize_all();
  fd_check::check_gradient(g, loss, elems, xt::xtensor<double, 1>{0.3, -0.2, 0.5, 0.1}, tf::feed(init, 0.2));
  fd_check::check_gradient(g, loss, init, 0.2, tf::feed(elems, xt::xtensor<double, 1>{0.3, -0.2, 0.5, 0.1}));
  fd_check::check_gradient(g, loss, w, 0.7, tf::feed(elems, xt::xtensor<double, 1>{0.3, -0.2, 0.5, 0.1}), tf::feed(init, 0.2));
}
