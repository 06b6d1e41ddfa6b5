// typeflow/data/detail/iterator_resource.hpp — what a session holds for an iterator: the
// host iterator of the dataset its last initializer run made (type-erased: one iterator
// node can be initialized from several datasets of its structure) and the element the last
// GetNext produced, read by the element's component nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/shape.hpp"

namespace typeflow::data {

/// One component of a dataset's elements: element type T, static shape S (`dyn` where it
/// varies from element to element, as a batch's first dim).
template <class T, class S>
struct component {
  using value_type = T;
  using shape_type = S;
};

/// The structure of a dataset's elements (TensorFlow's element_spec), a flat list of
/// components.
template <class... C>
struct element_spec {
  static constexpr std::size_t size = sizeof...(C);
};

namespace detail {

/// The host element of a structure: one xt::xarray per component.
template <class Spec>
struct host_element_impl;
template <class... C>
struct host_element_impl<element_spec<C...>> {
  using type = std::tuple<xt::xarray<typename C::value_type>...>;
};
template <class Spec>
using host_element = typename host_element_impl<Spec>::type;

/// A host iterator behind one interface: `bool next(Element&)`, false at the end.
template <class Element>
struct iterator_interface {
  virtual ~iterator_interface() = default;
  virtual bool next(Element& out) = 0;
};
template <class Element, class It>
struct iterator_model final : iterator_interface<Element> {
  explicit iterator_model(It it) : it(std::move(it)) {}
  bool next(Element& out) override { return it.next(out); }
  It it;
};

[[noreturn, gnu::cold]] inline void throw_not_initialized(std::string_view iterator);
[[noreturn, gnu::cold]] inline void throw_end_of_sequence(std::string_view iterator);

/// An iterator's state in a session.
template <class Spec>
struct iterator_resource {
  using element_type = host_element<Spec>;
  std::unique_ptr<iterator_interface<element_type>> iterator;  // null until initialized
  element_type element;     // the last element GetNext produced; storage reused
  bool has_element = false;

  template <class It>
  void reset(It it) {
    iterator = std::make_unique<iterator_model<element_type, It>>(std::move(it));
    has_element = false;
  }

  /// GetNext of the iterator `name`: the next element, or FailedPrecondition (never
  /// initialized) or OutOfRange (the end).
  void advance(std::string_view name) {
    if (!iterator) throw_not_initialized(name);
    has_element = false;
    if (!iterator->next(element)) throw_end_of_sequence(name);
    has_element = true;
  }
};

[[noreturn, gnu::cold]] inline void throw_not_initialized(std::string_view iterator) {
  throw failed_precondition_error("GetNext() failed because the iterator " + std::string(iterator) +
                                  " has not been initialized. Ensure that you have run the initializer "
                                  "operation for this iterator before getting the next element.");
}
[[noreturn, gnu::cold]] inline void throw_end_of_sequence(std::string_view iterator) {
  throw out_of_range_error("End of sequence (iterator " + std::string(iterator) + ")");
}
[[noreturn, gnu::cold]] inline void throw_component_shape(std::string_view iterator, std::size_t k,
                                                          const std::string& expected, const std::string& got) {
  throw invalid_argument_error("An element of iterator " + std::string(iterator) + " has component " +
                               std::to_string(k) + " of shape " + got + ", which does not match its structure's " +
                               expected);
}

}  // namespace detail
}  // namespace typeflow::data
