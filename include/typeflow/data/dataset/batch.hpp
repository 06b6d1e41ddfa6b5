// typeflow/data/dataset/batch.hpp — Dataset.batch and Dataset.padded_batch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/state.hpp"
#include "typeflow/data/detail/rows.hpp"

namespace typeflow::data {
namespace detail {

/// Shrinks a batch of `capacity` rows to its first `rows` (the last batch of a pass).
template <class T>
void keep_rows(xt::xarray<T>& a, std::size_t rows) {
  typename xt::xarray<T>::shape_type shape(a.shape().begin(), a.shape().end());
  const std::size_t row = shape[0] ? a.size() / shape[0] : 0;
  shape[0] = rows;
  xt::xarray<T> b = xt::xarray<T>::from_shape(shape);
  std::copy(a.data(), a.data() + rows * row, b.data());
  a = std::move(b);
}

/// std::tuple<T...> for an element std::tuple<xt::xarray<T>...>: its padding values.
template <class E>
struct scalars_of;
template <class... T>
struct scalars_of<std::tuple<xt::xarray<T>...>> {
  using type = std::tuple<T...>;
};

}  // namespace detail

/// Stacks `batch_size` consecutive elements along a new first dimension. The elements of a
/// batch must have equal shapes: InvalidArgument "Cannot batch tensors with different
/// shapes in component 0. First element had shape [2] and element 3 had shape [3]."
template <class D>
class batch_dataset : public dataset_base<batch_dataset<D>> {
 public:
  using element_type = typename D::element_type;

  batch_dataset(D input, std::int64_t batch_size, bool drop_remainder)
      : input_(std::move(input)), n_(batch_size), drop_(drop_remainder) {
    detail::check_positive(batch_size, "batch_size");
  }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(batch_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      if constexpr (row_indexed<D>) {
        return next_by_row(out);
      } else {
        return next_element(out);
      }
    }
    void save_to(iterator_state& s, const std::string& p) const { in_.save_to(s, detail::join(p, "batch")); }
    void load_from(const iterator_state& s, const std::string& p) { in_.load_from(s, detail::join(p, "batch")); }
    const batch_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    // Over from_tensor_slices (shuffled or not): each row copied once, from the sliced
    // tensors into the batch. The rows of one tensor all have its shape: nothing to check.
    bool next_by_row(element_type& out) {
      const auto n = static_cast<std::size_t>(ds_.n_);
      std::size_t r = 0;
      if (!in_.next_row(r)) return false;
      const auto& tensors = ds_.input_.row_source().tensors();
      detail::shape_batch(tensors, n, out);
      detail::gather_row(tensors, r, out, 0);
      std::size_t k = 1;
      for (; k < n && in_.next_row(r); ++k) detail::gather_row(tensors, r, out, k);
      if (k < n && ds_.drop_) return false;
      if (k < n) std::apply([&](auto&... a) { (detail::keep_rows(a, k), ...); }, out);
      return true;
    }
    bool next_element(element_type& out) {
      const auto n = static_cast<std::size_t>(ds_.n_);
      std::size_t k = 0;
      for (; k < n && in_.next(elem_); ++k) {
        [&]<std::size_t... C>(std::index_sequence<C...>) {
          (place<C>(std::get<C>(elem_), std::get<C>(out), k, n), ...);
        }(std::make_index_sequence<detail::components<element_type>>{});
      }
      if (k == 0 || (k < n && ds_.drop_)) return false;
      if (k < n) std::apply([&](auto&... a) { (detail::keep_rows(a, k), ...); }, out);
      return true;
    }
    template <std::size_t C, class T>
    void place(const xt::xarray<T>& e, xt::xarray<T>& b, std::size_t k, std::size_t n) {
      if (k == 0) {
        typename xt::xarray<T>::shape_type shape(e.dimension() + 1);
        shape[0] = n;
        std::copy(e.shape().begin(), e.shape().end(), shape.begin() + 1);
        b.resize(shape);  // no allocation when the size is the last batch's
      } else if (b.dimension() != e.dimension() + 1 || !std::equal(e.shape().begin(), e.shape().end(), b.shape().begin() + 1)) {
        typename xt::xarray<T>::shape_type first(b.shape().begin() + 1, b.shape().end());
        throw invalid_argument_error("Cannot batch tensors with different shapes in component " + std::to_string(C) +
                                     ". First element had shape " + detail::shape_str(first) + " and element " +
                                     std::to_string(k) + " had shape " + detail::shape_str(e.shape()) + ".");
      }
      std::copy(e.data(), e.data() + e.size(), b.data() + k * e.size());
    }
    batch_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
    typename D::element_type elem_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::int64_t n_;
  bool drop_;
};

/// Batches elements whose shapes differ, padding each component to `padded_shapes` (a
/// dimension -1: the batch's longest) with its padding value (zero by default).
template <class D>
class padded_batch_dataset : public dataset_base<padded_batch_dataset<D>> {
 public:
  using element_type = typename D::element_type;
  static constexpr std::size_t K = detail::components<element_type>;

  padded_batch_dataset(D input, std::int64_t batch_size, padded_shapes shapes, bool drop_remainder)
      : padded_batch_dataset(std::move(input), batch_size, std::move(shapes), values_t{}, drop_remainder) {}
  template <class... V>
  padded_batch_dataset(D input, std::int64_t batch_size, padded_shapes shapes, std::tuple<V...> values,
                       bool drop_remainder)
      : input_(std::move(input)), n_(batch_size), shapes_(std::move(shapes)), drop_(drop_remainder) {
    static_assert(sizeof...(V) == K, "padded_batch(n, shapes, padding_values): give one padding value per component");
    detail::check_positive(batch_size, "batch_size");
    if (shapes_.size() != K)
      throw invalid_argument_error("padded_batch: " + std::to_string(shapes_.size()) + " padded shapes for " +
                                   std::to_string(K) + " components");
    for (const auto& s : shapes_)
      for (auto d : s)
        if (d < -1) throw invalid_argument_error("padded_batch: a padded dimension must be -1 or at least 0, got " + std::to_string(d));
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      ((std::get<C>(values_) = static_cast<typename std::tuple_element_t<C, values_t>>(std::get<C>(values))), ...);
    }(std::make_index_sequence<K>{});
  }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(padded_batch_dataset ds, iteration pass)
        : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)), elems_(static_cast<std::size_t>(ds_.n_)) {}
    bool next(element_type& out) {
      const auto n = static_cast<std::size_t>(ds_.n_);
      std::size_t k = 0;
      while (k < n && in_.next(elems_[k])) ++k;
      if (k == 0 || (k < n && ds_.drop_)) return false;
      [&]<std::size_t... C>(std::index_sequence<C...>) { (fill<C>(std::get<C>(out), k), ...); }(std::make_index_sequence<K>{});
      return true;
    }
    void save_to(iterator_state& s, const std::string& p) const { in_.save_to(s, detail::join(p, "padded_batch")); }
    void load_from(const iterator_state& s, const std::string& p) { in_.load_from(s, detail::join(p, "padded_batch")); }
    const padded_batch_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    template <std::size_t C, class T>
    void fill(xt::xarray<T>& b, std::size_t k) {
      const auto& want = ds_.shapes_[C];
      const std::size_t rank = want.size();
      typename xt::xarray<T>::shape_type shape(rank + 1, 0);
      shape[0] = k;
      for (std::size_t i = 0; i < k; ++i) {
        const auto& e = std::get<C>(elems_[i]);
        if (e.dimension() != rank)
          throw invalid_argument_error("padded_batch: element " + std::to_string(i) + " of component " +
                                       std::to_string(C) + " has shape " + detail::shape_str(e.shape()) +
                                       ", of rank " + std::to_string(e.dimension()) + ", the padded shape's rank is " +
                                       std::to_string(rank));
        for (std::size_t d = 0; d < rank; ++d) {
          if (want[d] >= 0 && e.shape()[d] > static_cast<std::size_t>(want[d]))
            throw data_loss_error(  // TensorFlow's code for it
                "Attempted to pad to a smaller size than the input element. Component " + std::to_string(C) +
                ": element shape " + detail::shape_str(e.shape()) + ", padded shape " + detail::shape_str(want));
          shape[d + 1] = want[d] >= 0 ? static_cast<std::size_t>(want[d]) : std::max(shape[d + 1], e.shape()[d]);
        }
      }
      b.resize(shape);
      std::fill(b.begin(), b.end(), std::get<C>(ds_.values_));
      const std::size_t row = k ? b.size() / k : 0;
      for (std::size_t i = 0; i < k; ++i) copy_padded(std::get<C>(elems_[i]), b.data() + i * row, shape);
    }
    // Copies e into the row-major block of shape shape[1:] at dst, index by index.
    template <class T, class S>
    static void copy_padded(const xt::xarray<T>& e, T* dst, const S& shape) {
      const std::size_t rank = e.dimension();
      if (e.size() == 0) return;
      if (rank == 0) { *dst = e(); return; }
      const std::size_t inner = e.shape()[rank - 1];
      const std::size_t rows = e.size() / inner;
      for (std::size_t r = 0; r < rows; ++r) {
        std::size_t rem = r, offset = 0, stride = shape[rank];  // the padded row's length
        for (std::size_t d = rank - 1; d-- > 0;) {
          const std::size_t idx = rem % e.shape()[d];
          rem /= e.shape()[d];
          offset += idx * stride;
          stride *= shape[d + 1];
        }
        std::copy(e.data() + r * inner, e.data() + (r + 1) * inner, dst + offset);
      }
    }
    padded_batch_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
    std::vector<element_type> elems_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  using values_t = typename detail::scalars_of<element_type>::type;
  D input_;
  std::int64_t n_;
  padded_shapes shapes_;
  values_t values_{};
  bool drop_;
};

}  // namespace typeflow::data
