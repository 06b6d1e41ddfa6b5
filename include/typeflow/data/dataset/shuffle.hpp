// typeflow/data/dataset/shuffle.hpp — Dataset.shuffle: TensorFlow's buffer algorithm.
//
// The iterator fills a buffer with the first buffer_size elements of its input, then emits
// a uniformly chosen element of the buffer and puts the next input element in its place;
// once the input ends, it empties the buffer the same way. The choices come from a
// splitmix64 generator seeded by (seed, pass): the same seed gives the same order; with
// reshuffle_each_iteration each pass of an enclosing repeat() gets its own order, all
// reproducible. (TensorFlow draws from Philox; its orders are not reproduced.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/sources.hpp"
#include "typeflow/data/dataset/state.hpp"
#include "typeflow/data/detail/rows.hpp"

namespace typeflow::data {
namespace detail {

/// splitmix64: one 64-bit word of state, so that a saved iterator carries its generator.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t operator()() noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (Lemire's multiply-shift; the bias is below 2^-32 for n < 2^32).
  std::size_t below(std::size_t n) noexcept {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(operator()()) * n) >> 64);
  }
};

}  // namespace detail

template <class D>
class shuffle_dataset : public dataset_base<shuffle_dataset<D>> {
 public:
  using element_type = typename D::element_type;
  /// The input is a from_tensor_slices: the buffer holds row indices (see row_indexed).
  static constexpr bool by_row = detail::is_slices<D>::value;

  shuffle_dataset(D input, std::int64_t buffer_size, std::int64_t seed, bool reshuffle_each_iteration)
      : input_(std::move(input)), buffer_size_(buffer_size), seed_(static_cast<std::uint64_t>(seed)),
        reshuffle_(reshuffle_each_iteration) {
    detail::check_positive(buffer_size, "buffer_size");
  }
  shuffle_dataset(D input, std::int64_t buffer_size)
      : shuffle_dataset(std::move(input), buffer_size,
                        static_cast<std::int64_t>((std::uint64_t{std::random_device{}()} << 32) | std::random_device{}()),
                        true) {}

  class iterator : public iterator_base<iterator> {
   public:
    iterator(shuffle_dataset ds, iteration pass)
        : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)),
          rng_{detail::splitmix64{ds_.seed_ ^ (ds_.reshuffle_ ? pass.nested(1).epoch : 0x5DEECE66Dull)}()} {}
    /// Over a from_tensor_slices: the buffer holds row indices, drawn by the same
    /// algorithm (which never looks at the values), so the order is the one of elements.
    bool next_row(std::size_t& row)
      requires by_row
    {
      if (!filled_) {
        rows_.reserve(std::min(static_cast<std::size_t>(ds_.buffer_size_), in_.rows_left()));
        std::size_t r = 0;
        while (rows_.size() < static_cast<std::size_t>(ds_.buffer_size_)) {
          if (!in_.next_row(r)) { exhausted_ = true; break; }
          rows_.push_back(r);
        }
        filled_ = true;
      }
      if (rows_.empty()) return false;
      const std::size_t i = rng_.below(rows_.size());
      row = rows_[i];
      if (!exhausted_ && in_.next_row(rows_[i])) return true;
      exhausted_ = true;
      rows_[i] = rows_.back();
      rows_.pop_back();
      return true;
    }
    bool next(element_type& out) {
      if constexpr (by_row) {
        std::size_t r = 0;
        if (!next_row(r)) return false;
        detail::copy_row(ds_.input_.tensors(), r, out);
        return true;
      } else {
        return next_element(out);
      }
    }
    void save_to(iterator_state& s, const std::string& p) const {
      const std::string q = detail::join(p, "shuffle");
      detail::put_uint64(s, q + "/rng", rng_.state);
      detail::put_int64(s, q + "/filled", filled_ ? 1 : 0);
      detail::put_int64(s, q + "/exhausted", exhausted_ ? 1 : 0);
      if constexpr (by_row)
        detail::put_rows(s, q + "/buffer_rows", rows_);
      else
        detail::put_elements<element_type>(s, q + "/buffer", buffer_, live_);
      in_.save_to(s, q);
    }
    void load_from(const iterator_state& s, const std::string& p) {
      const std::string q = detail::join(p, "shuffle");
      rng_.state = detail::get_uint64(s, q + "/rng");
      filled_ = detail::get_int64_in(s, q + "/filled", 0, 1) == 1;
      exhausted_ = detail::get_int64_in(s, q + "/exhausted", 0, 1) == 1;
      if constexpr (by_row) {
        rows_ = detail::get_rows(s, q + "/buffer_rows", ds_.buffer_size_, ds_.input_.size());
      } else {
        buffer_ = detail::get_elements<element_type>(s, q + "/buffer", ds_.buffer_size_);
        live_ = buffer_.size();
      }
      in_.load_from(s, q);
    }
    const shuffle_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    bool next_element(element_type& out) {
      if (!filled_) {
        buffer_.resize(static_cast<std::size_t>(ds_.buffer_size_) < 1024 ? static_cast<std::size_t>(ds_.buffer_size_) : 1024);
        while (live_ < static_cast<std::size_t>(ds_.buffer_size_)) {
          if (live_ == buffer_.size()) buffer_.resize(std::min<std::size_t>(buffer_.size() * 2, static_cast<std::size_t>(ds_.buffer_size_)));
          if (!in_.next(buffer_[live_])) { exhausted_ = true; break; }
          ++live_;
        }
        filled_ = true;
      }
      if (live_ == 0) return false;
      const std::size_t i = rng_.below(live_);
      std::swap(out, buffer_[i]);  // out's storage takes the slot, refilled below
      if (!exhausted_ && in_.next(buffer_[i])) return true;
      exhausted_ = true;
      std::swap(buffer_[i], buffer_[live_ - 1]);
      --live_;
      return true;
    }
    shuffle_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
    detail::splitmix64 rng_;
    std::vector<element_type> buffer_;  // [0, live_) hold elements; the rest keep storage
    std::size_t live_ = 0;
    std::vector<std::size_t> rows_;  // by_row: the buffer, as row indices
    bool filled_ = false, exhausted_ = false;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }
  const auto& row_source() const noexcept
    requires by_row
  {
    return input_.row_source();
  }

 private:
  D input_;
  std::int64_t buffer_size_;
  std::uint64_t seed_;
  bool reshuffle_;
};

}  // namespace typeflow::data
