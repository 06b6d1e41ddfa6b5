// typeflow/data/dataset/sources.hpp — datasets made from host values: from_tensor_slices,
// from_tensors, range, zip (TensorFlow's Dataset constructors).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <xtensor/xarray.hpp>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/state.hpp"

namespace typeflow::data {

/// Dataset.from_tensor_slices((a, b, ...)): element i is (a[i], b[i], ...).
template <element_type... T>
class slices_dataset : public dataset_base<slices_dataset<T...>> {
 public:
  using element_type = std::tuple<xt::xarray<T>...>;

  explicit slices_dataset(element_type tensors) : data_(std::make_shared<const element_type>(std::move(tensors))) {
    std::string sizes;
    bool same = true, scalar = false;
    std::size_t n = 0;
    std::apply(
        [&](const auto&... a) {
          std::size_t i = 0;
          ((scalar = scalar || a.dimension() == 0), ...);
          (((sizes += (i ? ", " : "") + (a.dimension() ? std::to_string(a.shape()[0]) : std::string("scalar"))),
            (a.dimension() && i == 0 ? n = a.shape()[0] : 0), (same = same && a.dimension() && a.shape()[0] == n),
            ++i),
           ...);
        },
        *data_);
    if (scalar) throw invalid_argument_error("from_tensor_slices: cannot slice a scalar (first dimensions: " + sizes + ")");
    if (!same)
      throw invalid_argument_error("from_tensor_slices: all components must have the same size in dimension 0, got " +
                                   sizes);
    size_ = n;
  }

  std::size_t size() const noexcept { return size_; }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(slices_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass) {}
    /// The next row's index instead of its values: the row-indexed fast path of
    /// shuffle() and batch() (see row_indexed in base.hpp).
    bool next_row(std::size_t& row) noexcept {
      if (i_ >= ds_.size_) return false;
      row = i_++;
      return true;
    }
    /// How many rows are left in this pass.
    std::size_t rows_left() const noexcept { return ds_.size_ - i_; }
    bool next(element_type& out) {
      if (i_ >= ds_.size_) return false;
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        (copy_row(std::get<C>(*ds_.data_), std::get<C>(out)), ...);
      }(std::index_sequence_for<T...>{});
      ++i_;
      return true;
    }
    void save_to(iterator_state& s, const std::string& p) const {
      detail::put_int64(s, detail::join(p, "slices/index"), static_cast<std::int64_t>(i_));
    }
    void load_from(const iterator_state& s, const std::string& p) {
      i_ = static_cast<std::size_t>(
          detail::get_int64_in(s, detail::join(p, "slices/index"), 0, static_cast<std::int64_t>(ds_.size_)));
    }
    const slices_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    template <class U>
    void copy_row(const xt::xarray<U>& src, xt::xarray<U>& dst) const {
      typename xt::xarray<U>::shape_type shape(src.shape().begin() + 1, src.shape().end());
      dst.resize(shape);
      const std::size_t row = dst.size();
      std::copy(src.data() + i_ * row, src.data() + (i_ + 1) * row, dst.data());
    }
    slices_dataset ds_;
    iteration pass_;
    std::size_t i_ = 0;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

  /// The sliced tensors: row r of component C is std::get<C>(tensors()) sliced at r.
  const element_type& tensors() const noexcept { return *data_; }
  /// This dataset, as the source of the rows an iterator's next_row() gives.
  const slices_dataset& row_source() const noexcept { return *this; }

 private:
  std::shared_ptr<const element_type> data_;
  std::size_t size_ = 0;
};

namespace detail {
template <class D>
struct is_slices : std::false_type {};
template <class... T>
struct is_slices<slices_dataset<T...>> : std::true_type {};
}  // namespace detail

/// Dataset.from_tensors((a, b, ...)): one element, (a, b, ...).
template <element_type... T>
class tensors_dataset : public dataset_base<tensors_dataset<T...>> {
 public:
  using element_type = std::tuple<xt::xarray<T>...>;

  explicit tensors_dataset(element_type tensors) : data_(std::make_shared<const element_type>(std::move(tensors))) {}

  class iterator : public iterator_base<iterator> {
   public:
    iterator(tensors_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass) {}
    bool next(element_type& out) {
      if (done_) return false;
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        ((std::get<C>(out).resize(std::get<C>(*ds_.data_).shape()),
          std::copy(std::get<C>(*ds_.data_).data(), std::get<C>(*ds_.data_).data() + std::get<C>(out).size(),
                    std::get<C>(out).data())),
         ...);
      }(std::index_sequence_for<T...>{});
      done_ = true;
      return true;
    }
    void save_to(iterator_state& s, const std::string& p) const {
      detail::put_int64(s, detail::join(p, "tensors/done"), done_ ? 1 : 0);
    }
    void load_from(const iterator_state& s, const std::string& p) {
      done_ = detail::get_int64_in(s, detail::join(p, "tensors/done"), 0, 1) == 1;
    }
    const tensors_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    tensors_dataset ds_;
    iteration pass_;
    bool done_ = false;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  std::shared_ptr<const element_type> data_;
};

/// Dataset.range(start, stop, step): int64 scalars.
class range_dataset : public dataset_base<range_dataset> {
 public:
  using element_type = std::tuple<xt::xarray<std::int64_t>>;

  range_dataset(std::int64_t start, std::int64_t stop, std::int64_t step) : start_(start), stop_(stop), step_(step) {
    if (step == 0) throw invalid_argument_error("range: step must not be 0");
  }

  class iterator;
  iterator make_iterator(iteration pass = {}) const;

 private:
  std::int64_t start_, stop_, step_;
};

class range_dataset::iterator : public iterator_base<range_dataset::iterator> {
 public:
  iterator(range_dataset ds, iteration pass) : ds_(ds), pass_(pass), next_(ds.start_) {}
  bool next(element_type& out) {
    if (ds_.step_ > 0 ? next_ >= ds_.stop_ : next_ <= ds_.stop_) return false;
    auto& a = std::get<0>(out);
    if (a.dimension() != 0) a.resize(typename xt::xarray<std::int64_t>::shape_type{});
    a() = next_;
    next_ += ds_.step_;
    return true;
  }
  void save_to(iterator_state& s, const std::string& p) const { detail::put_int64(s, detail::join(p, "range/next"), next_); }
  void load_from(const iterator_state& s, const std::string& p) { next_ = detail::get_int64(s, detail::join(p, "range/next")); }
  const range_dataset& dataset() const { return ds_; }
  iteration pass() const { return pass_; }

 private:
  range_dataset ds_;
  iteration pass_;
  std::int64_t next_;
};

inline range_dataset::iterator range_dataset::make_iterator(iteration pass) const { return iterator(*this, pass); }

/// Dataset.zip((a, b, ...)): the components of each input side by side, as one flat
/// tuple; ends with the shortest input.
template <dataset... D>
class zip_dataset : public dataset_base<zip_dataset<D...>> {
 public:
  using element_type = decltype(std::tuple_cat(std::declval<typename D::element_type>()...));

  explicit zip_dataset(D... inputs) : inputs_(std::move(inputs)...) {}

  class iterator : public iterator_base<iterator> {
   public:
    iterator(zip_dataset ds, iteration pass)
        : ds_(std::move(ds)), pass_(pass), its_(std::apply([&](const auto&... d) {
            return std::tuple<typename D::iterator...>(d.make_iterator(pass)...);
          }, ds_.inputs_)) {}
    bool next(element_type& out) {
      bool ok = true;
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        ((ok = ok && std::get<K>(its_).next(std::get<K>(parts_))), ...);
      }(std::index_sequence_for<D...>{});
      if (!ok) return false;
      // Hand the parts over by swap: each part's storage comes back for the next element.
      auto refs = std::apply([](auto&... p) { return std::tuple_cat(std::apply([](auto&... c) { return std::tie(c...); }, p)...); }, parts_);
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        (std::swap(std::get<C>(out), std::get<C>(refs)), ...);
      }(std::make_index_sequence<std::tuple_size_v<element_type>>{});
      return true;
    }
    void save_to(iterator_state& s, const std::string& p) const {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        (std::get<K>(its_).save_to(s, detail::join(p, "zip") + "/" + std::to_string(K)), ...);
      }(std::index_sequence_for<D...>{});
    }
    void load_from(const iterator_state& s, const std::string& p) {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        (std::get<K>(its_).load_from(s, detail::join(p, "zip") + "/" + std::to_string(K)), ...);
      }(std::index_sequence_for<D...>{});
    }
    const zip_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    zip_dataset ds_;
    iteration pass_;
    std::tuple<typename D::iterator...> its_;
    std::tuple<typename D::element_type...> parts_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  std::tuple<D...> inputs_;
};

/// tf.data.Dataset.from_tensor_slices((a, b, ...)): every component must have the same
/// first dimension (InvalidArgument naming the sizes otherwise).
template <class... E>
  requires(sizeof...(E) > 0 && (xt::is_xexpression<std::decay_t<E>>::value && ...))
auto from_tensor_slices(E&&... components) {
  using D = slices_dataset<typename std::decay_t<E>::value_type...>;
  return D(typename D::element_type(std::forward<E>(components)...));
}

/// tf.data.Dataset.from_tensors((a, b, ...)): one element.
template <class... E>
  requires(sizeof...(E) > 0 && (xt::is_xexpression<std::decay_t<E>>::value && ...))
auto from_tensors(E&&... components) {
  using D = tensors_dataset<typename std::decay_t<E>::value_type...>;
  return D(typename D::element_type(std::forward<E>(components)...));
}

/// tf.data.Dataset.range(stop), range(start, stop[, step]): int64 scalars.
inline range_dataset range(std::int64_t stop) { return range_dataset(0, stop, 1); }
inline range_dataset range(std::int64_t start, std::int64_t stop, std::int64_t step = 1) {
  return range_dataset(start, stop, step);
}

/// tf.data.Dataset.zip((a, b, ...))
template <dataset... D>
  requires(sizeof...(D) > 0)
auto zip(D... inputs) {
  return zip_dataset<D...>(std::move(inputs)...);
}

}  // namespace typeflow::data
