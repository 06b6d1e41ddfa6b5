// typeflow/data/dataset/state.hpp — an iterator's saved position: named tensors.
//
// TensorFlow's make_saveable_from_iterator: an iterator writes what it needs to resume (its
// position, a shuffle buffer and its generator, a repeat's epoch, a cache's contents) as
// named typeflow::tensor values, each stage under its own name prefix ("batch/shuffle/..."),
// so that a checkpoint can hold them beside the variables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/core/tensor.hpp"

namespace typeflow::data {

/// What an iterator's save() writes and restore() reads: name -> tensor.
using iterator_state = std::map<std::string, tensor>;

namespace detail {

inline std::string join(const std::string& prefix, const char* name) {
  return prefix.empty() ? std::string(name) : prefix + "/" + name;
}

inline const tensor& state_entry(const iterator_state& s, const std::string& key) {
  auto it = s.find(key);
  if (it == s.end())
    throw not_found_error("The iterator state has no entry '" + key +
                          "': it was not saved from an iterator of this dataset");
  return it->second;
}

inline void put_int64(iterator_state& s, const std::string& key, std::int64_t v) { s[key] = tensor(v); }
inline void put_uint64(iterator_state& s, const std::string& key, std::uint64_t v) {
  std::int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  s[key] = tensor(bits);
}

/// An int64 scalar of the state; InvalidArgument naming the entry when it is not one.
inline std::int64_t get_int64(const iterator_state& s, const std::string& key) {
  const tensor& t = state_entry(s, key);
  if (!t.holds<std::int64_t>() || t.rank() != 0)
    throw invalid_argument_error("The iterator state's entry '" + key + "' is " + t.description() +
                                 ", not an int64 scalar");
  return t.as<std::int64_t>()();
}
inline std::int64_t get_int64_in(const iterator_state& s, const std::string& key, std::int64_t lo,
                                 std::int64_t hi) {
  const std::int64_t v = get_int64(s, key);
  if (v < lo || v > hi)
    throw invalid_argument_error("The iterator state's entry '" + key + "' is " + std::to_string(v) +
                                 ", outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}
inline std::uint64_t get_uint64(const iterator_state& s, const std::string& key) {
  const std::int64_t bits = get_int64(s, key);
  std::uint64_t v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

template <class A>
std::vector<std::size_t> dims_of(const A& a) {
  return std::vector<std::size_t>(a.shape().begin(), a.shape().end());
}

/// A list of elements, saved per component c as "<prefix>/c<c>_shapes" (int64 [n, rank])
/// and "<prefix>/c<c>_values" (the values, concatenated).
template <class Element, class Range>
void put_elements(iterator_state& s, const std::string& prefix, const Range& elements, std::size_t count) {
  put_int64(s, join(prefix, "count"), static_cast<std::int64_t>(count));
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          using T = typename std::tuple_element_t<C, Element>::value_type;
          std::size_t rank = count ? std::get<C>(elements[0]).dimension() : 0;
          std::size_t total = 0;
          for (std::size_t i = 0; i < count; ++i) total += std::get<C>(elements[i]).size();
          xt::xarray<std::int64_t> shapes = xt::xarray<std::int64_t>::from_shape({count, rank});
          xt::xarray<T> values = xt::xarray<T>::from_shape({total});
          std::size_t at = 0;
          for (std::size_t i = 0; i < count; ++i) {
            const auto& a = std::get<C>(elements[i]);
            if (a.dimension() != rank)
              throw invalid_argument_error("Cannot save elements of different ranks in component " +
                                           std::to_string(C));
            for (std::size_t d = 0; d < rank; ++d) shapes(i, d) = static_cast<std::int64_t>(a.shape()[d]);
            std::copy(a.data(), a.data() + a.size(), values.data() + at);
            at += a.size();
          }
          const std::string base = join(prefix, "c") + std::to_string(C);
          s[base + "_shapes"] = tensor(std::move(shapes));
          s[base + "_values"] = tensor(std::move(values));
        }(),
        ...);
  }(std::make_index_sequence<std::tuple_size_v<Element>>{});
}

/// The elements put_elements saved, every size checked against the values present before
/// anything is copied; at most `max_count` of them.
template <class Element>
std::vector<Element> get_elements(const iterator_state& s, const std::string& prefix, std::int64_t max_count) {
  const auto count = static_cast<std::size_t>(get_int64_in(s, join(prefix, "count"), 0, max_count));
  std::vector<Element> out(count);
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          using T = typename std::tuple_element_t<C, Element>::value_type;
          const std::string base = join(prefix, "c") + std::to_string(C);
          const tensor& st = state_entry(s, base + "_shapes");
          const tensor& vt = state_entry(s, base + "_values");
          if (!st.holds<std::int64_t>() || st.rank() != 2 || st.shape()[0] != count)
            throw invalid_argument_error("The iterator state's entry '" + base + "_shapes' is " +
                                         st.description() + ", not int64 [" + std::to_string(count) + ", rank]");
          if (!vt.holds<T>() || vt.rank() != 1)
            throw invalid_argument_error("The iterator state's entry '" + base + "_values' is " + vt.description() +
                                         ", not " + std::string(dtype_name_of<T>) + " [n]");
          const auto& shapes = st.as<std::int64_t>();
          const auto& values = vt.as<T>();
          const std::size_t rank = st.shape()[1];
          std::size_t at = 0;
          for (std::size_t i = 0; i < count; ++i) {
            typename xt::xarray<T>::shape_type shape(rank);
            std::size_t size = 1;
            for (std::size_t d = 0; d < rank; ++d) {
              if (shapes(i, d) < 0 || (shapes(i, d) > 0 && size > values.size() / static_cast<std::size_t>(shapes(i, d))))
                throw invalid_argument_error("The iterator state's entry '" + base + "_shapes' holds a bad shape");
              shape[d] = static_cast<std::size_t>(shapes(i, d));
              size *= shape[d];
            }
            if (size > values.size() - at)
              throw invalid_argument_error("The iterator state's entry '" + base + "_values' holds " +
                                           std::to_string(values.size()) + " values, fewer than its shapes need");
            auto& a = std::get<C>(out[i]);
            a.resize(shape);
            std::copy(values.data() + at, values.data() + at + size, a.data());
            at += size;
          }
          if (at != values.size())
            throw invalid_argument_error("The iterator state's entry '" + base + "_values' holds " +
                                         std::to_string(values.size()) + " values, its shapes " + std::to_string(at));
        }(),
        ...);
  }(std::make_index_sequence<std::tuple_size_v<Element>>{});
  return out;
}

}  // namespace detail
}  // namespace typeflow::data
