// Loop constants (control/scan.hpp, dynamic_loop with control::constants): a loop's body
// reads outer nodes, as TensorFlow's while_loop captures outer tensors through Enter.
// Values against the same computation unrolled by hand, TensorFlow's testWhileGrad_Mul
// (control_flow_ops_py_test.py), and gradients against central differences: of the
// constant (with a dynamic batch, also used outside the loop), the initial state and the
// sequence.
#include <doctest/doctest.h>

#include <cmath>
#include <tuple>

#include <typeflow/control/scan.hpp>
#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;

TEST_CASE("loop constants: TensorFlow's testWhileGrad_Mul, v = v * a four times from 2, a = 3") {
  // TensorFlow: a = constant(3.0); v = constant(2.0); while_loop(v < 100, v * a): four
  // steps, r = 162, dr/da = 216, dr/dv = 81. Here the trip count is the sequence's length
  // (four steps, the elements unused), and a is an outer node computed from a placeholder.
  auto a_in = tf::placeholder<"a_in", double>();
  auto v = tf::placeholder<"v", double>();
  auto steps = tf::placeholder<"steps", double, tf::shape<tf::dyn>>();
  auto a = tf::identity(a_in);
  auto r = std::get<0>(tf::control::dynamic_loop<"mul">(
                           [](const auto& s, const auto& x, const auto& c) {
                             auto next = std::get<0>(s) * std::get<0>(c) + x;  // x is 0
                             return std::pair{next, std::tuple{next}};
                           },
                           steps, std::tuple{v}, tf::control::constants{a})
                           .final_state);
  static_assert(tf::placeholder_node_type<tf::placeholder_node<"mul/while/capture_0", double, tf::scalar>>);
  auto ga = tf::gradient(r, a_in);
  auto gv = tf::gradient(r, v);
  tf::session s(r, ga, gv);
  const xt::xtensor<double, 1> four = {0, 0, 0, 0};
  const auto [rv, gav, gvv] = s.run(std::tuple{r, ga, gv}, tf::feed(a_in, 3.0), tf::feed(v, 2.0), tf::feed(steps, four));
  CHECK(rv == doctest::Approx(162.0));
  CHECK(gav == doctest::Approx(216.0));
  CHECK(gvv == doctest::Approx(81.0));
}

TEST_CASE("loop constants: a scan whose fn reads an outer tensor, a * v + x over [1..6] with v = 2") {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn>>();
  auto zero = tf::placeholder<"zero", double>();
  auto v_in = tf::placeholder<"v_in", double>();
  auto v = tf::identity(v_in);
  auto ys = tf::control::dynamic_loop<"scan">(
                [](const auto& s, const auto& x, const auto& c) {
                  auto acc = std::get<0>(s) * std::get<0>(c) + x;
                  return std::pair{acc, std::tuple{acc}};
                },
                elems, std::tuple{zero}, tf::control::constants{v})
                .outputs;
  auto gv = tf::gradient(tf::reduce_sum(ys), v_in);
  tf::session s(ys, gv);
  const xt::xtensor<double, 1> e = {1, 2, 3, 4, 5, 6};
  const xt::xtensor<double, 1> got = s.run(ys, tf::feed(elems, e), tf::feed(v_in, 2.0), tf::feed(zero, 0.0));
  CHECK(got == xt::xtensor<double, 1>{1, 4, 11, 26, 57, 120});
  // d/dv of sum_t a_t, a_t = v a_{t-1} + x_t: da_t/dv = a_{t-1} + v da_{t-1}/dv.
  double a_prev = 0, d_prev = 0, total = 0;
  for (double x : e) {
    const double d = a_prev + 2.0 * d_prev;
    a_prev = 2.0 * a_prev + x;
    d_prev = d;
    total += d;
  }
  CHECK(s.run(gv, tf::feed(elems, e), tf::feed(v_in, 2.0), tf::feed(zero, 0.0)) == doctest::Approx(total));
}

namespace {
using mat = xt::xtensor<double, 2>;
using seq = xt::xtensor<double, 3>;

// One step of the loop below: h' = tanh(h * c + x w), its output h' * c + h'.
template <class H, class X, class C, class W>
auto step(const H& h, const X& x, const C& c, const W& w) {
  auto next = tf::tanh(h * c + tf::matmul(x, w));
  return std::pair{next * c + next, next};
}
}  // namespace

TEST_CASE("loop constants: values as unrolled by hand, gradients of a constant with a dynamic batch") {
  auto x0 = tf::placeholder<"x0", double, tf::shape<tf::dyn, 2>>();
  auto x1 = tf::placeholder<"x1", double, tf::shape<tf::dyn, 2>>();
  auto x2 = tf::placeholder<"x2", double, tf::shape<tf::dyn, 2>>();
  auto h0 = tf::placeholder<"h0", double, tf::shape<tf::dyn, 3>>();
  auto c_in = tf::placeholder<"c_in", double, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"w", double, tf::shape<2, 3>, tf::init::constant(0.4)>();
  auto c = tf::sigmoid(c_in);  // the constant: an outer node of dynamic batch
  auto xs = tf::stack<0>(x0, x1, x2);
  auto r = tf::control::dynamic_loop<"rnn">(
      [&](const auto& s, const auto& x, const auto& consts) {
        auto [o, n] = step(std::get<0>(s), x, std::get<0>(consts), w);
        return std::pair{o, std::tuple{n}};
      },
      xs, std::tuple{h0}, tf::control::constants{c});
  auto [o0, n0] = step(h0, x0, c, w);
  auto [o1, n1] = step(n0, x1, c, w);
  auto [o2, n2] = step(n1, x2, c, w);
  auto unrolled = tf::stack<0>(o0, o1, o2);
  auto final_state = std::get<0>(r.final_state);
  // The constant is also read outside the loop: its gradients add up.
  auto loss = tf::reduce_sum(r.outputs * r.outputs) + tf::reduce_sum(final_state * c) + tf::reduce_sum(c * c);
  tf::session s(r.outputs, final_state, unrolled, n2, loss, tf::gradient(loss, c_in), tf::gradient(loss, h0),
                tf::gradient(loss, x0), tf::gradient(loss, w));
  s.initialize_all();
  for (std::size_t batch : {1u, 4u}) {
    CAPTURE(batch);
    auto u = [&](std::size_t cols) { return fd_check::fill_uniform(mat(std::array<std::size_t, 2>{batch, cols})); };
    const mat vx0 = u(2), vx1 = u(2), vx2 = u(2), vh = u(3), vc = u(3);
    const auto feeds = std::tuple{tf::feed(x0, vx0), tf::feed(x1, vx1), tf::feed(x2, vx2), tf::feed(h0, vh)};
    const auto [got, fin, want, want_fin] =
        s.run(std::tuple{r.outputs, final_state, unrolled, n2}, std::get<0>(feeds), std::get<1>(feeds),
              std::get<2>(feeds), std::get<3>(feeds), tf::feed(c_in, vc));
    REQUIRE(got.shape() == want.shape());
    CHECK(xt::amax(xt::abs(seq(got) - seq(want)))() < 1e-14);
    CHECK(xt::amax(xt::abs(mat(fin) - mat(want_fin)))() < 1e-14);
    fd_check::check_gradient(s, loss, c_in, vc, tf::feed(x0, vx0), tf::feed(x1, vx1), tf::feed(x2, vx2), tf::feed(h0, vh));
    fd_check::check_gradient(s, loss, h0, vh, tf::feed(x0, vx0), tf::feed(x1, vx1), tf::feed(x2, vx2), tf::feed(c_in, vc));
    fd_check::check_gradient(s, loss, x0, vx0, tf::feed(x1, vx1), tf::feed(x2, vx2), tf::feed(h0, vh), tf::feed(c_in, vc));
    fd_check::check_gradient(s, loss, w, fd_check::fill_uniform(xt::xtensor_fixed<double, xt::xshape<2, 3>>{}),
                             tf::feed(x0, vx0), tf::feed(x1, vx1), tf::feed(x2, vx2), tf::feed(h0, vh),
                             tf::feed(c_in, vc));
  }
}
