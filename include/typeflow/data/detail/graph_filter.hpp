// typeflow/data/detail/graph_filter.hpp — Dataset.filter with a predicate of nodes, for
// graph datasets (data/graph_dataset.hpp).
//
// The predicate is built and checked as a map function (data/detail/graph_map.hpp: called
// once with one placeholder per component, "map/args_K"; no outer placeholder, variable,
// named constant with values or side effect), and must return one scalar bool node, as
// TensorFlow's filter asks of its predicate. At an initializer's run the host dataset gets a
// session over the predicate, and each input element is one const run of it, the
// components fed by reference: the elements for which it is false are dropped. The
// element's structure is the input's; the iterator's position is its input's.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/data/detail/graph_map.hpp"

namespace typeflow::data {

/// In a diagnostic: the filter predicate returned Count nodes (the first of element type T
/// and shape S), where it must return one scalar bool node.
template <std::size_t Count, class T, class S>
struct a_filter_predicate_must_return_one_scalar_bool {
  static constexpr bool value = false;
};

namespace detail {

/// The host dataset of a graph filter: D's elements for which the predicate P, a node over
/// the arguments Args, is true.
template <class D, class Args, class P>
class graph_filter_host;
template <class D, class... A, class P>
class graph_filter_host<D, mp::mp_list<A...>, P> : public dataset_base<graph_filter_host<D, mp::mp_list<A...>, P>> {
  using body_session = session<P>;

 public:
  using element_type = typename D::element_type;

  explicit graph_filter_host(D input) : input_(std::move(input)), body_(std::make_shared<const body_session>(P{})) {}

  /// Whether element `in` passes the predicate.
  bool keep(const element_type& in) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return static_cast<bool>(std::get<0>(body_->run(typeflow::fetch(P{}), arg_feed<A>(std::get<K>(in))...)));
    }(std::index_sequence_for<A...>{});
  }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(graph_filter_host ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      while (in_.next(out))
        if (ds_.keep(out)) return true;
      return false;
    }
    void save_to(iterator_state& s, const std::string& p) const { in_.save_to(s, detail::join(p, "filter")); }
    void load_from(const iterator_state& s, const std::string& p) { in_.load_from(s, detail::join(p, "filter")); }
    const graph_filter_host& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    graph_filter_host ds_;
    iteration pass_;
    typename D::iterator in_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::shared_ptr<const body_session> body_;  // shared: copies of the dataset run one predicate
};

}  // namespace detail

/// Graph dataset Inner without the elements for which predicate P (over Args) is false.
template <class Inner, class Args, class P>
class filtered_dataset : public graph_dataset_base<filtered_dataset<Inner, Args, P>> {
 public:
  using spec = typename Inner::spec;
  using inputs = typename Inner::inputs;
  explicit filtered_dataset(const Inner& inner) : inner_(inner) {}
  auto input_nodes() const { return inner_.input_nodes(); }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    using H = decltype(Inner::make_dataset(ctx));
    return detail::graph_filter_host<H, Args, P>(Inner::make_dataset(ctx));
  }

 private:
  Inner inner_;
};

namespace detail {

/// The element type and shape of a predicate's first result (void for none), for the diagnostic.
template <class Outs>
struct first_result {
  using type = void;
  using shape = void;
};
template <class P, class... R>
struct first_result<mp::mp_list<P, R...>> {
  using type = value_type_of<P>;
  using shape = shape_of<P>;
};

template <class Outs>
constexpr bool is_one_scalar_bool() {
  if constexpr (mp::mp_size<Outs>::value != 1) {
    return false;
  } else {
    using P = mp::mp_front<Outs>;
    return std::is_same_v<value_type_of<P>, bool> && shape_of<P>::rank == 0;
  }
}

/// ds.filter(fn) for graph dataset Inner: the predicate built and checked as a map function
/// (make_mapped), then its result checked to be one scalar bool node.
template <class Inner, class Fn, class Spec, std::size_t... K>
auto make_filtered(const Inner& inner, Fn& fn, Spec spec, std::index_sequence<K...> index) {
  using M = decltype(make_mapped(inner, fn, spec, index));
  if constexpr (std::is_same_v<M, Inner>) {
    return inner;  // make_mapped reported the predicate's error: the one to read
  } else {
    using outs = typename M::outputs;
    if constexpr (!is_one_scalar_bool<outs>()) {
      using first = first_result<outs>;
      static_assert(a_filter_predicate_must_return_one_scalar_bool<mp::mp_size<outs>::value, typename first::type,
                                                                   typename first::shape>::value,
                    "ds.filter(fn): fn must return one scalar bool node (tf::equal(x, ...), tf::less(...))");
      return inner;  // inert, as above
    } else {
      return filtered_dataset<Inner, typename M::arguments, mp::mp_front<outs>>(inner);
    }
  }
}

}  // namespace detail
}  // namespace typeflow::data
