// typeflow/data/dataset/cache.hpp — Dataset.cache() in memory.
//
// The first pass that reaches the end of the input publishes what it read in a store the
// dataset's copies share (as TensorFlow's memory cache is shared by the dataset's
// iterators); the passes that start after it read from memory. A pass abandoned before the
// end publishes nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/state.hpp"

namespace typeflow::data {

template <class D>
class cache_dataset : public dataset_base<cache_dataset<D>> {
 public:
  using element_type = typename D::element_type;
  using contents = std::vector<element_type>;

  explicit cache_dataset(D input) : input_(std::move(input)), store_(std::make_shared<store>()) {}

  /// Whether a complete pass has filled the cache.
  bool filled() const { return store_->get() != nullptr; }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(cache_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass), cached_(ds_.store_->get()) {
      if (!cached_) in_.emplace(ds_.input_.make_iterator(pass));
    }
    bool next(element_type& out) {
      if (cached_) {
        if (pos_ >= cached_->size()) return false;
        const element_type& e = (*cached_)[pos_++];
        [&]<std::size_t... C>(std::index_sequence<C...>) {
          ((std::get<C>(out).resize(std::get<C>(e).shape()),
            std::copy(std::get<C>(e).begin(), std::get<C>(e).end(), std::get<C>(out).begin())),
           ...);
        }(std::make_index_sequence<detail::components<element_type>>{});
        return true;
      }
      if (!in_) return false;
      if (in_->next(out)) {
        gathered_.push_back(out);
        return true;
      }
      in_.reset();
      ds_.store_->publish(std::make_shared<const contents>(std::move(gathered_)));
      gathered_.clear();
      return false;
    }
    void save_to(iterator_state& s, const std::string& p) const {
      const std::string q = detail::join(p, "cache");
      detail::put_int64(s, q + "/reading", cached_ ? 1 : 0);
      if (cached_) {
        detail::put_int64(s, q + "/position", static_cast<std::int64_t>(pos_));
        detail::put_elements<element_type>(s, q + "/contents", *cached_, cached_->size());
      } else {
        detail::put_int64(s, q + "/active", in_ ? 1 : 0);
        detail::put_elements<element_type>(s, q + "/contents", gathered_, gathered_.size());
        if (in_) in_->save_to(s, q);
      }
    }
    void load_from(const iterator_state& s, const std::string& p) {
      const std::string q = detail::join(p, "cache");
      const bool reading = detail::get_int64_in(s, q + "/reading", 0, 1) == 1;
      contents elements = detail::get_elements<element_type>(s, q + "/contents", INT64_MAX);
      if (reading) {
        const auto pos = detail::get_int64_in(s, q + "/position", 0, static_cast<std::int64_t>(elements.size()));
        in_.reset();
        gathered_.clear();
        pos_ = static_cast<std::size_t>(pos);
        // The saved contents, published if no pass of this dataset has filled the cache yet.
        cached_ = ds_.store_->publish(std::make_shared<const contents>(std::move(elements)));
      } else {
        const bool active = detail::get_int64_in(s, q + "/active", 0, 1) == 1;
        std::optional<typename D::iterator> in;
        if (active) {
          in.emplace(ds_.input_.make_iterator(pass_));
          in->load_from(s, q);
        }
        cached_.reset();
        in_ = std::move(in);
        gathered_ = std::move(elements);
      }
    }
    const cache_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    cache_dataset ds_;
    iteration pass_;
    std::shared_ptr<const contents> cached_;
    std::size_t pos_ = 0;
    std::optional<typename D::iterator> in_;
    contents gathered_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  class store {
   public:
    std::shared_ptr<const contents> get() const {
      std::lock_guard lock(m_);
      return data_;
    }
    /// Keeps the first complete contents; returns the ones kept.
    std::shared_ptr<const contents> publish(std::shared_ptr<const contents> c) {
      std::lock_guard lock(m_);
      if (!data_) data_ = std::move(c);
      return data_;
    }

   private:
    mutable std::mutex m_;
    std::shared_ptr<const contents> data_;
  };
  D input_;
  std::shared_ptr<store> store_;
};

}  // namespace typeflow::data
