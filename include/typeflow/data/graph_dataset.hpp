// typeflow/data/graph_dataset.hpp — datasets built from graph nodes, as TensorFlow 1.x
// programs build them: `from_tensor_slices(features_ph, labels_ph).batch(batch_size_ph)`.
//
// A graph dataset is a type: its sources' nodes, its transformations and their parameter
// nodes. Its element structure (dtypes and static shapes) is computed at compile time, so
// an iterator's get_next() gives nodes of known shapes; an initializer run (data/iterator.hpp)
// evaluates the nodes, builds the host dataset (data/dataset.hpp) from their values and
// starts a pass over it. Parameters are nodes (a placeholder, `constant<32>()`); integer
// template arguments are the short spelling of a literal: `batch<32>()`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <xtensor/xarray.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/data/dataset.hpp"
#include "typeflow/data/detail/graph_filter.hpp"
#include "typeflow/data/detail/graph_map.hpp"
#include "typeflow/data/detail/graph_sources.hpp"
#include "typeflow/data/detail/graph_stages.hpp"
#include "typeflow/data/detail/host_copy.hpp"
#include "typeflow/data/detail/padded_batch.hpp"
#include "typeflow/data/iterator.hpp"
#include "typeflow/ops/constant.hpp"

namespace typeflow::data {

/// `batch(n, drop_remainder)`: the last, smaller batch is dropped.
struct drop_remainder_t {};
inline constexpr drop_remainder_t drop_remainder{};

/// In a diagnostic: from_tensor_slices of a component of rank 0 (nothing to slice).
template <class ComponentShape>
struct from_tensor_slices_needs_components_of_rank_1_or_more {
  static constexpr bool value = false;
};

namespace detail {

/// A node's value in a run, as a host array (a copy: the dataset outlives the run).
template <class N, class Ctx>
xt::xarray<value_type_of<N>> host_value(Ctx& ctx) {
  return host_copy<value_type_of<N>>(ctx.template value<N>());
}

template <class S>
struct tail_shape;
template <std::ptrdiff_t D0, std::ptrdiff_t... D>
struct tail_shape<shape<D0, D...>> {
  using type = shape<D...>;
};

}  // namespace detail

/// from_tensor_slices of nodes: component K is node K's value sliced along its first dim.
template <class... N>
class node_slices_dataset : public graph_dataset_base<node_slices_dataset<N...>> {
 public:
  using spec = element_spec<component<value_type_of<N>, typename detail::tail_shape<shape_of<N>>::type>...>;
  using inputs = mp::mp_list<N...>;
  explicit node_slices_dataset(const N&... n) : nodes_(n...) {}
  const std::tuple<N...>& input_nodes() const { return nodes_; }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    return data::from_tensor_slices(detail::host_value<N>(ctx)...);
  }

 private:
  std::tuple<N...> nodes_;
};

/// from_tensors of nodes: one element, the nodes' values.
template <class... N>
class node_tensors_dataset : public graph_dataset_base<node_tensors_dataset<N...>> {
 public:
  using spec = element_spec<component<value_type_of<N>, shape_of<N>>...>;
  using inputs = mp::mp_list<N...>;
  explicit node_tensors_dataset(const N&... n) : nodes_(n...) {}
  const std::tuple<N...>& input_nodes() const { return nodes_; }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    return data::from_tensors(detail::host_value<N>(ctx)...);
  }

 private:
  std::tuple<N...> nodes_;
};

/// The transformations of graph datasets, as TensorFlow's Dataset methods. Each parameter
/// is an integer scalar node; `batch<32>()` is `batch(constant<std::int64_t(32)>())`.
template <class D>
class graph_dataset_base {
 public:
  template <node N>
  auto batch(const N& batch_size) const {
    return stage<ops_tag::batch<false>>(batch_size);
  }
  /// batch(n, drop_remainder): with a literal n, the batch dim is static.
  template <node N>
  auto batch(const N& batch_size, drop_remainder_t) const {
    return stage<ops_tag::batch<true>>(batch_size);
  }
  template <std::int64_t N>
  auto batch() const {
    return batch(constant<N>());
  }
  template <std::int64_t N>
  auto batch(drop_remainder_t d) const {
    return batch(constant<N>(), d);
  }
  /// padded_batch(n): batches elements whose dyn dims differ, each padded with zeros to the
  /// batch's longest; padded_batch(n, pad_to<S...>{}) pads component K to S_K (`dyn`: the
  /// longest). drop_remainder as batch's.
  template <node N, class... P>
  auto padded_batch(const N& batch_size, pad_to<P...> p = {}) const {
    return detail::make_padded<false>(static_cast<const D&>(*this), batch_size, p, padding_values_t<>{});
  }
  template <node N, class... P>
  auto padded_batch(const N& batch_size, pad_to<P...> p, drop_remainder_t) const {
    return detail::make_padded<true>(static_cast<const D&>(*this), batch_size, p, padding_values_t<>{});
  }
  template <node N>
  auto padded_batch(const N& batch_size, drop_remainder_t) const {
    return detail::make_padded<true>(static_cast<const D&>(*this), batch_size, pad_to<>{}, padding_values_t<>{});
  }
  /// padded_batch(n, pad_to<S...>{}, padding_values(v...)): component K padded with v_K, a
  /// scalar node of its element type (pad_to<>: every dim to the longest).
  template <node N, class... P, class... V>
  auto padded_batch(const N& batch_size, pad_to<P...> p, const padding_values_t<V...>& values) const {
    return detail::make_padded<false>(static_cast<const D&>(*this), batch_size, p, values);
  }
  template <node N, class... P, class... V>
  auto padded_batch(const N& batch_size, pad_to<P...> p, const padding_values_t<V...>& values, drop_remainder_t) const {
    return detail::make_padded<true>(static_cast<const D&>(*this), batch_size, p, values);
  }
  template <std::int64_t N, class... P>
  auto padded_batch(pad_to<P...> p = {}) const {
    return detail::make_padded<false>(static_cast<const D&>(*this), constant<N>(), p, padding_values_t<>{});
  }
  /// map(fn): fn(components...) called once with placeholders, returning nodes: the new
  /// element's components (data/detail/graph_map.hpp).
  template <class Fn>
  auto map(Fn&& fn) const {
    using spec = typename D::spec;
    return detail::make_mapped(static_cast<const D&>(*this), fn, spec{}, std::make_index_sequence<spec::size>{});
  }
  /// filter(fn): fn(components...) called once with placeholders, returning one scalar bool
  /// node; the elements for which it is false are dropped (data/detail/graph_filter.hpp).
  template <class Fn>
  auto filter(Fn&& fn) const {
    using spec = typename D::spec;
    return detail::make_filtered(static_cast<const D&>(*this), fn, spec{}, std::make_index_sequence<spec::size>{});
  }
  /// cache(): the first complete pass kept in memory (data/detail/graph_sources.hpp).
  auto cache() const { return cached_dataset<D>(static_cast<const D&>(*this)); }
  /// shuffle<seed>(buffer_size): reshuffled each pass; shuffle<seed, false> keeps one order.
  template <std::int64_t Seed, bool Reshuffle = true, node N>
  auto shuffle(const N& buffer_size) const {
    return stage<ops_tag::shuffle<Seed, Reshuffle>>(buffer_size);
  }
  template <std::int64_t BufferSize, std::int64_t Seed, bool Reshuffle = true>
  auto shuffle() const {
    return shuffle<Seed, Reshuffle>(constant<BufferSize>());
  }
  /// repeat(): forever; repeat(count).
  auto repeat() const { return repeat(constant<std::int64_t{-1}>()); }
  template <node N>
  auto repeat(const N& count) const {
    return stage<ops_tag::repeat>(count);
  }
  template <node N>
  auto take(const N& count) const {
    return stage<ops_tag::take>(count);
  }
  template <node N>
  auto skip(const N& count) const {
    return stage<ops_tag::skip>(count);
  }
  /// shard(num_shards, index): the elements i with i % num_shards == index (TensorFlow's
  /// Dataset.shard), integer scalar nodes; their checks (InvalidArgument naming the values)
  /// at the initializer's run. shard<num_shards, index>() of literals: checked at compile time.
  template <node N, node I>
  auto shard(const N& num_shards, const I& index) const {
    if constexpr (detail::literal_count<N>() <= 0) {
      static_assert(shard_num_shards_must_be_greater_than_zero<detail::literal_count<N>()>::value,
                    "shard(num_shards, index): num_shards must be greater than zero");
      return static_cast<const D&>(*this);  // inert: the error above is the one to read
    } else if constexpr (literal_node_type<N> && literal_node_type<I> &&
                         (detail::literal_count<I>() < 0 || detail::literal_count<I>() >= detail::literal_count<N>())) {
      static_assert(shard_index_must_be_in_0_to_num_shards<detail::literal_count<N>(), detail::literal_count<I>()>::value,
                    "shard(num_shards, index): index must be at least 0 and less than num_shards");
      return static_cast<const D&>(*this);  // inert
    } else {
      return stage<ops_tag::shard>(num_shards, index);
    }
  }
  template <std::int64_t NumShards, std::int64_t Index>
  auto shard() const {
    return shard(constant<NumShards>(), constant<Index>());
  }
  /// prefetch(n): a background thread keeps n elements ready.
  template <node N>
  auto prefetch(const N& buffer_size) const {
    return stage<ops_tag::prefetch>(buffer_size);
  }
  template <std::int64_t N>
  auto prefetch() const {
    return prefetch(constant<N>());
  }

  /// The host iterator of a pass, built in an initializer's run.
  template <class Ctx>
  static auto make_iterator(Ctx& ctx) {
    return D::make_dataset(ctx).make_iterator();
  }

 private:
  template <class Op, class... N>
  auto stage(const N&... n) const {
    using params = mp::mp_list<N...>;
    constexpr std::size_t bad = mp::mp_find_if<params, detail::is_not_integer_scalar>::value;
    if constexpr (bad < sizeof...(N)) {
      using B = mp::mp_at_c<params, bad>;
      static_assert(dataset_parameter_must_be_an_integer_scalar<label_of<B>(), value_type_of<B>, shape_of<B>>::value,
                    "a dataset's batch size, buffer size or count must be an integer scalar node");
      return static_cast<const D&>(*this);  // inert: the error above is the one to read
    } else {
      return transformed_dataset<D, Op, N...>(static_cast<const D&>(*this), n...);
    }
  }
};

/// tf.data.Dataset.from_tensor_slices((a, b, ...)) of nodes: element K is row K of each.
template <node... N>
  requires(sizeof...(N) > 0)
auto from_tensor_slices(const N&... components) {
  if constexpr (!((shape_of<N>::rank >= 1) && ...)) {
    using scalar_component = mp::mp_at<mp::mp_list<shape_of<N>...>,
                                       mp::mp_find<mp::mp_list<std::bool_constant<(shape_of<N>::rank >= 1)>...>,
                                                   std::false_type>>;
    static_assert(from_tensor_slices_needs_components_of_rank_1_or_more<scalar_component>::value,
                  "from_tensor_slices(nodes...): every component needs rank 1 or more (its rows are the elements)");
    return node_tensors_dataset<N...>(components...);  // inert
  } else {
    return node_slices_dataset<N...>(components...);
  }
}

/// tf.data.Dataset.range(stop), range(start, stop[, step]) of integer scalar nodes: int64
/// scalars; range<stop>(), range<start, stop[, step]>() of literals. The calls among them are
/// qualified: typeflow::range (ops/range.hpp, tf.range) takes nodes too, and ADL finds it.
template <node Start, node Stop, node Step>
auto range(const Start& start, const Stop& stop, const Step& step) {
  using bounds = mp::mp_list<Start, Stop, Step>;
  constexpr std::size_t bad = mp::mp_find_if<bounds, detail::is_not_integer_scalar>::value;
  if constexpr (bad < 3) {
    using N = mp::mp_at_c<bounds, bad>;
    static_assert(dataset_parameter_must_be_an_integer_scalar<label_of<N>(), value_type_of<N>, shape_of<N>>::value,
                  "a dataset's batch size, buffer size or count must be an integer scalar node");
    return node_range_dataset<Start, Stop, Step>(start, stop, step);  // the error above is the one to read
  } else {
    return node_range_dataset<Start, Stop, Step>(start, stop, step);
  }
}
template <node Start, node Stop>
auto range(const Start& start, const Stop& stop) {
  return data::range(start, stop, constant<std::int64_t{1}>());
}
template <node Stop>
auto range(const Stop& stop) {
  return data::range(constant<std::int64_t{0}>(), stop, constant<std::int64_t{1}>());
}
template <std::int64_t A, std::int64_t... B>
  requires(sizeof...(B) <= 2)
auto range() {
  if constexpr (sizeof...(B) == 0) {
    return data::range(constant<A>());
  } else {
    return data::range(constant<A>(), constant<B>()...);
  }
}

/// tf.data.Dataset.zip((a, b, ...)) of graph datasets: their components one after the other.
template <graph_dataset... D>
  requires(sizeof...(D) > 1 && (std::is_base_of_v<graph_dataset_base<D>, D> && ...))
auto zip(const D&... inputs) {
  return zipped_dataset<D...>(inputs...);
}

/// tf.data.Dataset.from_tensors((a, b, ...)) of nodes: one element.
template <node... N>
  requires(sizeof...(N) > 0)
auto from_tensors(const N&... components) {
  return node_tensors_dataset<N...>(components...);
}

}  // namespace typeflow::data
