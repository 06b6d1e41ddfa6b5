// typeflow/data/dataset/shard.hpp — Dataset.shard(num_shards, index): one worker's share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/state.hpp"
#include "typeflow/data/detail/rows.hpp"

namespace typeflow::data {

/// Element i of the input is kept iff i % num_shards == index, as TensorFlow's ShardDataset
/// (its checks and messages too). The shards of one input are disjoint and together are
/// the input; shard k has n / num_shards elements, one more when k < n % num_shards. The
/// iterator reads its input to the next kept element: after the last one, a next() reads
/// the at most num_shards - 1 elements that remain before it returns false. Over a
/// row-indexed input (a from_tensor_slices, shuffled or not) it passes row indices, so the
/// rows of other shards are never copied and a batch() above gathers its rows directly.
template <class D>
class shard_dataset : public dataset_base<shard_dataset<D>> {
 public:
  using element_type = typename D::element_type;

  shard_dataset(D input, std::int64_t num_shards, std::int64_t index)
      : input_(std::move(input)), num_shards_(num_shards), index_(index) {
    if (num_shards <= 0)
      throw invalid_argument_error("shard: Number of shards must be greater than zero (currently num_shards = " +
                                   std::to_string(num_shards) + ")");
    if (index < 0 || index >= num_shards)
      throw invalid_argument_error("shard: Index must be between 0 and " + std::to_string(num_shards - 1) +
                                   " (currently index = " + std::to_string(index) + ")");
  }

  std::int64_t num_shards() const noexcept { return num_shards_; }
  std::int64_t index() const noexcept { return index_; }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(shard_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      if constexpr (row_indexed<D>) {
        std::size_t r = 0;
        if (!next_row(r)) return false;
        detail::copy_row(ds_.input_.row_source().tensors(), r, out);
        return true;
      } else {
        for (;;) {
          if (!in_.next(out)) return false;
          if (kept()) return true;
        }
      }
    }
    bool next_row(std::size_t& row)
      requires row_indexed<D>
    {
      for (;;) {
        if (!in_.next_row(row)) return false;
        if (kept()) return true;
      }
    }
    /// The input's position, the count of input elements read, and which shard this is:
    /// another worker's state (of another index or shard count) is rejected on restore,
    /// since its position would make this worker repeat or miss elements.
    void save_to(iterator_state& s, const std::string& p) const {
      const std::string q = detail::join(p, "shard");
      detail::put_int64(s, q + "/next_index", next_index_);
      detail::put_int64(s, q + "/num_shards", ds_.num_shards_);
      detail::put_int64(s, q + "/index", ds_.index_);
      in_.save_to(s, q);
    }
    void load_from(const iterator_state& s, const std::string& p) {
      const std::string q = detail::join(p, "shard");
      const std::int64_t num_shards = detail::get_int64(s, q + "/num_shards");
      const std::int64_t index = detail::get_int64(s, q + "/index");
      if (num_shards != ds_.num_shards_ || index != ds_.index_)
        throw invalid_argument_error("The iterator state's entries '" + q + "/num_shards' and '" + q +
                                     "/index' are " + std::to_string(num_shards) + " and " + std::to_string(index) +
                                     ": it was saved by shard " + std::to_string(index) + " of " +
                                     std::to_string(num_shards) + ", and this iterator reads shard " +
                                     std::to_string(ds_.index_) + " of " + std::to_string(ds_.num_shards_) +
                                     " (each worker restores its own position)");
      next_index_ = detail::get_int64_in(s, q + "/next_index", 0, INT64_MAX);
      in_.load_from(s, q);
    }
    const shard_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    // Whether the input element just read is this shard's; counts it.
    bool kept() noexcept { return next_index_++ % ds_.num_shards_ == ds_.index_; }
    shard_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
    std::int64_t next_index_ = 0;  // input elements read (TensorFlow's next_index)
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }
  /// Over a row-indexed input: the sliced tensors whose row indices next_row() gives.
  const auto& row_source() const noexcept
    requires row_indexed<D>
  {
    return input_.row_source();
  }

 private:
  D input_;
  std::int64_t num_shards_;
  std::int64_t index_;
};

}  // namespace typeflow::data
