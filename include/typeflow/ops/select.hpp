// typeflow/ops/select.hpp — TensorFlow 1.x's tf.where(cond, x, y) (op Select): x where cond
// holds, else y.
//
// x and y have one shape; cond is a bool of that shape, a scalar, or a vector over x's
// first dim (one condition per row), as TF 1.x's Select allows. No broadcasting otherwise.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/elementwise.hpp"

namespace typeflow {

/// In a diagnostic: the static shapes of x and y of a where(cond, x, y), which differ.
template <class XShape, class YShape>
struct where_x_and_y_must_have_the_same_shape {
  static constexpr bool value = false;
};
/// In a diagnostic: cond's static shape, neither x's nor a scalar nor a vector over x's
/// first dim; and x's.
template <class CondShape, class XShape>
struct where_cond_must_have_the_shape_of_x_or_be_a_vector_over_its_first_dim {
  static constexpr bool value = false;
};
/// In a diagnostic: cond's element type, which is not bool.
template <class CondType>
struct where_cond_must_be_bool {
  static constexpr bool value = false;
};

namespace ops::detail {

// Whether two static shapes can be the same (equal rank, each dim equal or dyn).
template <class A, class B>
constexpr bool same_shape_possible() {
  if constexpr (A::rank != B::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < A::rank; ++i)
      if (A::dims[i] != dyn && B::dims[i] != dyn && A::dims[i] != B::dims[i]) return false;
    return true;
  }
}

// The two shapes' dims merged: the static size where one has it.
template <class A, class B>
struct merged_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<(A::dims[I] != dyn ? A::dims[I] : B::dims[I])...>;
  using type = decltype(make(std::make_index_sequence<A::rank>{}));
};

// How cond indexes x: one per element, one in all, or one per row.
enum class cond_layout { elementwise, scalar, rows };

template <class C, class X>
constexpr cond_layout cond_layout_of() {
  if constexpr (C::rank == 0) {
    return cond_layout::scalar;
  } else if constexpr (C::rank == 1 && X::rank > 1) {
    return cond_layout::rows;
  } else {
    return cond_layout::elementwise;
  }
}

template <class C, class X>
constexpr bool cond_shape_ok() {
  if constexpr (C::rank == 0) {
    return true;
  } else if constexpr (C::rank == 1 && X::rank > 1) {
    return C::dims[0] == dyn || X::dims[0] == dyn || C::dims[0] == X::dims[0];
  } else {
    return same_shape_possible<C, X>();
  }
}

// TensorFlow's checks of Select's run-time shapes, in its order and with its messages
// (cwise_op_select.cc; the elementwise case names the op by its default name, Select).
template <cond_layout L, std::size_t RC, std::size_t RX>
void check_select(const std::array<std::size_t, RC>& cd, const std::array<std::size_t, RX>& xd,
                  const std::array<std::size_t, RX>& yd) {
  if constexpr (L == cond_layout::elementwise) {
    const std::array<std::size_t, RX>* other[] = {&xd, &yd};
    for (std::size_t i = 0; i < 2; ++i)
      if (cd != *other[i])
        throw invalid_argument_error(
            "Inputs to operation Select of type Select must have the same size and shape.  Input 0: " +
            shape_string(cd) + " != input " + std::to_string(i + 1) + ": " + shape_string(*other[i]));
    return;
  } else {
    if constexpr (L == cond_layout::rows) {
      if (cd[0] != xd[0])
        throw invalid_argument_error("Number of batches of 'then' must match size of 'cond', but saw: " +
                                     std::to_string(xd[0]) + " vs. " + std::to_string(cd[0]));
    }
    if (xd != yd)
      throw invalid_argument_error("'then' and 'else' must have the same size.  but received: " + shape_string(xd) +
                                   " vs. " + shape_string(yd));
  }
}

// out[i] = (cond for i) == Then ? a[i] : b[i], b null for 0.
template <cond_layout L, class T, class CT>
void select_rows(T* o, const CT* c, const T* a, const T* b, std::size_t size, std::size_t inner, bool then) {
  for (std::size_t i = 0; i < size; ++i) {
    const bool ci = L == cond_layout::scalar ? c[0] : L == cond_layout::rows ? c[i / inner] : c[i];
    o[i] = ci == then ? a[i] : (b ? b[i] : T(0));
  }
}

}  // namespace ops::detail

/// The gradient of where(cond, x, y) for x (Then true) or y (Then false), of shape S:
/// g where cond is Then, else 0.
template <bool Then, class S, class C, class G>
struct select_gradient_node : node_facade<value_type_of<G>, S, node_kind::compute, C, G>, op_info<"Select"> {
  template <class... N>
  using rebind = select_gradient_node<Then, S, N...>;
  // Linear in g: the same selection of gg.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 1, select_gradient_node<Then, shape_of<G>, C, GG>, no_gradient>;

  template <class Out, class VC, class VG>
  static void compute(Out& out, const VC& c, const VG& g) {
    using T = value_type_of<G>;
    constexpr auto layout = ops::detail::cond_layout_of<shape_of<C>, S>();
    const auto gd = ops::detail::dims_of<S::rank>(g);
    ops::detail::resize_unless_static<S::is_static>(out, gd);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    const std::size_t size = ops::detail::dims_product(gd, 0, S::rank);
    ops::detail::select_rows<layout>(o, ops::detail::data_ptr(c), ops::detail::data_ptr(g), static_cast<const T*>(nullptr),
                                     size, ops::detail::dims_product(gd, 1, S::rank), Then);
    ops::detail::store_scalar(out, scalar);
  }
};

template <class C, class X, class Y>
struct select_node : node_facade<value_type_of<X>, typename ops::detail::merged_shape<shape_of<X>, shape_of<Y>>::type,
                                 node_kind::compute, C, X, Y>,
                     op_info<"Select"> {
  template <class... N>
  using rebind = select_node<N...>;
  // where(cond, g, 0) to x, where(cond, 0, g) to y, none to cond.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, no_gradient,
                               select_gradient_node<K == 1, shape_of<mp::mp_at_c<mp::mp_list<C, X, Y>, K>>, C, G>>;

  template <class Out, class VC, class VX, class VY>
  static void compute(Out& out, const VC& c, const VX& x, const VY& y) {
    using T = value_type_of<X>;
    using S = shape_of<select_node>;
    constexpr auto layout = ops::detail::cond_layout_of<shape_of<C>, S>();
    const auto xd = ops::detail::dims_of<S::rank>(x);
    const auto yd = ops::detail::dims_of<S::rank>(y);
    ops::detail::check_select<layout>(ops::detail::dims_of<shape_of<C>::rank>(c), xd, yd);
    ops::detail::resize_unless_static<S::is_static>(out, xd);
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    ops::detail::select_rows<layout>(o, ops::detail::data_ptr(c), ops::detail::data_ptr(x), ops::detail::data_ptr(y),
                                     ops::detail::dims_product(xd, 0, S::rank), ops::detail::dims_product(xd, 1, S::rank),
                                     true);
    ops::detail::store_scalar(out, scalar);
  }
};

/// `where(cond, x, y)` is TF 1.x's tf.where(cond, x, y) (tf.compat.v1.where, op Select):
/// x's elements where cond is true, y's elsewhere. x and y have one shape and element type;
/// cond is bool, of x's shape, a scalar, or a vector over x's first dim.
template <node C, node X, node Y>
constexpr auto where(const C& cond, const X& x, const Y& y) {
  if constexpr (!std::is_same_v<value_type_of<C>, bool>) {
    static_assert(where_cond_must_be_bool<value_type_of<C>>::value,
                  "typeflow::where(cond, x, y): cond must be a bool node (a comparison, or typeflow::cast<bool>)");
    return x;  // inert: the error above is the one to read
  } else if constexpr (!std::is_same_v<value_type_of<X>, value_type_of<Y>>) {
    static_assert(operands_must_have_the_same_element_type<value_type_of<X>, value_type_of<Y>>::value,
                  "typeflow::where(cond, x, y): x and y must have the same element type");
    return x;
  } else if constexpr (!ops::detail::same_shape_possible<shape_of<X>, shape_of<Y>>()) {
    static_assert(where_x_and_y_must_have_the_same_shape<shape_of<X>, shape_of<Y>>::value,
                  "typeflow::where(cond, x, y): x and y must have the same shape (TF 1.x Select does not broadcast)");
    return x;
  } else if constexpr (!ops::detail::cond_shape_ok<shape_of<C>, shape_of<X>>()) {
    static_assert(
        where_cond_must_have_the_shape_of_x_or_be_a_vector_over_its_first_dim<shape_of<C>, shape_of<X>>::value,
        "typeflow::where(cond, x, y): cond must have x's shape, be a scalar, or be a vector of x's first dim");
    return x;
  } else {
    return make_node<select_node<C, X, Y>>(cond, x, y);
  }
}

/// tf.select, TensorFlow's older name of where(cond, x, y).
template <node C, node X, node Y>
constexpr auto select(const C& cond, const X& x, const Y& y) {
  return where(cond, x, y);
}

}  // namespace typeflow
