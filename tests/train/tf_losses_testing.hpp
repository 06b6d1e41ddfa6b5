// What the two ports of TensorFlow's losses_test.py share: its assertions and a run of a loss.
#pragma once

#include <cmath>
#include <cstddef>

#include <doctest/doctest.h>

#include <typeflow/typeflow.hpp>

namespace tf_losses_testing {

namespace tf = typeflow;

template <class T, std::size_t... D>
using fixed = xt::xtensor_fixed<T, xt::xshape<D...>>;

// assertAlmostEqual(first, second, places): round(second - first, places) == 0.
inline void check_almost_equal(double want, double got, int places) {
  INFO("expected " << want << ", got " << got << " (to " << places << " places)");
  CHECK(std::abs(got - want) <= 0.5 * std::pow(10.0, -places));
}

// assertAllClose(a, b, rtol, atol): |a - b| <= atol + rtol |b|, b the expected value.
inline void check_all_close(double want, double got, double atol = 1e-6, double rtol = 1e-6) {
  INFO("expected " << want << ", got " << got);
  CHECK(std::abs(got - want) <= atol + rtol * std::abs(want));
}

// The value of `loss`, run in a session of its own with `feeds`.
template <class Loss, class... Feeds>
auto evaluate(const Loss& loss, const Feeds&... feeds) {
  tf::session sess(loss);
  return sess.run(loss, feeds...);
}

}  // namespace tf_losses_testing
