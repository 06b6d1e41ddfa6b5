// typeflow/data/detail/padded_batch.hpp — a graph dataset's padded_batch
// (data/graph_dataset.hpp): TensorFlow's padded_shapes as compile-time shapes, the element
// structure they give and the checks that they fit the components; padding values as
// scalar nodes, evaluated with the dataset's other inputs at the initializer's run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/data/dataset.hpp"
#include "typeflow/data/detail/iterator_resource.hpp"

namespace typeflow::data {

/// padded_batch's padded shapes, one per component (TensorFlow's padded_shapes): a static
/// dim pads to that size, `dyn` to the batch's longest.
template <class... S>
struct pad_to {};

/// In a diagnostic: padded_batch's padded shape for component K does not fit the
/// component's shape (another rank, or a static dim larger than the padded one).
template <std::size_t K, class ComponentShape, class PaddedShape>
struct padded_shape_must_fit_the_component {
  static constexpr bool value = false;
};
/// In a diagnostic: padded_batch got Given padded shapes for Components components.
template <std::size_t Given, std::size_t Components>
struct padded_batch_needs_one_padded_shape_per_component {
  static constexpr bool value = false;
};

/// In a diagnostic: a dataset parameter (batch size, buffer size, count) that is not an
/// integer scalar node.
template <fixed_string Parameter, class ElementType, class Shape>
struct dataset_parameter_must_be_an_integer_scalar {
  static constexpr bool value = false;
};
/// padded_batch's padding values (TensorFlow's padding_values): one scalar node per
/// component, of its element type; `padding_values(constant<std::int32_t(-1)>(), ...)`.
template <class... V>
struct padding_values_t {
  std::tuple<V...> nodes;
};
template <node... V>
padding_values_t<V...> padding_values(const V&... v) {
  return {std::tuple<V...>(v...)};
}

/// In a diagnostic: padded_batch got Given padding values for Components components.
template <std::size_t Given, std::size_t Components>
struct padded_batch_needs_one_padding_value_per_component {
  static constexpr bool value = false;
};
/// In a diagnostic: padding value K is not a scalar of component K's element type.
template <std::size_t K, class ComponentType, class ValueType, class ValueShape>
struct padding_value_must_be_a_scalar_of_the_components_type {
  static constexpr bool value = false;
};

template <class D>
class graph_dataset_base;
template <class Inner, class Op, class... P>
class transformed_dataset;

namespace detail {

template <class N>
constexpr bool integer_scalar = std::is_integral_v<value_type_of<N>> && !std::is_same_v<value_type_of<N>, bool> &&
                                shape_of<N>::rank == 0;
template <class N>
using is_not_integer_scalar = std::bool_constant<!integer_scalar<N>>;

/// A batch's first dim: static when the last batch is dropped and the size is a literal.
template <bool Drop, class N>
constexpr std::ptrdiff_t batch_dim() {
  if constexpr (Drop && literal_node_type<N>) {
    return static_cast<std::ptrdiff_t>(N::value);
  } else {
    return dyn;
  }
}

template <class S, std::ptrdiff_t B>
struct prepend_dim;
template <std::ptrdiff_t... D, std::ptrdiff_t B>
struct prepend_dim<shape<D...>, B> {
  using type = shape<B, D...>;
};

/// A padded batch's component: P's static dims, C's where P has `dyn`.
template <class C, class P>
struct padded_dims;
template <std::ptrdiff_t... D, std::ptrdiff_t... P>
struct padded_dims<shape<D...>, shape<P...>> {
  using type = shape<(P == dyn ? D : P)...>;
};
template <class Spec, std::ptrdiff_t B, class Pad>
struct padded_spec;
template <class... C, std::ptrdiff_t B, class... P>
struct padded_spec<element_spec<C...>, B, pad_to<P...>> {
  using type = element_spec<component<
      typename C::value_type,
      typename prepend_dim<typename padded_dims<typename C::shape_type, P>::type, B>::type>...>;
};
/// Whether padded shape P fits component shape C: one rank, each static dim of C at most P's.
template <class C, class P>
constexpr bool pad_fits() {
  if constexpr (C::rank != P::rank) {
    return false;
  } else {
    for (std::size_t i = 0; i < C::rank; ++i)
      if (P::dims[i] != dyn && C::dims[i] != dyn && C::dims[i] > P::dims[i]) return false;
    return true;
  }
}
/// pad_to<shape<dyn...>...>: every dim to the batch's longest.
template <class Spec>
struct pad_longest;
template <class... C>
struct pad_longest<element_spec<C...>> {
  template <std::ptrdiff_t>
  static constexpr std::ptrdiff_t any = dyn;
  template <class S>
  struct all_dyn;
  template <std::ptrdiff_t... D>
  struct all_dyn<shape<D...>> {
    using type = shape<any<D>...>;
  };
  using type = pad_to<typename all_dyn<typename C::shape_type>::type...>;
};

}  // namespace detail

namespace ops_tag {
template <bool Drop, class Pad>
struct padded_batch;
template <bool Drop, class... P>
struct padded_batch<Drop, pad_to<P...>> {
  template <class Spec, class... N>
  using spec = typename detail::padded_spec<Spec, detail::batch_dim<Drop, N...>(), pad_to<P...>>::type;
  template <class Host>
  static auto apply(const Host& h, std::int64_t n) {
    return h.padded_batch(n, padded_shapes{std::vector<std::int64_t>(P::dims.begin(), P::dims.end())...}, Drop);
  }
};
}  // namespace ops_tag

namespace detail {

/// A scalar node's value in a run, as T.
template <class T, class V>
T scalar_of(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return static_cast<T>(v);
  } else {
    return static_cast<T>(v());
  }
}

/// Inner.padded_batch(n, Pad, padding_values(v...)): parameters n and v... are nodes.
template <class Inner, bool Drop, class Pad, class N, class... V>
class padded_values_dataset : public graph_dataset_base<padded_values_dataset<Inner, Drop, Pad, N, V...>> {
  using params = mp::mp_list<N, V...>;

 public:
  using spec = typename padded_spec<typename Inner::spec, batch_dim<Drop, N>(), Pad>::type;
  using inputs = mp::mp_unique<mp::mp_append<typename Inner::inputs, params>>;
  padded_values_dataset(const Inner& inner, const N& n, const std::tuple<V...>& v)
      : inner_(inner), params_(std::tuple_cat(std::tuple<N>(n), v)) {}
  auto input_nodes() const {
    return [&]<class... In>(mp::mp_list<In...>) { return std::tuple<In...>(find<In>()...); }(inputs{});
  }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    return apply(Inner::make_dataset(ctx), scalar_of<std::int64_t>(ctx.template value<N>()),
                 std::tuple{scalar_of<value_type_of<V>>(ctx.template value<V>())...}, Pad{});
  }

 private:
  template <class H, class Values, class... P>
  static auto apply(const H& h, std::int64_t n, const Values& values, pad_to<P...>) {
    return h.padded_batch(n, padded_shapes{std::vector<std::int64_t>(P::dims.begin(), P::dims.end())...}, values, Drop);
  }
  template <class In>
  In find() const {
    if constexpr (mp::mp_contains<params, In>::value) {
      return std::get<mp::mp_find<params, In>::value>(params_);
    } else {
      return std::get<In>(inner_.input_nodes());
    }
  }
  Inner inner_;
  std::tuple<N, V...> params_;
};

/// The index of the first padded shape of Ps that does not fit its component shape in Cs.
template <class Cs, class Ps>
constexpr std::size_t first_misfit() {
  if constexpr (mp::mp_size<Cs>::value != mp::mp_size<Ps>::value) {
    return 0;
  } else {
    return []<class... C, class... P>(mp::mp_list<C...>, mp::mp_list<P...>) {
      return mp::mp_find<mp::mp_list<std::bool_constant<pad_fits<C, P>()>...>, std::false_type>::value;
    }(Cs{}, Ps{});
  }
}
/// The index of the first padding value of Vs that is not a scalar of its type in Ts.
template <class Ts, class Vs>
constexpr std::size_t first_bad_value() {
  if constexpr (mp::mp_size<Ts>::value != mp::mp_size<Vs>::value) {
    return 0;
  } else {
    return []<class... T, class... V>(mp::mp_list<T...>, mp::mp_list<V...>) {
      return mp::mp_find<mp::mp_list<std::bool_constant<shape_of<V>::rank == 0 && std::is_same_v<value_type_of<V>, T>>...>,
                         std::false_type>::value;
    }(Ts{}, Vs{});
  }
}
template <class C>
using shape_of_component = typename C::shape_type;
template <class C>
using type_of_component = typename C::value_type;

/// ds.padded_batch(n, pad_to<P...>, padding_values(v...)): the checks (each static_assert
/// one call below the user's, so that a diagnostic's notes stay few), then the dataset.
template <bool Drop, class D, class N, class... P, class... V>
auto make_padded(const D& ds, const N& n, pad_to<P...>, const padding_values_t<V...>& values) {
  using spec = typename D::spec;
  using shapes = mp::mp_transform<shape_of_component, mp::mp_rename<spec, mp::mp_list>>;
  using types = mp::mp_transform<type_of_component, mp::mp_rename<spec, mp::mp_list>>;
  using pad = mp::mp_if_c<sizeof...(P) == 0, typename pad_longest<spec>::type, pad_to<P...>>;
  constexpr std::size_t misfit = first_misfit<shapes, mp::mp_list<P...>>();
  constexpr std::size_t bad_value = first_bad_value<types, mp::mp_list<V...>>();
  if constexpr (sizeof...(P) != 0 && sizeof...(P) != spec::size) {
    static_assert(padded_batch_needs_one_padded_shape_per_component<sizeof...(P), spec::size>::value,
                  "padded_batch(n, pad_to<shapes...>{}): give one padded shape per component");
    return ds;  // inert: the error above is the one to read
  } else if constexpr (misfit < sizeof...(P)) {
    static_assert(padded_shape_must_fit_the_component<misfit, mp::mp_at_c<shapes, misfit>,
                                                      mp::mp_at_c<mp::mp_list<P...>, misfit>>::value,
                  "padded_batch: a padded shape must have its component's rank and be at least its static dims");
    return ds;  // inert
  } else if constexpr (sizeof...(V) != 0 && sizeof...(V) != spec::size) {
    static_assert(padded_batch_needs_one_padding_value_per_component<sizeof...(V), spec::size>::value,
                  "padded_batch(n, shapes, padding_values(v...)): give one padding value per component");
    return ds;  // inert
  } else if constexpr (bad_value < sizeof...(V)) {
    using bad = mp::mp_at_c<mp::mp_list<V...>, bad_value>;
    static_assert(padding_value_must_be_a_scalar_of_the_components_type<bad_value, mp::mp_at_c<types, bad_value>,
                                                                        value_type_of<bad>, shape_of<bad>>::value,
                  "padded_batch: each padding value must be a scalar node of its component's element type");
    return ds;  // inert
  } else if constexpr (!integer_scalar<N>) {
    static_assert(dataset_parameter_must_be_an_integer_scalar<label_of<N>(), value_type_of<N>, shape_of<N>>::value,
                  "a dataset's batch size, buffer size or count must be an integer scalar node");
    return ds;  // inert
  } else if constexpr (sizeof...(V) == 0) {
    return transformed_dataset<D, ops_tag::padded_batch<Drop, pad>, N>(ds, n);
  } else {
    return padded_values_dataset<D, Drop, pad, N, V...>(ds, n, values.nodes);
  }
}

}  // namespace detail
}  // namespace typeflow::data
