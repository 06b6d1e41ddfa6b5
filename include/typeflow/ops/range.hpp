// typeflow/ops/range.hpp — tf.range, tf.lin_space (tf.linspace) and tf.eye: creation ops.
//
// With compile-time arguments the length is static: `range<0, 10, 2>()` is an int32 [5],
// `range<0.0, 1.0, 0.25>()` a double [4] (the element type as constant<V>() gives it, or
// `range<S, L, D, float>()`), `linspace<3>(start, stop)` a [3], `eye<float, 2, 3>()` a [2, 3].
// With scalar nodes (`range(start, limit, delta)`, `linspace(start, stop, num)`) the length
// is [dyn], computed when a run computes the op. TensorFlow's checks are compile errors when
// the arguments are static, and typeflow::invalid_argument_error when they are not.
// No gradients: TensorFlow registers none for Range and LinSpace; eye is a constant.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

namespace ops::detail {
/// The number of elements of tf.range(start, limit, delta), TensorFlow's RangeOp: integers
/// (|limit - start| + |delta| - 1) / |delta|, floats ceil(|(limit - start) / delta|).
template <class T>
constexpr std::size_t range_size(T start, T limit, T delta) {
  if constexpr (std::is_integral_v<T>) {
    const auto span = static_cast<std::int64_t>(limit) - static_cast<std::int64_t>(start);
    const auto d = static_cast<std::int64_t>(delta);
    const auto a = span < 0 ? -span : span, ad = d < 0 ? -d : d;
    return static_cast<std::size_t>((a + ad - 1) / ad);
  } else {
    const double q = (static_cast<double>(limit) - static_cast<double>(start)) / static_cast<double>(delta);
    const double a = q < 0 ? -q : q;
    const auto n = static_cast<std::size_t>(a);
    return static_cast<double>(n) < a ? n + 1 : n;  // ceil, constexpr
  }
}

/// TensorFlow's RangeOp checks, with its messages; empty when the arguments are valid.
template <class T>
constexpr const char* range_error(T start, T limit, T delta) {
  if (delta == T(0)) return "Requires delta != 0";
  if (delta > T(0) && start > limit) return "Requires start <= limit when delta > 0";
  if (delta < T(0) && start < limit) return "Requires start >= limit when delta < 0";
  return nullptr;
}

/// start, start + delta, ...: accumulated in T as TensorFlow's kernel does.
template <class T>
void fill_range(T* out, std::size_t n, T start, T delta) {
  T v = start;
  for (std::size_t i = 0; i < n; ++i, v += delta) out[i] = v;
}

/// TensorFlow's LinSpace kernel: start + i (stop - start) / (num - 1), start when num is 1.
template <class T>
void fill_linspace(T* out, std::size_t n, T start, T stop) {
  if (n == 1) {
    out[0] = start;
    return;
  }
  const T step = (stop - start) / static_cast<T>(n - 1);
  for (std::size_t i = 0; i < n; ++i) out[i] = start + step * static_cast<T>(i);
}

}  // namespace ops::detail

/// In a diagnostic: TensorFlow's RangeOp refuses (start, limit, delta) — delta 0, or a
/// delta that walks away from limit.
template <auto Start, auto Limit, auto Delta>
struct range_requires_delta_nonzero_and_toward_limit {
  static constexpr bool value = false;
};
/// In a diagnostic: linspace needs num > 0 (TensorFlow: "Requires num > 0").
template <std::size_t Num>
struct linspace_requires_num_greater_than_0 {
  static constexpr bool value = Num > 0;
};
/// In a diagnostic: the op needs a scalar node of a number type here.
template <class ElementType, class Shape>
struct range_argument_must_be_a_scalar_number {
  static constexpr bool value = false;
};

/// tf.range with static arguments: a static [N] of T.
template <class T, auto Start, auto Limit, auto Delta>
struct static_range_node : node_facade<T, shape<static_cast<std::ptrdiff_t>(ops::detail::range_size<T>(
                                                     T(Start), T(Limit), T(Delta)))>,
                                       node_kind::compute>,
                           op_info<"Range"> {
  template <class... N>
  using rebind = static_range_node;
  template <std::size_t K, class G>
  using gradient = no_gradient;
  template <class Out>
  static void compute(Out& out) {
    ops::detail::fill_range<T>(out.data(), out.size(), T(Start), T(Delta));
  }
};

/// tf.range(start, limit, delta) with scalar nodes of one element type: a [dyn].
template <class T, class... In>
struct range_node : node_facade<T, shape<dyn>, node_kind::compute, In...>, op_info<"Range"> {
  template <class... N>
  using rebind = range_node<T, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;
  template <class Out, class S, class L, class D>
  static void compute(Out& out, const S& s, const L& l, const D& d) {
    const T start = *ops::detail::data_ptr(s), limit = *ops::detail::data_ptr(l),
            delta = *ops::detail::data_ptr(d);
    if constexpr (std::is_floating_point_v<T>) {  // a nan or an infinity has no element count
      if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
        throw invalid_argument_error("Requires start, limit and delta to be finite");
    }
    if (const char* e = ops::detail::range_error<T>(start, limit, delta)) throw invalid_argument_error(e);
    const std::size_t n = ops::detail::range_size<T>(start, limit, delta);
    out.resize({n});
    ops::detail::fill_range<T>(out.data(), n, start, delta);
  }
};

/// tf.lin_space(start, stop, num): Num static gives [Num], a num node gives [dyn].
template <class T, class S, class... In>
struct linspace_node : node_facade<T, S, node_kind::compute, In...>, op_info<"LinSpace"> {
  template <class... N>
  using rebind = linspace_node<T, S, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;
  template <class Out, class A, class B, class... N>
  static void compute(Out& out, const A& a, const B& b, const N&... num) {
    std::size_t n = 0;
    if constexpr (sizeof...(N) == 0) {
      n = static_cast<std::size_t>(S::dims[0]);
    } else {
      const auto v = *ops::detail::data_ptr(num...);
      if (v <= 0) throw invalid_argument_error("Requires num > 0: " + std::to_string(v));
      n = static_cast<std::size_t>(v);
      out.resize({n});
    }
    ops::detail::fill_linspace<T>(out.data(), n, *ops::detail::data_ptr(a), *ops::detail::data_ptr(b));
  }
};

/// tf.eye(rows, cols): ones on the main diagonal, batched over the leading dims of S.
template <class T, class S>
struct eye_node : node_facade<T, S, node_kind::compute>, op_info<"Eye"> {
  template <class... N>
  using rebind = eye_node;
  template <std::size_t K, class G>
  using gradient = no_gradient;
  template <class Out>
  static void compute(Out& out) {
    constexpr std::size_t rows = static_cast<std::size_t>(S::dims[S::rank - 2]);
    constexpr std::size_t cols = static_cast<std::size_t>(S::dims[S::rank - 1]);
    std::fill(out.begin(), out.end(), T(0));
    T* p = out.data();
    for (std::size_t b = 0; b * rows * cols < out.size(); ++b)
      for (std::size_t i = 0; i < std::min(rows, cols); ++i) p[b * rows * cols + i * cols + i] = T(1);
  }
};

namespace ops::detail {
template <class S, class L, class D>
constexpr auto make_range(const S& start, const L& limit, const D& delta) {
  using T = value_type_of<S>;
  if constexpr (shape_of<S>::rank != 0 || shape_of<L>::rank != 0 || shape_of<D>::rank != 0 ||
                !std::is_same_v<T, value_type_of<L>> || !std::is_same_v<T, value_type_of<D>> ||
                std::is_same_v<T, bool>) {
    static_assert(range_argument_must_be_a_scalar_number<T, shape_of<S>>::value,
                  "typeflow::range(start, limit, delta): start, limit and delta must be scalar nodes of one "
                  "number type (int32, int64, float or double)");
    return start;
  } else {
    return make_node<range_node<T, S, L, D>>(start, limit, delta);
  }
}
}  // namespace ops::detail

/// `range<0, 10, 2>()` is tf.range(0, 10, 2): [0, 2, 4, 6, 8], int32 [5]. A delta of 0 or
/// one walking away from limit is a compile error, as TensorFlow's InvalidArgument.
template <auto Start, auto Limit, auto Delta = 1,
          class T = ops::detail::literal_element_t<std::common_type_t<decltype(Start), decltype(Limit), decltype(Delta)>>>
  requires(std::is_arithmetic_v<decltype(Start)> && std::is_arithmetic_v<decltype(Limit)> &&
           std::is_arithmetic_v<decltype(Delta)>)
constexpr auto range() {
  if constexpr (ops::detail::range_error<T>(T(Start), T(Limit), T(Delta)) != nullptr) {
    static_assert(range_requires_delta_nonzero_and_toward_limit<Start, Limit, Delta>::value,
                  "typeflow::range<start, limit, delta>(): TensorFlow requires delta != 0, start <= limit "
                  "when delta > 0, and start >= limit when delta < 0");
    return static_range_node<T, 0, 0, 1>{};  // inert: the error above is the one to read
  } else {
    return static_range_node<T, Start, Limit, Delta>{};
  }
}
/// `range_to<5>()` is tf.range(5): [0, 1, 2, 3, 4].
template <auto Limit, class T = ops::detail::literal_element_t<decltype(Limit)>>
constexpr auto range_to() {
  return range<decltype(Limit){0}, Limit, decltype(Limit){1}, T>();
}

/// `range(start, limit, delta)` with scalar nodes of one element type: a [dyn] of it.
/// TensorFlow's checks throw typeflow::invalid_argument_error when a run computes it.
template <node S, node L, node D>
constexpr auto range(const S& start, const L& limit, const D& delta) {
  return ops::detail::make_range(start, limit, delta);
}
/// `range(limit)`: tf.range(limit), from 0 by 1.
template <node L>
constexpr auto range(const L& limit) {
  using T = value_type_of<L>;
  return range(literal_node<0, T>{}, limit, literal_node<1, T>{});
}

/// `linspace<Num>(start, stop)` is tf.lin_space(start, stop, Num): a [Num]; Num == 1 gives
/// [start] (TensorFlow 1); Num == 0 is a compile error ("Requires num > 0").
template <std::size_t Num, node A, node B>
constexpr auto linspace(const A& start, const B& stop) {
  using T = value_type_of<A>;
  static_assert(linspace_requires_num_greater_than_0<Num>::value,
                "typeflow::linspace<num>(start, stop): TensorFlow requires num > 0");
  static_assert(floating_element<T> && std::is_same_v<T, value_type_of<B>>,
                "typeflow::linspace(start, stop, num): start and stop must be float or double scalars of one type");
  if constexpr (Num == 0 || !floating_element<T> || !std::is_same_v<T, value_type_of<B>>) {
    return start;
  } else {
    return make_node<linspace_node<T, shape<static_cast<std::ptrdiff_t>(Num)>, A, B>>(start, stop);
  }
}
/// `linspace(start, stop, num)` with num an int32 or int64 scalar node: a [dyn]; num <= 0
/// throws typeflow::invalid_argument_error.
template <node A, node B, node N>
constexpr auto linspace(const A& start, const B& stop, const N& num) {
  using T = value_type_of<A>;
  static_assert(floating_element<T> && std::is_same_v<T, value_type_of<B>>,
                "typeflow::linspace(start, stop, num): start and stop must be float or double scalars of one type");
  static_assert(std::is_integral_v<value_type_of<N>> && !std::is_same_v<value_type_of<N>, bool>,
                "typeflow::linspace(start, stop, num): num must be an int32 or int64 scalar");
  if constexpr (!floating_element<T> || !std::is_same_v<T, value_type_of<B>>) {
    return start;
  } else {
    return make_node<linspace_node<T, shape<dyn>, A, B, N>>(start, stop, num);
  }
}
/// tf.linspace is tf.lin_space.
template <std::size_t Num, node A, node B>
constexpr auto lin_space(const A& start, const B& stop) {
  return linspace<Num>(start, stop);
}

/// `eye<float, 2, 3>()` is tf.eye(2, 3); `eye<float, 3>()` is tf.eye(3);
/// `eye<T, Rows, Cols, B...>()` is tf.eye(Rows, Cols, batch_shape=[B...]): shape [B..., Rows, Cols].
template <element_type T, std::size_t Rows, std::size_t Cols = Rows, std::size_t... Batch>
constexpr auto eye() {
  return eye_node<T, shape<static_cast<std::ptrdiff_t>(Batch)..., static_cast<std::ptrdiff_t>(Rows),
                           static_cast<std::ptrdiff_t>(Cols)>>{};
}

}  // namespace typeflow
