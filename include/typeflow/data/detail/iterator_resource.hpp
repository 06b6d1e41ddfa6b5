// typeflow/data/detail/iterator_resource.hpp — what a session holds for an iterator: the
// host iterator of the dataset its last initializer run made (type-erased: one iterator
// node can be initialized from several datasets of its structure) and the element the last
// GetNext produced, read by the element's component nodes. It is a saveable resource
// (train/saveable.hpp): save_state writes the host iterator's position, stage_restore makes a
// fresh host iterator of the same dataset, restores the position into it and returns the
// commit that puts it in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/data/dataset/state.hpp"

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

/// A host iterator behind one interface: `bool next(Element&)`, false at the end; save
/// (its position under a key prefix) and restored (a fresh iterator of the same dataset and
/// pass, at the position of a saved state, or an error naming the entry at fault).
template <class Element>
struct iterator_interface {
  virtual ~iterator_interface() = default;
  virtual bool next(Element& out) = 0;
  virtual void save(iterator_state& out, const std::string& prefix) const = 0;
  virtual std::unique_ptr<iterator_interface> restored(const iterator_state& in, const std::string& prefix) const = 0;
};

template <class It>
concept restorable_iterator = requires(const It& c, It& m, iterator_state& out, const iterator_state& in,
                                       const std::string& p) {
  c.save(out, p);
  { c.dataset().make_iterator(c.pass()) } -> std::same_as<It>;
  m.load_from(in, p);
};

[[noreturn, gnu::cold]] inline void throw_not_saveable(const std::string& prefix);

template <class Element, class It>
struct iterator_model final : iterator_interface<Element> {
  explicit iterator_model(It it) : it(std::move(it)) {}
  bool next(Element& out) override { return it.next(out); }
  void save(iterator_state& out, const std::string& prefix) const override {
    if constexpr (restorable_iterator<It>) {
      it.save(out, prefix);
    } else {
      throw_not_saveable(prefix);
    }
  }
  std::unique_ptr<iterator_interface<Element>> restored(const iterator_state& in,
                                                        const std::string& prefix) const override {
    if constexpr (restorable_iterator<It>) {
      It fresh = it.dataset().make_iterator(it.pass());
      fresh.load_from(in, prefix);
      return std::make_unique<iterator_model>(std::move(fresh));
    } else {
      throw_not_saveable(prefix);
    }
  }
  It it;
};

[[noreturn, gnu::cold]] inline void throw_not_initialized(std::string_view iterator);
[[noreturn, gnu::cold]] inline void throw_not_initialized_for(const char* what, std::string_view iterator);
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

  /// The position, as tensors under `prefix` (a saver's save).
  void save_state(iterator_state& out, const std::string& prefix, std::string_view name) const {
    if (!iterator) throw_not_initialized_for("save", name);
    iterator->save(out, prefix);
  }

  /// A saver's restore: a fresh host iterator of the dataset the last initializer run made,
  /// at the position `in` holds (checked entry by entry; an error names the entry and this
  /// iterator does not change); the commit puts it in place.
  std::function<void()> stage_restore(const iterator_state& in, const std::string& prefix, std::string_view name) {
    if (!iterator) throw_not_initialized_for("restore", name);
    auto staged = std::make_shared<std::unique_ptr<iterator_interface<element_type>>>(iterator->restored(in, prefix));
    return [this, staged]() noexcept {
      iterator = std::move(*staged);
      has_element = false;
    };
  }
};

[[noreturn, gnu::cold]] inline void throw_not_initialized(std::string_view iterator) {
  throw failed_precondition_error("GetNext() failed because the iterator " + std::string(iterator) +
                                  " has not been initialized. Ensure that you have run the initializer "
                                  "operation for this iterator before getting the next element.");
}
[[noreturn, gnu::cold]] inline void throw_not_initialized_for(const char* what, std::string_view iterator) {
  throw failed_precondition_error(std::string("Cannot ") + what + " the position of iterator " + std::string(iterator) +
                                  ": it has not been initialized. Run its initializer (with the feeds that make the "
                                  "same dataset) before a saver saves or restores it.");
}
[[noreturn, gnu::cold]] inline void throw_not_saveable(const std::string& prefix) {
  throw unimplemented_error("The iterator saved under " + prefix +
                            " reads a dataset whose position cannot be saved (a file reader)");
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
