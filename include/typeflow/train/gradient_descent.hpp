// typeflow/train/gradient_descent.hpp — tf.train.GradientDescentOptimizer.
#pragma once

#include <array>
#include <string_view>

#include "typeflow/core/detail/independent_loop.hpp"
#include "typeflow/ops/matmul.hpp"
#include "typeflow/ops/rewrite.hpp"
#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

namespace detail {
template <class G>
struct is_rank2_float_matmul : std::false_type {};
template <class A, class B, bool TA, bool TB>
struct is_rank2_float_matmul<matmul_node<A, B, TA, TB>>
    : std::bool_constant<floating_element<value_type_of<A>> && shape_of<A>::rank == 2> {};
}  // namespace detail

/// var -= learning_rate * gradient; the learning rate is the scalar node LR.
template <fixed_string Name, class LR>
struct gradient_descent_def : no_step_state, optimizer_info<Name, "GradientDescent"> {
  using hyper_nodes = mp::mp_list<LR>;
  template <class V>
  using slots = mp::mp_list<>;
  static constexpr std::array<std::string_view, 0> slot_names{};

  struct step_values {
    double learning_rate;
  };
  template <class V, class Ctx>
  static step_values prepare(Ctx& ctx) {
    return {detail::hyper_value<LR>(ctx)};
  }
  // A matmul gradient (a dense layer's kernel) is not materialized: the update is one
  // gemm, var = -learning_rate * op(a) op(b) + var. A gradient y * c, c a power-of-two
  // literal (the form ops/rewrite.hpp leaves literal factors in), is not either: the update
  // is var -= (learning_rate c) y, the product computed once per run, as a hand-written
  // loop hoists it; scaling by a power of two is exact, so the value is lr (y c)'s.
  template <class G>
  static constexpr bool fuses = detail::is_rank2_float_matmul<G>::value || ops::detail::scaled_c<G>::value;
  template <class V, class G, class Ctx>
  static void apply_fused(Ctx& ctx, const step_values& h) {
    using T = value_type_of<V>;
    if constexpr (ops::detail::scaled_c<G>::value) {
      // (lr c) rounded to T is lr rounded to T times c: c is a power of two.
      using Y = mp::mp_at_c<inputs_of<G>, 0>;
      const step_values scaled{h.learning_rate * mp::mp_at_c<inputs_of<G>, 1>::value};
      detail::check_gradient_size<V>(ctx.template value<Y>());
      if constexpr (std::is_same_v<Y, V>) {  // apply reads the gradient through a restrict pointer
        const result_t<V> y = ctx.template value<Y>();
        apply<V>(ctx, scaled, y);
      } else {
        apply<V>(ctx, scaled, ctx.template value<Y>());
      }
    } else {
      const auto& a = ctx.template value<mp::mp_at_c<inputs_of<G>, 0>>();
      const auto& b = ctx.template value<mp::mp_at_c<inputs_of<G>, 1>>();
      const std::size_t r = G::transpose_a ? a.shape()[1] : a.shape()[0];
      const std::size_t c = G::transpose_b ? b.shape()[0] : b.shape()[1];
      if (r * c != shape_of<V>::size)
        throw invalid_argument_error("The gradient of variable " + std::string(V::name.view()) + " has " +
                                     std::to_string(r * c) + " elements, the variable " +
                                     std::to_string(shape_of<V>::size));
      G::accumulate(detail::data_of(ctx.template slot_of<V>().value), static_cast<T>(-h.learning_rate), T(1), a, b);
    }
  }
  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const step_values& h, const G& g) {
    using T = value_type_of<V>;
    T* v = detail::data_of(ctx.template slot_of<V>().value);
    const T* gp = detail::data_of(g);
    const T lr = static_cast<T>(h.learning_rate);
    core::detail::independent_loop<shape_of<V>::size>([&](std::size_t i) { v[i] -= lr * gp[i]; });
  }
  // A sparse gradient (train/sparse_update.hpp): TensorFlow's scatter_sub of the rows.
  template <class V, class Ctx>
  static void apply_sparse(Ctx& ctx, const step_values& h, const unique_slices<value_type_of<V>>& s) {
    using T = value_type_of<V>;
    T* v = detail::data_of(ctx.template slot_of<V>().value);
    const T lr = static_cast<T>(h.learning_rate);
    for (std::size_t k = 0; k < s.size(); ++k) {
      T* __restrict r = v + static_cast<std::size_t>(s.row(k)) * s.width();
      const T* __restrict g = s.values(k);
      for (std::size_t j = 0; j < s.width(); ++j) r[j] -= lr * g[j];
    }
  }
};

/// `gradient_descent(0.1).minimize(loss)`; the learning rate is a number (the named
/// constant "GradientDescent/learning_rate") or a scalar node; `gradient_descent<"SGD2">(0.5)`
/// names another one.
template <fixed_string Name = "GradientDescent", class LR>
auto gradient_descent(const LR& learning_rate) {
  using def = gradient_descent_def<Name, detail::hyperparameter_t<Name, "learning_rate", LR>>;
  return optimizer<def>(std::make_tuple(detail::hyperparameter<Name, "learning_rate">(learning_rate)));
}

/// The type of `gradient_descent<Name>(number)`.
template <fixed_string Name = "GradientDescent">
using gradient_descent_optimizer = decltype(gradient_descent<Name>(0.0));

}  // namespace typeflow::train
