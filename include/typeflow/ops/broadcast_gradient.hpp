// typeflow/ops/broadcast_gradient.hpp — sum_to and zeros_like / ones_like: the ops that
// gradient rules of broadcasting ops are made of.
//
// sum_to(g, a) sums g over the dimensions along which a was broadcast, giving a's shape
// (TensorFlow's BroadcastGradientArgs + reduce_sum + reshape, in one op). The shapes are
// taken at run time, so dynamic dimensions are handled.
#pragma once

#include <array>
#include <type_traits>

#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

namespace ops::detail {
template <class G, class A>
struct sum_to_impl;

/// V in x's type and shape: zeros_like and ones_like, through which no gradient flows.
template <int V, fixed_string OpName>
struct fill_op : op_info<OpName> {
  template <class T> constexpr T operator()(T) const { return T(V); }
  template <std::size_t K, class G, class Self, class... In>
  using gradient = no_gradient;
};
}  // namespace ops::detail

namespace fn {
/// The first operand, broadcast to the shape of both: broadcast_like(g, x).
struct first : op_info<"BroadcastTo"> {
  template <class T, class U> constexpr T operator()(T a, U) const { return a; }
  template <std::size_t K, class G, class Self, class A, class B>
  using gradient = mp::mp_if_c<K == 0, typename ops::detail::sum_to_impl<G, A>::type, no_gradient>;
};
struct zero : ops::detail::fill_op<0, "ZerosLike"> {};
struct one : ops::detail::fill_op<1, "OnesLike"> {};
}  // namespace fn

template <class G, class A>
struct sum_to_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>, op_info<"Sum"> {
  template <class... N>
  using rebind = sum_to_node<N...>;

  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, elementwise_node<fn::first, GG, G>, no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& g, const VA& a) {
    using T = value_type_of<G>;
    constexpr std::size_t rg = shape_of<G>::rank;
    constexpr std::size_t ra = shape_of<A>::rank;
    static_assert(ra <= rg);
    if constexpr (std::is_arithmetic_v<VG>) {
      out = g;
    } else if constexpr (ra == 0) {
      T acc{};
      for (auto x : g) acc += x;
      out = acc;
    } else if constexpr (rg >= 2 && ra == 1 && shape_of<A>::is_static && shape_of<A>::dims[0] != 1 &&
                         shape_of<G>::dims[rg - 1] == shape_of<A>::dims[0]) {
      // The bias gradient: the sum of g's rows of its last dim (a dense layer's [N, O] or a
      // convolution's [N, H, W, O]; leading dims may be dynamic), a loop that vectorizes.
      constexpr std::size_t cols = std::size_t(shape_of<A>::dims[0]);
      const std::size_t rows = std::size_t(g.size()) / cols;
      T* __restrict o = out.data();
      const T* __restrict gp = g.data();
      for (std::size_t j = 0; j < cols; ++j) o[j] = rows == 0 ? T(0) : gp[j];
      for (std::size_t r = 1; r < rows; ++r)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
        for (std::size_t j = 0; j < cols; ++j) o[j] += gp[r * cols + j];
    } else {
      if constexpr (!shape_of<A>::is_static) out.resize(a.shape());
      const auto& gs = g.shape();
      const auto& as = a.shape();
      std::array<std::size_t, rg> ostride{};
      std::size_t s = 1;
      for (std::size_t d = rg; d-- > 0;) {
        if (d < rg - ra) {
          ostride[d] = 0;
        } else {
          const std::size_t ad = as[d - (rg - ra)];
          ostride[d] = (ad == 1 && gs[d] != 1) ? 0 : s;
          s *= ad;
        }
      }
      T* o = out.data();
      std::fill(out.begin(), out.end(), T(0));
      std::array<std::size_t, rg> idx{};
      std::size_t oi = 0;
      for (auto it = g.begin(); it != g.end(); ++it) {
        o[oi] += *it;
        for (std::size_t d = rg; d-- > 0;) {
          oi += ostride[d];
          if (++idx[d] < gs[d]) break;
          oi -= ostride[d] * idx[d];
          idx[d] = 0;
        }
      }
    }
  }
};

namespace ops::detail {
template <class G, class A>
struct sum_to_impl {
  using type = sum_to_node<G, A>;
};
template <class A>
struct sum_to_impl<no_gradient, A> {
  using type = no_gradient;
};
// Nothing was broadcast: the gradient passes as it is.
template <class G, class A>
  requires(std::is_same_v<shape_of<G>, shape_of<A>> && shape_of<A>::is_static)
struct sum_to_impl<G, A> {
  using type = G;
};
}  // namespace ops::detail

/// g summed down to the shape of a (the gradient of a broadcast operand).
template <class G, class A>
using sum_to_t = typename ops::detail::sum_to_impl<G, A>::type;

/// Zeros of a static shape, with no input: the gradient where no path joins x to y.
template <class T, class S>
struct zeros_node : node_facade<T, S, node_kind::compute>, op_info<"zeros"> {
  template <class... N>
  using rebind = zeros_node;
  template <std::size_t K, class G>
  using gradient = no_gradient;
  template <class Out>
  static void compute(Out& out) {
    if constexpr (std::is_arithmetic_v<Out>) {
      out = T(0);
    } else {
      std::fill(out.begin(), out.end(), T(0));
    }
  }
};

/// tf.zeros_like(x), tf.ones_like(x)
template <node A> constexpr auto zeros_like(A a) { return make_unary<fn::zero>(a); }
template <node A> constexpr auto ones_like(A a) { return make_unary<fn::one>(a); }

}  // namespace typeflow
