// typeflow/data/dataset/repeat.hpp — Dataset.repeat, Dataset.take, Dataset.skip.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/state.hpp"

namespace typeflow::data {

/// count passes over the input (-1: forever). Pass e of the input is iterated as
/// pass().nested(e), so a reshuffling shuffle() below gets a new order each epoch. A pass
/// that yields nothing ends the repetition (as in TensorFlow, instead of looping forever).
template <class D>
class repeat_dataset : public dataset_base<repeat_dataset<D>> {
 public:
  using element_type = typename D::element_type;

  repeat_dataset(D input, std::int64_t count) : input_(std::move(input)), count_(count) {
    if (count < -1) throw invalid_argument_error("repeat: count must be -1 (forever) or at least 0, got " + std::to_string(count));
  }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(repeat_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass) {
      if (ds_.count_ != 0) in_.emplace(ds_.input_.make_iterator(pass_.nested(0)));
    }
    bool next(element_type& out) {
      while (in_) {
        if (in_->next(out)) {
          empty_pass_ = false;
          return true;
        }
        ++epoch_;
        if (empty_pass_ || (ds_.count_ >= 0 && epoch_ >= ds_.count_)) {
          in_.reset();
          return false;
        }
        in_.reset();  // the finished pass's iterator (a prefetch thread) ends before the next starts
        in_.emplace(ds_.input_.make_iterator(pass_.nested(static_cast<std::uint64_t>(epoch_))));
        empty_pass_ = true;
      }
      return false;
    }
    void save_to(iterator_state& s, const std::string& p) const {
      const std::string q = detail::join(p, "repeat");
      detail::put_int64(s, q + "/epoch", epoch_);
      detail::put_int64(s, q + "/active", in_ ? 1 : 0);
      detail::put_int64(s, q + "/empty_pass", empty_pass_ ? 1 : 0);
      if (in_) in_->save_to(s, q);
    }
    void load_from(const iterator_state& s, const std::string& p) {
      const std::string q = detail::join(p, "repeat");
      const std::int64_t epoch = detail::get_int64_in(s, q + "/epoch", 0, ds_.count_ < 0 ? INT64_MAX : ds_.count_);
      const bool active = detail::get_int64_in(s, q + "/active", 0, 1) == 1;
      empty_pass_ = detail::get_int64_in(s, q + "/empty_pass", 0, 1) == 1;
      epoch_ = epoch;
      in_.reset();
      if (active) {
        in_.emplace(ds_.input_.make_iterator(pass_.nested(static_cast<std::uint64_t>(epoch))));
        in_->load_from(s, q);
      }
    }
    const repeat_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    repeat_dataset ds_;
    iteration pass_;
    std::optional<typename D::iterator> in_;
    std::int64_t epoch_ = 0;
    bool empty_pass_ = true;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::int64_t count_;
};

/// The first count elements (-1: all of them).
template <class D>
class take_dataset : public dataset_base<take_dataset<D>> {
 public:
  using element_type = typename D::element_type;

  take_dataset(D input, std::int64_t count) : input_(std::move(input)), count_(count) {
    if (count < -1) throw invalid_argument_error("take: count must be -1 (all) or at least 0, got " + std::to_string(count));
  }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(take_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      if (ds_.count_ >= 0 && taken_ >= ds_.count_) return false;
      if (!in_.next(out)) return false;
      ++taken_;
      return true;
    }
    void save_to(iterator_state& s, const std::string& p) const {
      const std::string q = detail::join(p, "take");
      detail::put_int64(s, q + "/taken", taken_);
      in_.save_to(s, q);
    }
    void load_from(const iterator_state& s, const std::string& p) {
      const std::string q = detail::join(p, "take");
      taken_ = detail::get_int64_in(s, q + "/taken", 0, ds_.count_ < 0 ? INT64_MAX : ds_.count_);
      in_.load_from(s, q);
    }
    const take_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    take_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
    std::int64_t taken_ = 0;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::int64_t count_;
};

/// All but the first count elements (-1: none).
template <class D>
class skip_dataset : public dataset_base<skip_dataset<D>> {
 public:
  using element_type = typename D::element_type;

  skip_dataset(D input, std::int64_t count) : input_(std::move(input)), count_(count) {
    if (count < -1) throw invalid_argument_error("skip: count must be -1 (all) or at least 0, got " + std::to_string(count));
  }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(skip_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      while (ds_.count_ < 0 || skipped_ < ds_.count_) {
        if (!in_.next(out)) return false;
        ++skipped_;
      }
      return in_.next(out);
    }
    void save_to(iterator_state& s, const std::string& p) const {
      const std::string q = detail::join(p, "skip");
      detail::put_int64(s, q + "/skipped", skipped_);
      in_.save_to(s, q);
    }
    void load_from(const iterator_state& s, const std::string& p) {
      const std::string q = detail::join(p, "skip");
      skipped_ = detail::get_int64_in(s, q + "/skipped", 0, INT64_MAX);
      in_.load_from(s, q);
    }
    const skip_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    skip_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
    std::int64_t skipped_ = 0;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::int64_t count_;
};

}  // namespace typeflow::data
