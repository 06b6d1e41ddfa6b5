// typeflow/data/dataset/base.hpp — what every dataset and every iterator is.
//
// A dataset is a copyable, immutable description of a sequence of elements (big data behind
// a shared_ptr, so copies are cheap); each element is a flat std::tuple of xt::xarray
// components whose dtypes are in the type. make_iterator() starts a pass over it; an
// iterator's next(out) fills `out` in place, reusing its storage, and returns false at the
// end. Transformations are member functions (dataset_base) returning new dataset types, so
// that they chain as in TensorFlow: `from_tensor_slices(x, y).shuffle(1000, 7).batch(32)`.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/dataset/state.hpp"

namespace typeflow::data {

/// Which pass over a dataset an iterator makes: 0 for a pass of its own, a number derived
/// from the epochs of the repeat() stages above it otherwise. A reshuffling shuffle()
/// draws its order from its seed and this number, so a pass is reproducible.
struct iteration {
  std::uint64_t epoch = 0;
  /// The pass of a stage under a repeat() at its epoch `e`.
  iteration nested(std::uint64_t e) const noexcept {
    std::uint64_t z = epoch * 0x9E3779B97F4A7C15ull + e + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return {z ^ (z >> 31)};
  }
};

template <class E>
struct is_element : std::false_type {};
template <class... T>
struct is_element<std::tuple<xt::xarray<T>...>> : std::true_type {};

/// A dataset: says its element_type (a tuple of xt::xarray), makes iterators.
template <class D>
concept dataset = is_element<typename D::element_type>::value && requires(const D& d, iteration it) {
  { d.make_iterator() } -> std::same_as<typename D::iterator>;
  { d.make_iterator(it) } -> std::same_as<typename D::iterator>;
};

/// An iterator of dataset D: next(out), save(state), restore(state).
template <class I, class E>
concept dataset_iterator = requires(I& i, const I& ci, E& out, iterator_state& s, const std::string& p) {
  { i.next(out) } -> std::same_as<bool>;
  ci.save(s, p);
};

/// A dataset whose iterators can give row indices into the tensors of a from_tensor_slices
/// (next_row) instead of elements: from_tensor_slices itself and a shuffle() of it. A
/// batch() over one gathers the rows straight into its output (no element in between).
template <class D>
concept row_indexed = requires(const D& d, typename D::iterator& it, std::size_t& row) {
  { it.next_row(row) } -> std::same_as<bool>;
  d.row_source().tensors();
};

template <class D> class batch_dataset;
template <class D> class padded_batch_dataset;
template <class D> class shuffle_dataset;
template <class D> class repeat_dataset;
template <class D> class take_dataset;
template <class D> class skip_dataset;
template <class D> class shard_dataset;
template <class D, class F> class map_dataset;
template <class D, class P> class filter_dataset;
template <class D> class cache_dataset;
template <class D> class prefetch_dataset;

/// Per component of a padded_batch: its padded shape, -1 for "the batch's longest".
using padded_shapes = std::vector<std::vector<std::int64_t>>;

/// The transformations, as TensorFlow's Dataset methods (CRTP base of every dataset).
template <class D>
class dataset_base {
 public:
  /// Dataset.batch(batch_size, drop_remainder=False)
  auto batch(std::int64_t batch_size, bool drop_remainder = false) const {
    return batch_dataset<D>(self(), batch_size, drop_remainder);
  }
  /// Dataset.padded_batch(batch_size, padded_shapes, drop_remainder=...), padding with zeros.
  auto padded_batch(std::int64_t batch_size, data::padded_shapes shapes, bool drop_remainder = false) const {
    return padded_batch_dataset<D>(self(), batch_size, std::move(shapes), drop_remainder);
  }
  /// Dataset.padded_batch(batch_size, padded_shapes, padding_values, drop_remainder)
  template <class... V>
  auto padded_batch(std::int64_t batch_size, data::padded_shapes shapes, std::tuple<V...> padding_values,
                    bool drop_remainder = false) const {
    return padded_batch_dataset<D>(self(), batch_size, std::move(shapes), padding_values, drop_remainder);
  }
  /// Dataset.shuffle(buffer_size, seed, reshuffle_each_iteration=True)
  auto shuffle(std::int64_t buffer_size, std::int64_t seed, bool reshuffle_each_iteration = true) const {
    return shuffle_dataset<D>(self(), buffer_size, seed, reshuffle_each_iteration);
  }
  /// Dataset.shuffle(buffer_size): the seed drawn from std::random_device.
  auto shuffle(std::int64_t buffer_size) const { return shuffle_dataset<D>(self(), buffer_size); }
  /// Dataset.repeat(count=None): -1 repeats forever.
  auto repeat(std::int64_t count = -1) const { return repeat_dataset<D>(self(), count); }
  /// Dataset.take(count): -1 takes everything.
  auto take(std::int64_t count) const { return take_dataset<D>(self(), count); }
  /// Dataset.skip(count): -1 skips everything.
  auto skip(std::int64_t count) const { return skip_dataset<D>(self(), count); }
  /// Dataset.shard(num_shards, index): the elements i with i % num_shards == index.
  auto shard(std::int64_t num_shards, std::int64_t index) const { return shard_dataset<D>(self(), num_shards, index); }
  /// Dataset.map(f): f(components...) or f(element) returning a tuple of xarrays or one array.
  template <class F>
  auto map(F f) const {
    return map_dataset<D, F>(self(), std::move(f));
  }
  /// Dataset.filter(predicate): predicate(components...) or predicate(element) -> bool.
  template <class P>
  auto filter(P predicate) const {
    return filter_dataset<D, P>(self(), std::move(predicate));
  }
  /// Dataset.cache(): in memory; the passes after a complete one read from memory.
  auto cache() const { return cache_dataset<D>(self()); }
  /// Dataset.prefetch(buffer_size): a background thread keeps buffer_size elements ready.
  auto prefetch(std::int64_t buffer_size) const { return prefetch_dataset<D>(self(), buffer_size); }

 private:
  const D& self() const { return static_cast<const D&>(*this); }
};

/// CRTP base of every iterator: save and restore under a name prefix. The derived class
/// says next(out), save_to(state, prefix), load_from(state, prefix) (called on a fresh
/// iterator only), dataset() and pass().
template <class I>
class iterator_base {
 public:
  /// Writes this iterator's position under `prefix` (make_saveable_from_iterator).
  void save(iterator_state& state, const std::string& prefix = "iterator") const { self().save_to(state, prefix); }
  /// Resumes where the iterator that saved `state` stood. Every entry is checked before
  /// this iterator changes: a state of another dataset, or of wrong shapes or dtypes,
  /// throws (NotFound or InvalidArgument naming the entry) and leaves it as it was.
  void restore(const iterator_state& state, const std::string& prefix = "iterator") {
    I fresh = self().dataset().make_iterator(self().pass());
    fresh.load_from(state, prefix);
    static_cast<I&>(*this) = std::move(fresh);
  }

 private:
  const I& self() const { return static_cast<const I&>(*this); }
};

namespace detail {

template <class E>
inline constexpr std::size_t components = std::tuple_size_v<E>;

inline void check_positive(std::int64_t v, const char* what) {
  if (v <= 0) throw invalid_argument_error(std::string(what) + " must be greater than zero, got " + std::to_string(v));
}

template <class Shape>
std::string shape_str(const Shape& s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

}  // namespace detail
}  // namespace typeflow::data
