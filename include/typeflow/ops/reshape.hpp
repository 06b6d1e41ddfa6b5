// typeflow/ops/reshape.hpp — tf.reshape to a static shape, one dimension may be inferred.
#pragma once

#include <algorithm>
#include <array>
#include <string>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"

namespace typeflow {

namespace ops::detail {
template <class From, class To>
struct reshape_rule {
  static constexpr std::size_t unknown = [] {
    std::size_t n = 0;
    for (auto d : To::dims) n += d == dyn;
    return n;
  }();
  static constexpr std::size_t known_product = [] {
    std::size_t p = 1;
    for (auto d : To::dims)
      if (d != dyn) p *= static_cast<std::size_t>(d);
    return p;
  }();
  static constexpr bool ok = unknown <= 1 && (!From::is_static ||
                                               (unknown == 0 ? From::size == To::size
                                                             : known_product != 0 && From::size % known_product == 0));
  // With a static input, the inferred dimension is known at compile time.
  template <std::size_t... I>
  static auto infer(std::index_sequence<I...>)
      -> shape<(To::dims[I] == dyn && From::is_static && known_product != 0
                    ? static_cast<std::ptrdiff_t>(From::size / known_product)
                    : To::dims[I])...>;
  using type = decltype(infer(std::make_index_sequence<To::rank>{}));
};
}  // namespace ops::detail

/// In a diagnostic: the input's static shape and the target shape of a reshape whose
/// element counts cannot agree.
template <class From, class To>
struct reshape_needs_the_same_number_of_elements {
  static constexpr bool value = false;
};

template <class A, class To>
struct reshape_node;
template <class G, class A>
struct reshape_like_node;

namespace ops::detail {
// Back to a's shape: a static reshape when a's shape is static, else a's run-time shape.
template <class G, class A>
using reshape_back_t = mp::mp_if_c<shape_of<A>::is_static, reshape_node<G, shape_of<A>>, reshape_like_node<G, A>>;
}  // namespace ops::detail

template <class A, class To>
struct reshape_node
    : node_facade<value_type_of<A>, typename ops::detail::reshape_rule<shape_of<A>, To>::type, node_kind::compute, A>,
      op_info<"Reshape"> {
  using target_shape = To;
  template <class... N>
  using rebind = reshape_node<N..., To>;

  template <std::size_t K, class G>
  using gradient = ops::detail::reshape_back_t<G, A>;

  template <class Out, class V>
  static void compute(Out& out, const V& a) {
    using S = shape_of<reshape_node>;
    std::size_t total = 1;
    if constexpr (std::is_arithmetic_v<V>) {
      total = 1;
    } else {
      total = a.size();
    }
    if constexpr (S::is_static) {
      if (total != S::size)
        throw invalid_argument_error("Input to reshape is a tensor with " + std::to_string(total) +
                                     " values, but the requested shape " + shape_string<To>() + " has " +
                                     std::to_string(S::size));
    } else {
      std::array<std::size_t, S::rank> dims{};
      std::size_t known = 1, hole = S::rank;
      for (std::size_t i = 0; i < S::rank; ++i) {
        if (S::dims[i] == dyn) {
          hole = i;
        } else {
          dims[i] = static_cast<std::size_t>(S::dims[i]);
          known *= dims[i];
        }
      }
      if (hole < S::rank && known == 0)  // TensorFlow 1.x's rule: nothing to infer the -1 from
        throw invalid_argument_error("Reshape cannot infer the missing input size for an empty tensor unless all "
                                     "specified input sizes are non-zero");
      if (hole < S::rank) dims[hole] = total / known;
      std::size_t got = 1;
      for (auto d : dims) got *= d;
      if (got != total)
        throw invalid_argument_error("Input to reshape is a tensor with " + std::to_string(total) +
                                     " values, but the requested shape " + shape_string<To>() +
                                     " does not fit it");
      out.resize(dims);
    }
    if constexpr (std::is_arithmetic_v<Out>) {
      if constexpr (std::is_arithmetic_v<V>) {
        out = a;
      } else {
        out = *a.begin();
      }
    } else if constexpr (std::is_arithmetic_v<V>) {
      *out.begin() = a;
    } else if constexpr (!(S::is_static && S::size == 0)) {  // g++'s -Wnonnull: a static empty tensor has no data
      std::copy(a.begin(), a.end(), out.begin());
    }
  }
};

/// g with the run-time shape of a (the gradient of a reshape of a dynamic shape).
template <class G, class A>
struct reshape_like_node : node_facade<value_type_of<G>, shape_of<A>, node_kind::compute, G, A>,
                           op_info<"Reshape"> {
  template <class... N>
  using rebind = reshape_like_node<N...>;
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0, ops::detail::reshape_back_t<GG, G>, no_gradient>;

  template <class Out, class VG, class VA>
  static void compute(Out& out, const VG& g, const VA& a) {
    if (g.size() != a.size())
      throw invalid_argument_error("Input to reshape is a tensor with " + std::to_string(g.size()) +
                                   " values, but the requested shape has " + std::to_string(a.size()));
    out.resize(a.shape());
    std::copy(g.begin(), g.end(), out.begin());
  }
};

/// `reshape<shape<dyn, 784>>(x)` is tf.reshape(x, [-1, 784]): at most one `dyn`, inferred.
template <shape_type To, node A>
constexpr auto reshape(const A& a) {
  using rule = ops::detail::reshape_rule<shape_of<A>, To>;
  if constexpr (!rule::ok) {
    static_assert(reshape_needs_the_same_number_of_elements<shape_of<A>, To>::value,
                  "typeflow::reshape<shape>(x): the target shape must hold as many elements as x "
                  "(at most one typeflow::dyn dimension, inferred)");
  }
  return make_node<reshape_node<A, To>>(a);
}

}  // namespace typeflow
