// tests/autodiff/fd_check.hpp — checks gradient rules against central finite differences.
//
//   fd_check::check_gradient(sess, loss, x, x0, tf::feed(w, w0)...);
//   fd_check::check_gradient_node(sess, loss, gradient_node, x, x0, tf::feed(w, w0)...);
//
// fetches tf::gradient(loss, x) with x = x0 (and the other feeds), then, for each element
// i of x, runs loss with x0 + h e_i and x0 - h e_i and compares the gradient's element i
// with (loss+ - loss-) / 2h. Everything is double: h = 1e-6 max(1, |x0_i|) (relative),
// and a gradient passes when |got - fd| <= atol + rtol |fd| (1e-6 each). Truncation error
// is O(h^2) and round-off about 1e-16 |loss| / h, both far below the tolerance for the
// smooth, moderate losses the tests build; a wrong rule is off by O(1).
//
// Random values come from a std::mt19937 with a fixed seed, so a failure reproduces.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <type_traits>

#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

namespace fd_check {

namespace tf = typeflow;

struct tolerance {
  double step = 1e-6;  // relative: h = step * max(1, |x_i|)
  double rtol = 1e-6;
  double atol = 1e-6;
};

/// The value type fed to / fetched from a double node of static shape S.
template <class S>
using value_t = tf::storage_t<double, S>;

/// Element i of a value (the value itself for a scalar).
template <class V>
double& element(V& v, std::size_t i) {
  if constexpr (std::is_arithmetic_v<V>) {
    (void)i;
    return v;
  } else {
    return v.flat(i);
  }
}
template <class V>
double element(const V& v, std::size_t i) {
  if constexpr (std::is_arithmetic_v<V>) {
    (void)i;
    return v;
  } else {
    return v.flat(i);
  }
}
template <class V>
std::size_t size_of(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return 1;
  } else {
    return v.size();
  }
}

/// The random source of a test case: fixed seed, so failures reproduce.
inline std::mt19937& rng() {
  static std::mt19937 gen(20240603u);
  return gen;
}

/// v with uniform values in [lo, hi] (v gives the shape, for dynamic dims).
template <class V>
V fill_uniform(V v, double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> d(lo, hi);
  for (std::size_t i = 0; i < size_of(v); ++i) element(v, i) = d(rng());
  return v;
}

/// v with values whose magnitude is in [lo, hi], with random signs: away from 0, for abs,
/// relu and sign, whose gradients jump there.
template <class V>
V fill_away_from_zero(V v, double lo = 0.2, double hi = 1.5) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::bernoulli_distribution negative(0.5);
  for (std::size_t i = 0; i < size_of(v); ++i) element(v, i) = negative(rng()) ? -d(rng()) : d(rng());
  return v;
}

/// v with values on the grid offset + k/4, k in [-6, 6]: two values filled with offsets
/// that differ by 1/8 are never closer than 1/8, so maximum and minimum stay away from ties.
template <class V>
V fill_grid(V v, double offset) {
  std::uniform_int_distribution<int> k(-6, 6);
  for (std::size_t i = 0; i < size_of(v); ++i) element(v, i) = offset + 0.25 * k(rng());
  return v;
}

/// Uniform values in [lo, hi] for a node of static shape S.
template <class S>
value_t<S> uniform(double lo = -1.0, double hi = 1.0) {
  return fill_uniform(value_t<S>{}, lo, hi);
}

/// Values away from 0 (|v| in [lo, hi]) for a node of static shape S.
template <class S>
value_t<S> away_from_zero(double lo = 0.2, double hi = 1.5) {
  return fill_away_from_zero(value_t<S>{}, lo, hi);
}

/// Grid values (see fill_grid) for a node of static shape S.
template <class S>
value_t<S> grid(double offset) {
  return fill_grid(value_t<S>{}, offset);
}

/// Positive values in [lo, hi], for sqrt, log and divisors.
template <class S>
value_t<S> positive(double lo = 0.5, double hi = 2.0) {
  return uniform<S>(lo, hi);
}

/// Compares the node `gradient` (of x's shape), fetched with x = x0, with central
/// differences of the scalar `loss` with respect to x: for gradients built another way
/// than gradient(loss, x) (grad_ys, a non-scalar y, a gradient of a gradient). `x` is a
/// placeholder or any node the runs may feed; `feeds` give the other placeholders.
/// x's shape is static, or dynamic with x0 an xt::xtensor.
template <class Session, class Loss, class Gradient, class X, class... Feeds>
void check_gradient_node(Session& sess, Loss loss, Gradient gradient, X x, const value_t<tf::shape_of<X>>& x0,
                         const Feeds&... feeds) {
  static_assert(tf::shape_of<Loss>::rank == 0, "check_gradient needs a scalar loss");
  static_assert(std::is_same_v<tf::value_type_of<Loss>, double> && std::is_same_v<tf::value_type_of<X>, double>,
                "check_gradient works in double precision");
  static_assert(std::is_same_v<tf::shape_of<Gradient>, tf::shape_of<X>>, "a gradient has x's shape");
  constexpr tolerance tol{};

  const value_t<tf::shape_of<X>> got = sess.run(gradient, tf::feed(x, x0), feeds...);
  if constexpr (!std::is_arithmetic_v<value_t<tf::shape_of<X>>>) {
    REQUIRE(std::equal(got.shape().begin(), got.shape().end(), x0.shape().begin(), x0.shape().end()));
  }
  for (std::size_t i = 0; i < size_of(x0); ++i) {
    value_t<tf::shape_of<X>> xp = x0, xm = x0;
    const double h = tol.step * std::max(1.0, std::abs(element(x0, i)));
    element(xp, i) += h;
    element(xm, i) -= h;
    const double lp = sess.run(loss, tf::feed(x, xp), feeds...);
    const double lm = sess.run(loss, tf::feed(x, xm), feeds...);
    const double fd = (lp - lm) / (element(xp, i) - element(xm, i));  // the step actually taken
    const double gi = element(got, i);
    INFO("element " << i << " of " << size_of(x0) << ": gradient " << gi << ", central difference " << fd);
    CHECK(std::abs(gi - fd) <= tol.atol + tol.rtol * std::abs(fd));
  }
}

/// Compares tf::gradient(loss, x), fetched with x = x0, with central differences of the
/// scalar `loss`: see check_gradient_node.
template <class Session, class Loss, class X, class... Feeds>
void check_gradient(Session& sess, Loss loss, X x, const value_t<tf::shape_of<X>>& x0, const Feeds&... feeds) {
  check_gradient_node(sess, loss, tf::gradient(loss, x), x, x0, feeds...);
}

}  // namespace fd_check
