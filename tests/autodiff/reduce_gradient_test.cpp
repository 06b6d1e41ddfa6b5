// Gradient rules of reduce_sum and reduce_mean (ops/reduce.hpp): over all axes, over each
// axis, negative and several axes, with and without keep_dims, on [3], [2, 3] and
// [2, 3, 4], and on a dynamic dim.
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "fd_check.hpp"
#include "op_testing.hpp"

namespace tf = typeflow;
using op_testing::check_unary;
using tf::keep_dims;

namespace {
// reduce_sum and reduce_mean over Axes..., with and without keep_dims, on x of shape S.
template <class S, std::ptrdiff_t... Axes>
void check_reductions() {
  const auto x0 = fd_check::uniform<S>();
  {
    INFO("reduce_sum");
    check_unary<S>([](auto a) { return tf::reduce_sum<Axes...>(a); }, x0);
  }
  {
    INFO("reduce_sum, keep_dims");
    check_unary<S>([](auto a) { return tf::reduce_sum<Axes...>(a, keep_dims); }, x0);
  }
  {
    INFO("reduce_mean");
    check_unary<S>([](auto a) { return tf::reduce_mean<Axes...>(a); }, x0);
  }
  {
    INFO("reduce_mean, keep_dims");
    check_unary<S>([](auto a) { return tf::reduce_mean<Axes...>(a, keep_dims); }, x0);
  }
}
}  // namespace

TEST_CASE("reductions over all axes") {
  check_reductions<tf::shape<>>();
  check_reductions<tf::shape<3>>();
  check_reductions<tf::shape<2, 3>>();
  check_reductions<tf::shape<2, 3, 4>>();
}

TEST_CASE("reductions of [3] over axis 0 and -1") {
  check_reductions<tf::shape<3>, 0>();
  check_reductions<tf::shape<3>, -1>();
}

TEST_CASE("reductions of [2, 3] over axis 0, 1, -1 and both") {
  check_reductions<tf::shape<2, 3>, 0>();
  check_reductions<tf::shape<2, 3>, 1>();
  check_reductions<tf::shape<2, 3>, -1>();
  check_reductions<tf::shape<2, 3>, 1, 0>();
}

TEST_CASE("reductions of [2, 3, 4] over each axis") {
  check_reductions<tf::shape<2, 3, 4>, 0>();
  check_reductions<tf::shape<2, 3, 4>, 1>();
  check_reductions<tf::shape<2, 3, 4>, 2>();
  check_reductions<tf::shape<2, 3, 4>, -2>();
}

TEST_CASE("reductions of [2, 3, 4] over several axes: (0, 2), (-1, 0), (0, 1, 2)") {
  check_reductions<tf::shape<2, 3, 4>, 0, 2>();
  check_reductions<tf::shape<2, 3, 4>, -1, 0>();
  check_reductions<tf::shape<2, 3, 4>, 0, 1, 2>();
}

TEST_CASE("reductions with a dynamic dim: [dyn, 3] fed [4, 3] over axis 0, 1 and all") {
  using S = tf::shape<tf::dyn, 3>;
  const auto x0 = fd_check::fill_uniform(xt::xtensor<double, 2>::from_shape({4, 3}));
  check_unary<S>([](auto a) { return tf::reduce_sum<0>(a); }, x0);
  check_unary<S>([](auto a) { return tf::reduce_mean<0>(a, keep_dims); }, x0);
  check_unary<S>([](auto a) { return tf::reduce_mean<1>(a); }, x0);
  check_unary<S>([](auto a) { return tf::reduce_sum<-1>(a, keep_dims); }, x0);
  check_unary<S>([](auto a) { return tf::reduce_mean(a); }, x0);
}
