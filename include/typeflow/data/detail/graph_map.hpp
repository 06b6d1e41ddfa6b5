// typeflow/data/detail/graph_map.hpp — Dataset.map with a function of nodes, for graph
// datasets (data/graph_dataset.hpp).
//
// TensorFlow traces the function once into a graph function and runs it per element. Here
// the function is called once, when `ds.map(fn)` is built, with one placeholder per
// component of the element ("map/args_0", "map/args_1", ..., of the component's dtype and
// static shape); the nodes it returns are the body, a graph type, whose outputs' dtypes and
// static shapes are the new element's structure. At an initializer's run the host dataset
// gets a session over the body (its run plan compiled once, its buffers kept), and each
// element is one const run of it, the components fed by reference, the outputs copied into
// the element's reused arrays.
//
// The body may read its arguments, constants given in its type (`constant<2.0>()`) and the
// ops over them. It may not read another placeholder, a variable, a named constant with
// values, nor have side effects; each is a compile error naming it (TensorFlow captures
// outer tensors: see docs/input-pipelines.md for why typeflow does not, yet).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/hana/tuple.hpp>
#include <boost/hana/unpack.hpp>
#include <boost/mp11/algorithm.hpp>
#include <xtensor/xarray.hpp>

#include "typeflow/control/detail/loop_body.hpp"
#include "typeflow/core/definition.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/data/dataset.hpp"
#include "typeflow/data/detail/iterator_resource.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/placeholder.hpp"
#include "typeflow/session/session.hpp"

namespace typeflow::data {

/// In a diagnostic: the map function returned (as result Index) a value of type Returned,
/// which is not a graph node.
template <std::size_t Index, class Returned>
struct a_map_function_must_return_nodes {
  static constexpr bool value = false;
};
/// In a diagnostic: the map function reads a placeholder that is not one of its arguments.
template <fixed_string Placeholder>
struct a_map_function_cannot_read_an_outer_placeholder {
  static constexpr bool value = false;
};
/// In a diagnostic: the map function reads a variable.
template <fixed_string Variable>
struct a_map_function_cannot_read_a_variable {
  static constexpr bool value = false;
};
/// In a diagnostic: the map function reads a named constant whose values its node object carries.
template <fixed_string Constant>
struct a_map_function_cannot_read_a_named_constant {
  static constexpr bool value = false;
};
/// In a diagnostic: the map function has a side effect (assign, print, an update).
template <fixed_string Op>
struct a_map_function_must_be_free_of_side_effects {
  static constexpr bool value = false;
};

template <class D>
class graph_dataset_base;

namespace detail {

/// Argument K of a map function: "map/args_K".
template <std::size_t K, class C>
using map_arg = placeholder_node<control::detail::indexed_name<"map/args", K>(), typename C::value_type,
                                 typename C::shape_type>;

/// A map function's result as a std::tuple: one node, a std::tuple or std::pair of them, a
/// hana::tuple of them.
template <class R>
auto as_result_tuple(const R& r) {
  if constexpr (node<R>) {
    return std::tuple<R>(r);
  } else if constexpr (boost::hana::is_a<boost::hana::tuple_tag, R>) {
    return boost::hana::unpack(r, [](const auto&... n) { return std::tuple<std::remove_cvref_t<decltype(n)>...>(n...); });
  } else if constexpr (requires { std::tuple_size<R>::value; }) {
    return std::apply([](const auto&... n) { return std::tuple<std::remove_cvref_t<decltype(n)>...>(n...); }, r);
  } else {
    return std::tuple<R>(r);
  }
}

template <class N>
using is_not_a_node = std::bool_constant<!node<N>>;
template <class N>
using is_outer_read = std::bool_constant<placeholder_node_type<N> || variable_node_type<N>>;
template <class N>
using is_side_effect = std::bool_constant<changes_state<N>()>;

/// Index of the first element of L for which P holds (its size if none).
template <template <class> class P, class L>
constexpr std::size_t first_where = mp::mp_find_if<L, P>::value;

/// Whether list L starts with a variable.
template <class L>
constexpr bool front_is_variable() {
  if constexpr (mp::mp_empty<L>::value) {
    return false;
  } else {
    return variable_node_type<mp::mp_front<L>>;
  }
}

/// What a map body with arguments Args and outputs O... reads from outside, its side
/// effects, the named constants it carries.
template <class Args, class Outs>
struct map_body_reach;
template <class Args, class... O>
struct map_body_reach<Args, mp::mp_list<O...>> {
  using nodes = graph::graph_order<O...>;
  using reads = mp::mp_copy_if_q<graph::detail::select<is_outer_read, nodes>, graph::not_in<Args>>;
  using effects = graph::detail::select<is_side_effect, nodes>;
  using carried = carried_union_t<O...>;
};

/// Copies a fetched value into a component's array (storage kept when the shape is the same).
template <class T, class V>
void store_component(xt::xarray<T>& out, const V& v) {
  if constexpr (std::is_arithmetic_v<V>) {
    if (out.dimension() != 0) out.resize(typename xt::xarray<T>::shape_type{});
    *out.data() = static_cast<T>(v);
  } else {
    const typename xt::xarray<T>::shape_type shape(v.shape().begin(), v.shape().end());
    if (out.dimension() != shape.size() || !std::equal(shape.begin(), shape.end(), out.shape().begin()))
      out.resize(shape);
    std::copy(v.data(), v.data() + v.size(), out.data());
  }
}

/// What feeds argument A with a component's array: the array itself (by reference), its
/// one value for a scalar.
template <class A, class T>
auto arg_feed(const xt::xarray<T>& x) {
  if constexpr (shape_of<A>::rank == 0) {
    if (x.size() != 1)
      throw invalid_argument_error(std::string("map: argument ") + std::string(A::name.view()) +
                                   " is a scalar, the element's component has " + std::to_string(x.size()) +
                                   " values");
    return typeflow::feed(A{}, *x.data());
  } else {
    return typeflow::feed(A{}, x);
  }
}

/// The host dataset of a graph map: D's elements through the body with arguments Args and
/// outputs Outs.
template <class D, class Args, class Outs>
class graph_map_host;
template <class D, class... A, class... O>
class graph_map_host<D, mp::mp_list<A...>, mp::mp_list<O...>>
    : public dataset_base<graph_map_host<D, mp::mp_list<A...>, mp::mp_list<O...>>> {
  using body_session = session<O...>;

 public:
  using element_type = std::tuple<xt::xarray<value_type_of<O>>...>;

  explicit graph_map_host(D input) : input_(std::move(input)), body_(std::make_shared<const body_session>(O{}...)) {}

  /// Runs the body on element `in`, writing its outputs into `out`.
  void apply(const typename D::element_type& in, element_type& out) const {
    auto values = [&]<std::size_t... K>(std::index_sequence<K...>) {
      return body_->run(typeflow::fetch(O{}...), arg_feed<A>(std::get<K>(in))...);
    }(std::index_sequence_for<A...>{});
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (store_component(std::get<K>(out), std::get<K>(values)), ...);
    }(std::index_sequence_for<O...>{});
  }

  class iterator : public iterator_base<iterator> {
   public:
    iterator(graph_map_host ds, iteration pass) : ds_(std::move(ds)), pass_(pass), in_(ds_.input_.make_iterator(pass)) {}
    bool next(element_type& out) {
      if (!in_.next(elem_)) return false;
      ds_.apply(elem_, out);
      return true;
    }
    void save_to(iterator_state& s, const std::string& p) const { in_.save_to(s, detail::join(p, "map")); }
    void load_from(const iterator_state& s, const std::string& p) { in_.load_from(s, detail::join(p, "map")); }
    const graph_map_host& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    graph_map_host ds_;
    iteration pass_;
    typename D::iterator in_;
    typename D::element_type elem_;  // the input element; storage reused
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::shared_ptr<const body_session> body_;  // shared: copies of the dataset run one body
};

}  // namespace detail

/// Graph dataset Inner mapped through the body with arguments Args and outputs Outs.
template <class Inner, class Args, class Outs>
class mapped_dataset;
template <class Inner, class Args, class... O>
class mapped_dataset<Inner, Args, mp::mp_list<O...>> : public graph_dataset_base<mapped_dataset<Inner, Args, mp::mp_list<O...>>> {
 public:
  using spec = element_spec<component<value_type_of<O>, shape_of<O>>...>;
  using inputs = typename Inner::inputs;
  using arguments = Args;              // the body's placeholders ("map/args_K")
  using outputs = mp::mp_list<O...>;   // the body's results
  explicit mapped_dataset(const Inner& inner) : inner_(inner) {}
  auto input_nodes() const { return inner_.input_nodes(); }
  template <class Ctx>
  static auto make_dataset(Ctx& ctx) {
    using H = decltype(Inner::make_dataset(ctx));
    return detail::graph_map_host<H, Args, mp::mp_list<O...>>(Inner::make_dataset(ctx));
  }

 private:
  Inner inner_;
};

namespace detail {

/// ds.map(fn) for graph dataset Inner (see the top of this file): fn called once with the
/// arguments' placeholders, then the checks of what it returned. The static_asserts are here,
/// one call below ds.map, so that a diagnostic's notes stay few.
template <class Inner, class Fn, class... C, std::size_t... K>
auto make_mapped(const Inner& inner, Fn& fn, element_spec<C...>, std::index_sequence<K...>) {
  using args = mp::mp_list<map_arg<K, C>...>;
  [[maybe_unused]] const auto built = as_result_tuple(fn(map_arg<K, C>{}...));  // the body, built once
  using outs = mp::mp_rename<std::remove_const_t<decltype(built)>, mp::mp_list>;
  constexpr std::size_t bad = first_where<is_not_a_node, outs>;
  if constexpr (bad < mp::mp_size<outs>::value) {
    static_assert(a_map_function_must_return_nodes<bad, mp::mp_at_c<outs, bad>>::value,
                  "ds.map(fn), ds.filter(fn): fn must return graph nodes (one node, or a std::tuple or hana::tuple of nodes)");
    return inner;  // inert: the error above is the one to read
  } else {
    using reach = map_body_reach<args, outs>;
    using reads = typename reach::reads;
    using effects = typename reach::effects;
    using carried = typename reach::carried;
    if constexpr (front_is_variable<reads>()) {
      static_assert(a_map_function_cannot_read_a_variable<mp::mp_front<reads>::name>::value,
                    "ds.map(fn), ds.filter(fn): fn may read only its arguments and constants, not a variable");
      return inner;  // inert, as above
    } else if constexpr (!mp::mp_empty<reads>::value) {
      static_assert(a_map_function_cannot_read_an_outer_placeholder<mp::mp_front<reads>::name>::value,
                    "ds.map(fn), ds.filter(fn): fn may read only its arguments and constants, not another placeholder");
      return inner;
    } else if constexpr (!mp::mp_empty<effects>::value) {
      static_assert(a_map_function_must_be_free_of_side_effects<label_of<mp::mp_front<effects>>()>::value,
                    "ds.map(fn), ds.filter(fn): fn must be free of side effects (assign, print, optimizer updates)");
      return inner;
    } else if constexpr (!mp::mp_empty<carried>::value) {
      static_assert(a_map_function_cannot_read_a_named_constant<mp::mp_front<carried>::name>::value,
                    "ds.map(fn), ds.filter(fn): fn may read only constants given in their type (constant<2.0>()), not a named "
                    "constant with values");
      return inner;
    } else {
      return mapped_dataset<Inner, args, outs>(inner);
    }
  }
}

}  // namespace detail
}  // namespace typeflow::data
