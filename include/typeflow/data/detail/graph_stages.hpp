// typeflow/data/detail/graph_stages.hpp — the transformations of a graph dataset
// (data/graph_dataset.hpp) that map onto a host dataset's: batch, shuffle, repeat, take,
// skip, prefetch, shard. A stage is transformed_dataset<Inner, Op, P...>: Op's element rule
// over Inner's structure at compile time, and Op's host transformation over the values of
// the parameter nodes P... at the initializer's run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/concepts.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/data/dataset.hpp"
#include "typeflow/data/detail/graph_sources.hpp"
#include "typeflow/data/detail/padded_batch.hpp"

namespace typeflow::data {

namespace detail {
/// A literal integer node's value (1 for any other node: nothing to check at compile time).
template <class N>
constexpr std::int64_t literal_count() {
  if constexpr (literal_node_type<N> && integer_scalar<N>) {
    return static_cast<std::int64_t>(N::value);
  } else {
    return 1;
  }
}

template <class Spec, std::ptrdiff_t B>
struct batched_spec;
template <class... C, std::ptrdiff_t B>
struct batched_spec<element_spec<C...>, B> {
  using type = element_spec<component<typename C::value_type, typename prepend_dim<typename C::shape_type, B>::type>...>;
};
}  // namespace detail

template <class D>
class graph_dataset_base;

/// A stage of a graph dataset: Inner transformed by Op with the parameter nodes P...
template <class Inner, class Op, class... P>
class transformed_dataset;

/// In a diagnostic: shard<NumShards, Index>() (or literal nodes) with NumShards <= 0.
template <std::int64_t NumShards>
struct shard_num_shards_must_be_greater_than_zero {
  static constexpr bool value = false;
};
/// In a diagnostic: shard<NumShards, Index>() (or literal nodes) with Index outside
/// [0, NumShards).
template <std::int64_t NumShards, std::int64_t Index>
struct shard_index_must_be_in_0_to_num_shards {
  static constexpr bool value = false;
};

namespace ops_tag {
// Each tag: spec<Spec, P...>, the element structure after the stage over Spec with the
// parameter nodes P...; apply(host, p...), the stage over the host dataset with their values.
template <bool Drop>
struct batch {
  template <class Spec, class... N>
  using spec = typename detail::batched_spec<Spec, detail::batch_dim<Drop, N...>()>::type;
  template <class Host>
  static auto apply(const Host& h, std::int64_t n) {
    return h.batch(n, Drop);
  }
};
template <std::int64_t Seed, bool Reshuffle>
struct shuffle {
  template <class Spec, class...>
  using spec = Spec;
  template <class Host>
  static auto apply(const Host& h, std::int64_t buffer_size) {
    return h.shuffle(buffer_size, Seed, Reshuffle);
  }
};
#define TYPEFLOW_DATA_COUNT_STAGE(name)              \
  struct name {                                      \
    template <class Spec, class...>                  \
    using spec = Spec;                               \
    template <class Host>                            \
    static auto apply(const Host& h, std::int64_t n) { \
      return h.name(n);                              \
    }                                                \
  };
TYPEFLOW_DATA_COUNT_STAGE(repeat)
TYPEFLOW_DATA_COUNT_STAGE(take)
TYPEFLOW_DATA_COUNT_STAGE(skip)
TYPEFLOW_DATA_COUNT_STAGE(prefetch)
#undef TYPEFLOW_DATA_COUNT_STAGE
struct shard {
  template <class Spec, class...>
  using spec = Spec;
  template <class Host>
  static auto apply(const Host& h, std::int64_t num_shards, std::int64_t index) {
    return h.shard(num_shards, index);
  }
};
}  // namespace ops_tag

template <class Inner, class Op, class... P>
class transformed_dataset : public graph_dataset_base<transformed_dataset<Inner, Op, P...>> {
  using params = mp::mp_list<P...>;

 public:
  using spec = typename Op::template spec<typename Inner::spec, P...>;
  using inputs = mp::mp_unique<mp::mp_append<typename Inner::inputs, params>>;
  transformed_dataset(const Inner& inner, const P&... p) : inner_(inner), params_(p...) {}
  auto input_nodes() const {
    return [&]<class... In>(mp::mp_list<In...>) { return std::tuple<In...>(find<In>()...); }(inputs{});
  }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    return Op::apply(Inner::make_dataset(ctx), detail::integer_value(ctx.template value<P>())...);
  }

 private:
  template <class In>
  In find() const {
    if constexpr (mp::mp_contains<params, In>::value) {
      return std::get<mp::mp_find<params, In>::value>(params_);
    } else {
      return std::get<In>(inner_.input_nodes());
    }
  }
  Inner inner_;
  std::tuple<P...> params_;
};

}  // namespace typeflow::data
