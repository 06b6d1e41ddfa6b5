// typeflow/ops/softmax.hpp — tf.nn.softmax and tf.nn.log_softmax, over the last axis or
// another one. Numerically stable: the row maximum is subtracted before exponentiating.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/transpose.hpp"

namespace typeflow {

namespace ops::detail {
struct softmax_tag : op_info<"Softmax"> {
  static constexpr bool log = false;
};
struct log_softmax_tag : op_info<"LogSoftmax"> {
  static constexpr bool log = true;
};
}  // namespace ops::detail

/// The gradient of softmax (from its output y): y * (g - sum(g * y)) per row; of
/// log_softmax (from its output z): g - exp(z) * sum(g) per row.
template <class Kind, int Slot, class GG, class G, class Y>
struct softmax_second_node;

template <class Kind, class G, class Y>
struct softmax_gradient_node
    : node_facade<value_type_of<Y>, shape_of<Y>, node_kind::compute, G, Y>,
      std::conditional_t<Kind::log, op_info<"LogSoftmaxGrad">, op_info<"SoftmaxGrad">> {
  template <class... N>
  using rebind = softmax_gradient_node<Kind, N...>;

  // Second order (Hessian-vector products through softmax): the derivatives of this
  // node's output with respect to g and to y, given GG for it. Softmax's Jacobian is
  // symmetric, so with respect to g it is SoftmaxGrad again.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0 && !Kind::log, softmax_gradient_node<Kind, GG, Y>,
                               softmax_second_node<Kind, int(K), GG, G, Y>>;

  template <class Out, class VG, class VY>
  static void compute(Out& out, const VG& g, const VY& y) {
    using T = value_type_of<Y>;
    if constexpr (!shape_of<Y>::is_static) out.resize(y.shape());
    const std::size_t cols = y.shape()[shape_of<Y>::rank - 1];
    const std::size_t total = y.size();
    const T* gp = g.data();
    const T* yp = y.data();
    T* o = out.data();
    for (std::size_t row = 0; cols != 0 && row < total / cols; ++row) {
      const T* gr = gp + row * cols;
      const T* yr = yp + row * cols;
      T* orow = o + row * cols;
      T dot = 0;
      for (std::size_t j = 0; j < cols; ++j) dot += Kind::log ? gr[j] : gr[j] * yr[j];
      for (std::size_t j = 0; j < cols; ++j)
        orow[j] = Kind::log ? gr[j] - std::exp(yr[j]) * dot : yr[j] * (gr[j] - dot);
    }
  }
};

/// Per row, with sums over the last axis:
///   softmax, slot 1 (y):      GG (g - sum(g y)) - g sum(GG y)
///   log_softmax, slot 0 (g):  GG - sum(GG exp(z))
///   log_softmax, slot 1 (z):  -GG exp(z) sum(g)
template <class Kind, int Slot, class GG, class G, class Y>
struct softmax_second_node
    : node_facade<value_type_of<Y>, shape_of<Y>, node_kind::compute, GG, G, Y>,
      std::conditional_t<Kind::log, op_info<"LogSoftmaxGradGrad", false>, op_info<"SoftmaxGradGrad", false>> {
  template <class... N>
  using rebind = softmax_second_node<Kind, Slot, N...>;

  template <class Out, class VGG, class VG, class VY>
  static void compute(Out& out, const VGG& gg, const VG& g, const VY& y) {
    using T = value_type_of<Y>;
    if constexpr (!shape_of<Y>::is_static) out.resize(y.shape());
    const std::size_t cols = y.shape()[shape_of<Y>::rank - 1];
    const std::size_t total = y.size();
    for (std::size_t row = 0; cols != 0 && row < total / cols; ++row) {
      const T* a = gg.data() + row * cols;
      const T* b = g.data() + row * cols;
      const T* c = y.data() + row * cols;
      T* o = out.data() + row * cols;
      T s1 = 0, s2 = 0;
      for (std::size_t j = 0; j < cols; ++j) {
        if constexpr (Kind::log) {
          s1 += Slot == 0 ? a[j] * std::exp(c[j]) : b[j];
        } else {
          s1 += b[j] * c[j];
          s2 += a[j] * c[j];
        }
      }
      for (std::size_t j = 0; j < cols; ++j) {
        if constexpr (Kind::log) {
          o[j] = Slot == 0 ? a[j] - s1 : -a[j] * std::exp(c[j]) * s1;
        } else {
          o[j] = a[j] * (b[j] - s1) - b[j] * s2;
        }
      }
    }
  }
};

template <class Kind, class A>
struct softmax_node : node_facade<value_type_of<A>, shape_of<A>, node_kind::compute, A>, op_info_of<Kind> {
  template <class... N>
  using rebind = softmax_node<Kind, N...>;

  template <std::size_t K, class G>
  using gradient = softmax_gradient_node<Kind, G, softmax_node>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    using T = value_type_of<A>;
    if constexpr (!shape_of<A>::is_static) out.resize(a.shape());
    const std::size_t cols = a.shape()[shape_of<A>::rank - 1];
    const std::size_t total = a.size();
    const T* in = a.data();
    T* o = out.data();
    for (std::size_t row = 0; cols != 0 && row < total / cols; ++row) {
      const T* x = in + row * cols;
      T* y = o + row * cols;
      const T mx = *std::max_element(x, x + cols);
      T sum = 0;
      for (std::size_t j = 0; j < cols; ++j) {
        const T e = std::exp(x[j] - mx);
        sum += e;
        y[j] = Kind::log ? x[j] - mx : e;
      }
      if constexpr (Kind::log) {
        const T ls = std::log(sum);
        for (std::size_t j = 0; j < cols; ++j) y[j] -= ls;
      } else {
        for (std::size_t j = 0; j < cols; ++j) y[j] /= sum;
      }
    }
  }
};

/// In a diagnostic: the axis of softmax<axis> or log_softmax<axis> is outside [-rank, rank).
template <int Axis, std::size_t Rank>
struct softmax_axis_is_out_of_range {
  static constexpr bool value = false;
};

namespace ops::detail {
/// The permutation of rank R that swaps axis A with the last one (TensorFlow's _swap_axis).
template <std::size_t A, std::size_t R, std::size_t... I>
constexpr auto swap_with_last(std::index_sequence<I...>) {
  return std::index_sequence<(I == A ? R - 1 : I == R - 1 ? A : I)...>{};
}
}  // namespace ops::detail

// softmax and log_softmax differ only in their kind; the macro gives each function a
// diagnostic that names it. Along another axis than the last, as TensorFlow 1.x's
// _softmax(logits, compute_op, dim): that axis swapped with the last, the op, and the swap
// undone (two transposes; the gradient comes through them).
#define TYPEFLOW_SOFTMAX(name, tag)                                                            \
  template <node A>                                                                            \
  constexpr auto name(const A& a) {                                                            \
    static_assert(op_needs_a_floating_point_operand<value_type_of<A>>::value,                  \
                  "typeflow::" #name "(x) needs a float or double x");                         \
    static_assert(shape_of<A>::rank >= 1, "typeflow::" #name "(x) needs x of rank 1 or more"); \
    return make_node<softmax_node<ops::detail::tag, A>>(a);                                    \
  }                                                                                            \
  template <int Axis, node A>                                                                  \
  constexpr auto name(const A& a) {                                                            \
    constexpr int rank = static_cast<int>(shape_of<A>::rank);                                  \
    if constexpr (Axis < -rank || Axis >= rank) {                                              \
      static_assert(softmax_axis_is_out_of_range<Axis, shape_of<A>::rank>::value,              \
                    "typeflow::" #name "<axis>(x): axis must be in [-rank, rank)");            \
      return a; /* inert: the error above is the one to read */                                \
    } else if constexpr (Axis == -1 || Axis == rank - 1) {                                     \
      return name(a);                                                                          \
    } else {                                                                                   \
      constexpr auto axis = static_cast<std::size_t>(Axis < 0 ? Axis + rank : Axis);           \
      return [&]<std::size_t... P>(std::index_sequence<P...>) {                                \
        return transpose<P...>(name(transpose<P...>(a)));                                      \
      }(ops::detail::swap_with_last<axis, shape_of<A>::rank>(                                  \
                 std::make_index_sequence<shape_of<A>::rank>{}));                               \
    }                                                                                          \
  }

/// tf.nn.softmax(x) over the last axis; x needs rank >= 1 and a floating type.
/// `softmax<axis>(x)` is tf.nn.softmax(x, axis) (a negative axis counts from the end).
TYPEFLOW_SOFTMAX(softmax, softmax_tag)
/// tf.nn.log_softmax(x) over the last axis; `log_softmax<axis>(x)` over another.
TYPEFLOW_SOFTMAX(log_softmax, log_softmax_tag)
#undef TYPEFLOW_SOFTMAX

}  // namespace typeflow
