// typeflow/data/dataset/map.hpp — Dataset.map and Dataset.filter with C++ callables.
//
// As in TensorFlow, the function receives the components as separate arguments
// (f(image, label)); a function of the whole element tuple works too. map's function
// returns a std::tuple of arrays (or of xtensor expressions), or one array for a
// one-component element; its dtypes may differ from the input's. The functions are called
// as const (through a shared pointer, so that copies of the dataset share them), possibly
// from a prefetch thread. (A map whose function is
// a graph is the graph layer's.)
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <xtensor/xarray.hpp>

#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/state.hpp"

namespace typeflow::data {
namespace detail {

template <class F, class E>
struct invocable_unpacked : std::false_type {};
template <class F, class... T>
struct invocable_unpacked<F, std::tuple<T...>> : std::is_invocable<F&, const T&...> {};

template <class F, class E>
decltype(auto) call_with_element(F& f, const E& e) {
  if constexpr (invocable_unpacked<F, E>::value)
    return std::apply(f, e);
  else
    return f(e);
}

template <class R>
struct map_result {  // one array or expression
  using type = std::tuple<xt::xarray<typename std::decay_t<R>::value_type>>;
};
template <class... R>
struct map_result<std::tuple<R...>> {
  using type = std::tuple<xt::xarray<typename std::decay_t<R>::value_type>...>;
};

}  // namespace detail

template <class D, class F>
class map_dataset : public dataset_base<map_dataset<D, F>> {
  using result_t = std::decay_t<decltype(detail::call_with_element(std::declval<const F&>(),
                                                                   std::declval<const typename D::element_type&>()))>;

 public:
  using element_type = typename detail::map_result<result_t>::type;

  map_dataset(D input, F f) : input_(std::move(input)), f_(std::make_shared<const F>(std::move(f))) {}

  class iterator : public iterator_base<iterator> {
   public:
    iterator(map_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      if (!in_.next(elem_)) return false;
      if constexpr (is_element<result_t>::value) {
        out = detail::call_with_element(*ds_.f_, elem_);
      } else if constexpr (xt::is_xexpression<result_t>::value) {
        std::get<0>(out) = detail::call_with_element(*ds_.f_, elem_);
      } else {
        auto r = detail::call_with_element(*ds_.f_, elem_);
        [&]<std::size_t... C>(std::index_sequence<C...>) {
          ((std::get<C>(out) = std::get<C>(r)), ...);
        }(std::make_index_sequence<std::tuple_size_v<result_t>>{});
      }
      return true;
    }
    void save_to(iterator_state& s, const std::string& p) const { in_.save_to(s, detail::join(p, "map")); }
    void load_from(const iterator_state& s, const std::string& p) { in_.load_from(s, detail::join(p, "map")); }
    const map_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    map_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
    typename D::element_type elem_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::shared_ptr<const F> f_;  // shared: a dataset stays cheap to copy and assignable
};

template <class D, class P>
class filter_dataset : public dataset_base<filter_dataset<D, P>> {
 public:
  using element_type = typename D::element_type;

  filter_dataset(D input, P predicate) : input_(std::move(input)), p_(std::make_shared<const P>(std::move(predicate))) {}

  class iterator : public iterator_base<iterator> {
   public:
    iterator(filter_dataset ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      while (in_.next(out))
        if (static_cast<bool>(detail::call_with_element(*ds_.p_, std::as_const(out)))) return true;
      return false;
    }
    void save_to(iterator_state& s, const std::string& p) const { in_.save_to(s, detail::join(p, "filter")); }
    void load_from(const iterator_state& s, const std::string& p) { in_.load_from(s, detail::join(p, "filter")); }
    const filter_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    filter_dataset ds_;
    iteration pass_;
    typename D::iterator in_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::shared_ptr<const P> p_;
};

}  // namespace typeflow::data
