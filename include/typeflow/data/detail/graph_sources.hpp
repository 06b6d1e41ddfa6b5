// typeflow/data/detail/graph_sources.hpp — Dataset.range, Dataset.zip and Dataset.cache for
// graph datasets (data/graph_dataset.hpp). As every graph dataset, each evaluates its input
// nodes at the initializer's run and builds the host dataset of data/dataset/ from their
// values: range's bounds are integer scalar nodes (`range<10>()` spells constants), zip's
// element is its inputs' components one after the other (TensorFlow nests them: a flat
// structure here, as every element), cache keeps the first complete pass in memory.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/data/dataset.hpp"
#include "typeflow/data/detail/iterator_resource.hpp"

namespace typeflow::data {

template <class D>
class graph_dataset_base;

namespace detail {

/// An integer scalar node's value in a run.
template <class V>
std::int64_t integer_value(const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    return static_cast<std::int64_t>(v);
  } else {
    return static_cast<std::int64_t>(v());
  }
}

/// The node of type In among `nodes` (a tuple of distinct node types, or of datasets'
/// input_nodes() tuples concatenated): the first one of that type.
template <class In, class Tuple>
In find_node(const Tuple& nodes) {
  return std::get<mp::mp_find<mp::mp_rename<Tuple, mp::mp_list>, In>::value>(nodes);
}

template <class... Spec>
struct concat_specs;
template <class... C>
struct concat_specs<element_spec<C...>> {
  using type = element_spec<C...>;
};
template <class... A, class... B, class... Rest>
struct concat_specs<element_spec<A...>, element_spec<B...>, Rest...> {
  using type = typename concat_specs<element_spec<A..., B...>, Rest...>::type;
};

}  // namespace detail

/// Dataset.range(start, stop, step) of integer scalar nodes: int64 scalars.
template <class Start, class Stop, class Step>
class node_range_dataset : public graph_dataset_base<node_range_dataset<Start, Stop, Step>> {
 public:
  using spec = element_spec<component<std::int64_t, scalar>>;
  using inputs = mp::mp_unique<mp::mp_list<Start, Stop, Step>>;
  node_range_dataset(const Start& start, const Stop& stop, const Step& step) : nodes_(start, stop, step) {}
  auto input_nodes() const {
    return [&]<class... In>(mp::mp_list<In...>) { return std::tuple<In...>(detail::find_node<In>(nodes_)...); }(inputs{});
  }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    return data::range(detail::integer_value(ctx.template value<Start>()),
                       detail::integer_value(ctx.template value<Stop>()),
                       detail::integer_value(ctx.template value<Step>()));
  }

 private:
  std::tuple<Start, Stop, Step> nodes_;
};

/// Dataset.zip((a, b, ...)) of graph datasets: their components one after the other; as
/// long as the shortest.
template <class... D>
class zipped_dataset : public graph_dataset_base<zipped_dataset<D...>> {
 public:
  using spec = typename detail::concat_specs<typename D::spec...>::type;
  using inputs = mp::mp_unique<mp::mp_append<typename D::inputs...>>;
  explicit zipped_dataset(const D&... inputs) : inputs_(inputs...) {}
  auto input_nodes() const {
    const auto all = std::apply([](const auto&... d) { return std::tuple_cat(d.input_nodes()...); }, inputs_);
    return [&]<class... In>(mp::mp_list<In...>) { return std::tuple<In...>(detail::find_node<In>(all)...); }(inputs{});
  }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    return data::zip(D::make_dataset(ctx)...);
  }

 private:
  std::tuple<D...> inputs_;
};

/// Dataset.cache() of a graph dataset: in memory; the passes after a complete one (of a
/// repeat above it) read from memory. A new initializer run starts a new cache.
template <class Inner>
class cached_dataset : public graph_dataset_base<cached_dataset<Inner>> {
 public:
  using spec = typename Inner::spec;
  using inputs = typename Inner::inputs;
  explicit cached_dataset(const Inner& inner) : inner_(inner) {}
  auto input_nodes() const { return inner_.input_nodes(); }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    return Inner::make_dataset(ctx).cache();
  }

 private:
  Inner inner_;
};

}  // namespace typeflow::data
