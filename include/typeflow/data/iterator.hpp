// typeflow/data/iterator.hpp — dataset iterators as graph nodes: TensorFlow 1.x's
// make_initializable_iterator, Iterator.from_structure + make_initializer, get_next.
//
// An iterator is a resource node (core/concepts.hpp): each session whose graph reaches it
// holds its state, the host iterator of the dataset its last initializer run made, and
// nothing is program-wide. Three kinds of effect node touch that state:
//   - the initializer ("MakeIterator"), whose inputs are the dataset's (placeholders, a
//     batch-size node...): a run evaluates them, builds the host dataset from their values
//     and starts a new pass over it;
//   - "IteratorGetNext", which advances the iterator: a run whose path reaches any of the
//     element's components runs it once, however many components the run reads;
//   - one node per component, which gives the element's component K as a node of the
//     structure's dtype and static shape, usable anywhere in a graph.
// At the end of the data a run throws tf::out_of_range_error ("End of sequence"), as
// TensorFlow's OutOfRangeError; the iterator's nodes run before anything that reads the
// element, so no update that depends on it is applied. get_next before any initializer run
// is FailedPrecondition, as in TensorFlow.
//
// make_saveable_from_iterator(it) (TensorFlow's tf.data.experimental.make_saveable_from_iterator)
// gives a saver entry for the iterator's position: train::saver writes it beside the
// variables under the keys "<iterator name>_STATE/..." and restores it with them, all or
// nothing. TensorFlow saves the whole dataset graph with the position; typeflow saves the
// position only and restores it into the dataset the iterator's last initializer run made.
// So a restore into a never-initialized iterator is FailedPrecondition naming it: run the
// initializer first, with the feeds that make the same dataset, then restore.
#pragma once

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/none.hpp"
#include "typeflow/data/detail/iterator_resource.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/state.hpp"
#include "typeflow/train/saveable.hpp"
#include "typeflow/train/saver_entries.hpp"

namespace typeflow::data {

/// The value type of a resource node (TensorFlow's DT_RESOURCE): not an element type, it
/// is never fetched or fed.
struct resource_handle {};

/// A graph-level dataset: a type D with `spec` (an element_spec), `inputs` (an mp_list of
/// the nodes its initializer evaluates) and `static auto make_iterator(Ctx&)`, which builds
/// the host dataset from those nodes' values in a run and returns its host iterator
/// (`bool next(host_element<spec>&)`). data/dataset_ops.hpp builds them.
template <class D>
concept graph_dataset = requires {
  typename D::spec;
  typename D::inputs;
};

/// The iterator named Name over elements of structure Spec.
template <fixed_string Name, class Spec>
struct iterator_node : node_base, kind_tag<node_kind::leaf>, op_info<"IteratorV2", false> {
  using value_type = resource_handle;
  using shape_type = scalar;
  using inputs = mp::mp_list<>;
  static constexpr auto name = Name;
  static constexpr bool is_resource = true;
  using resource_type = detail::iterator_resource<Spec>;
  using spec = Spec;
};

/// "IteratorGetNext": advances iterator It; the element's components read what it produced.
template <class It>
struct get_next_node : writer_facade<none_t, scalar, node_kind::effect, mp::mp_list<It>>,
                       op_info<"IteratorGetNext", false> {
  using output_type = none_t;
  using reads = mp::mp_list<>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    ctx.template resource<It>().advance(It::name.view());
  }
};

namespace detail {
template <class L>
consteval std::size_t first_placeholder() {
  return []<class... N>(mp::mp_list<N...>) {
    constexpr bool is[] = {placeholder_node_type<N>..., true};
    std::size_t i = 0;
    while (!is[i]) ++i;
    return i;
  }(L{});
}

template <class Spec, std::size_t K>
using component_at = mp::mp_at_c<mp::mp_rename<Spec, mp::mp_list>, K>;
}  // namespace detail

/// GetNext of a one-shot iterator: its first run makes the iterator of dataset D, whose
/// inputs In... are constants (make_one_shot_iterator), then it advances as get_next_node.
template <class It, class D, class... In>
struct one_shot_get_next_node : writer_facade<none_t, scalar, node_kind::effect, mp::mp_list<It>, In...>,
                                op_info<"IteratorGetNext", false> {
  using output_type = none_t;
  using reads = mp::mp_list<>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    auto& state = ctx.template resource<It>();
    if (!state.iterator) state.reset(D::make_iterator(ctx));
    state.advance(It::name.view());
  }
};

/// Component K of the element the run's GetNext (Next) of iterator It produced.
template <class It, std::size_t K, class Next = get_next_node<It>>
struct component_node
    : writer_facade<typename detail::component_at<typename It::spec, K>::value_type,
                    typename detail::component_at<typename It::spec, K>::shape_type, node_kind::effect,
                    mp::mp_list<It>, Next>,
      op_info<"IteratorGetNext", false> {
  using C = detail::component_at<typename It::spec, K>;
  using output_type = storage_t<typename C::value_type, typename C::shape_type>;
  using reads = mp::mp_list<>;
  static constexpr bool changes_state = false;  // its GetNext does
  template <std::size_t J, class G>
  using gradient = no_gradient;

  template <class Ctx>
  static void run(Ctx& ctx) {
    using S = typename C::shape_type;
    using T = typename C::value_type;
    const auto& x = std::get<K>(ctx.template resource<It>().element);
    if (!shape_matches<S>(x.shape()))
      detail::throw_component_shape(It::name.view(), K, shape_string<S>(), shape_string(x.shape()));
    auto& out = ctx.template buffer<component_node>();
    ops::detail::resize_unless_static<S::is_static>(out, ops::detail::dims_of<S::rank>(x));
    T scalar{};
    T* o = ops::detail::out_ptr(out, scalar);
    std::copy(x.data(), x.data() + x.size(), o);
    ops::detail::store_scalar(out, scalar);
  }
};

/// The initializer of iterator It for dataset D ("MakeIterator"): evaluates D's inputs and
/// starts a new pass over the dataset they define, dropping the previous one.
template <class It, graph_dataset D, class... In>
struct make_iterator_node : writer_facade<none_t, scalar, node_kind::effect, mp::mp_list<It>, In...>,
                            op_info<"MakeIterator", false> {
  using output_type = none_t;
  using reads = mp::mp_list<>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    ctx.template resource<It>().reset(D::make_iterator(ctx));
  }
};

namespace detail {
template <class It, class D, class Inputs>
struct make_iterator_of;
template <class It, class D, class... In>
struct make_iterator_of<It, D, mp::mp_list<In...>> {
  using type = make_iterator_node<It, D, In...>;
};
}  // namespace detail

/// In a diagnostic: make_initializer(dataset) of an iterator whose structure differs.
template <fixed_string Iterator, class IteratorSpec, class DatasetSpec>
struct dataset_structure_must_match_the_iterators {
  static constexpr bool value = false;
};

/// An iterator in a graph: `get_next()` gives the element's components as nodes (one node,
/// or a std::tuple of them), `make_initializer(dataset)` the node that starts a pass over a
/// dataset of the same structure.
template <fixed_string Name, class Spec>
class iterator {
 public:
  using node_type = iterator_node<Name, Spec>;
  using spec = Spec;

  /// Iterator.get_next(): component nodes of the next element, advanced once per run.
  auto get_next() const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      if constexpr (sizeof...(K) == 1) {
        return make_node<component_node<node_type, 0>>();
      } else {
        return std::tuple<component_node<node_type, K>...>{};
      }
    }(std::make_index_sequence<Spec::size>{});
  }

  /// Iterator.make_initializer(dataset): a node whose run starts a pass over `dataset`.
  template <graph_dataset D>
  auto make_initializer(const D& dataset) const {
    if constexpr (!std::is_same_v<typename D::spec, Spec>) {
      static_assert(dataset_structure_must_match_the_iterators<Name, Spec, typename D::spec>::value,
                    "iterator.make_initializer(dataset): the dataset's element structure (dtypes and "
                    "static shapes) differs from the iterator's");
      return typeflow::group();  // inert, a node that runs nothing: the error above is the one to read
    } else {
      return make_initializer_from(dataset, typename D::inputs{});
    }
  }

 private:
  template <class D, class... In>
  static auto make_initializer_from(const D& dataset, mp::mp_list<In...>) {
    return std::apply([](const auto&... in) { return make_node<make_iterator_node<node_type, D, In...>>(in...); },
                      dataset.input_nodes());
  }
};

/// tf.data.Iterator.from_structure: an iterator named Name over elements of D's structure,
/// initialized by `make_initializer(dataset)` for any dataset of that structure.
template <fixed_string Name, graph_dataset D>
iterator<Name, typename D::spec> iterator_from_structure(const D&) {
  return {};
}

/// An initializable iterator bound to one dataset (dataset.make_initializable_iterator()):
/// `initializer()` and `get_next()`.
template <fixed_string Name, graph_dataset D>
class initializable_iterator : public iterator<Name, typename D::spec> {
 public:
  explicit initializable_iterator(const D& dataset) : dataset_(dataset) {}
  auto initializer() const { return this->make_initializer(dataset_); }

 private:
  D dataset_;
};

/// `make_initializable_iterator<"iterator">(dataset)`.
template <fixed_string Name, graph_dataset D>
initializable_iterator<Name, D> make_initializable_iterator(const D& dataset) {
  return initializable_iterator<Name, D>(dataset);
}

/// In a diagnostic: a one-shot iterator's dataset reads this placeholder, which nothing
/// could feed (TensorFlow: "Cannot capture a placeholder by value").
template <fixed_string Iterator, fixed_string Placeholder>
struct a_one_shot_iterators_dataset_cannot_read_a_placeholder {
  static constexpr bool value = false;
};

/// A one-shot iterator (dataset.make_one_shot_iterator()): no initializer; the first run
/// that reaches get_next() starts the pass, and the pass is never restarted.
template <fixed_string Name, graph_dataset D>
class one_shot_iterator {
 public:
  using node_type = iterator_node<Name, typename D::spec>;
  using spec = typename D::spec;
  explicit one_shot_iterator(const D& dataset) : dataset_(dataset) {}

  auto get_next() const {
    return std::apply([](const auto&... in) { return components(next_node(in...)); }, dataset_.input_nodes());
  }

 private:
  template <class... In>
  static auto next_node(const In&... in) {
    return make_node<one_shot_get_next_node<node_type, D, In...>>(in...);
  }
  template <class Next>
  static auto components(const Next& next) {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      if constexpr (sizeof...(K) == 1) {
        return make_node<component_node<node_type, 0, Next>>(next);
      } else {
        return std::tuple<component_node<node_type, K, Next>...>(make_node<component_node<node_type, K, Next>>(next)...);
      }
    }(std::make_index_sequence<spec::size>{});
  }
  D dataset_;
};

/// In a diagnostic: make_saveable_from_iterator(x) of this x (a node's name, or "(not a
/// node)"), which is not an iterator.
template <fixed_string What>
struct make_saveable_from_iterator_needs_an_iterator {
  static constexpr bool value = false;
};

namespace detail {
template <class T>
struct is_iterator_node : std::false_type {};
template <fixed_string Name, class Spec>
struct is_iterator_node<iterator_node<Name, Spec>> : std::true_type {};
template <class T>
constexpr bool has_iterator_node() {
  if constexpr (requires { typename T::node_type; }) {
    return is_iterator_node<typename T::node_type>::value;
  } else {
    return false;
  }
}
template <class T>
constexpr auto diagnostic_label() {
  if constexpr (node<T>) {
    return label_of<T>();
  } else {
    return fixed_string("(not a node)");
  }
}
}  // namespace detail

/// tf.data.experimental.make_saveable_from_iterator(iterator): the iterator's position as
/// an argument of train::saver, beside variables (`train::saver(saveable, w, b)`) or with
/// every variable (`train::saver(train::all_variables_and(saveable))`).
template <class I>
constexpr auto make_saveable_from_iterator(const I&) {
  if constexpr (!detail::has_iterator_node<I>()) {
    static_assert(make_saveable_from_iterator_needs_an_iterator<detail::diagnostic_label<I>()>::value,
                  "data::make_saveable_from_iterator(x): x must be an iterator (make_initializable_iterator, "
                  "iterator_from_structure or make_one_shot_iterator)");
    return train::var_map();  // inert, an empty entry list: the error above is the one to read
  } else {
    return train::saveable_t<typename I::node_type>{};
  }
}

/// `make_one_shot_iterator<"iterator">(dataset)`: the dataset's inputs must be constants.
template <fixed_string Name, graph_dataset D>
auto make_one_shot_iterator(const D& dataset) {
  if constexpr (constexpr std::size_t i = detail::first_placeholder<typename D::inputs>();
                i < mp::mp_size<typename D::inputs>::value) {
    static_assert(a_one_shot_iterators_dataset_cannot_read_a_placeholder<
                      Name, mp::mp_at_c<typename D::inputs, i>::name>::value,
                  "make_one_shot_iterator(dataset): nothing can feed the dataset's placeholders; use "
                  "make_initializable_iterator and feed them to its initializer");
    return one_shot_iterator<Name, D>(dataset);  // inert
  } else {
    return one_shot_iterator<Name, D>(dataset);
  }
}

}  // namespace typeflow::data
