// typeflow/train/saveable.hpp — state other than variables that a saver writes and restores
// with them (TensorFlow's SaveableObject): a dataset iterator's position.
//
// A saveable is a resource node R (core/concepts.hpp) whose state in the session offers
//   save_state(named_tensors& out, const std::string& prefix, std::string_view name) const
//   stage_restore(const named_tensors& in, const std::string& prefix, std::string_view name)
//       -> std::function<void()>
// save_state writes the state as tensors whose keys start with `prefix`; stage_restore checks
// such tensors (throwing an error that names the key at fault, and changing nothing) and
// returns the commit, which must not throw. The saver writes R's tensors into the checkpoint
// beside the variables under the keys "<R's name>_STATE/..." (TensorFlow 1.x names an
// iterator's saved state "<name>_STATE"), and restores them in the variables' transaction:
// a commit runs only after every variable and every saveable is read, verified and staged.
//
// This layer knows no dataset: data/iterator.hpp models the concept and offers
// data::make_saveable_from_iterator(iterator), which gives a saveable_t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <xtensor/xarray.hpp>

#include "typeflow/core/concepts.hpp"
#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/tensor.hpp"
#include "typeflow/io/checkpoint/bindings.hpp"
#include "typeflow/io/checkpoint/format.hpp"

namespace typeflow::train {

/// A saveable's state as tensors, by key (what data::iterator_state is).
using named_tensors = std::map<std::string, tensor>;

/// A resource node whose state a saver can write and restore (see the top of this file).
template <class R>
concept saveable_resource =
    resource_node_type<R> && requires(const typename R::resource_type& state, typename R::resource_type& target,
                                      named_tensors& out, const named_tensors& in, const std::string& prefix,
                                      std::string_view name) {
      state.save_state(out, prefix, name);
      { target.stage_restore(in, prefix, name) } -> std::same_as<std::function<void()>>;
    };

/// A saver entry: the state of resource R, under the checkpoint keys "<R's name>_STATE/...".
template <saveable_resource R>
struct saveable_t {
  using resource = R;
  static constexpr auto key = R::name;  // unique among a saver's keys, as a variable's name
};

/// The prefix of R's keys in a checkpoint.
template <class R>
std::string state_prefix() {
  return std::string(R::name.view()) + "_STATE";
}

/// A saver over every variable of the session and these saveables:
/// `train::saver(train::all_variables_and(data::make_saveable_from_iterator(it)))`.
template <class... S>
struct all_variables_and_t {};
template <class... R>
constexpr all_variables_and_t<saveable_t<R>...> all_variables_and(saveable_t<R>...) {
  return {};
}

namespace detail {

template <class E>
struct is_saveable_entry : std::false_type {};
template <class R>
struct is_saveable_entry<saveable_t<R>> : std::true_type {};

/// The tensors a save writes for its saveables, kept alive until the checkpoint is written.
struct saveable_states {
  std::vector<named_tensors> states;
  std::vector<std::vector<std::uint64_t>> shapes;
};

/// Adds the tensors of `state` to the save's table (the views point into `state` and `shapes`).
inline void append_state(const named_tensors& state, std::vector<std::vector<std::uint64_t>>& shapes,
                         std::vector<io::saved_variable>& out) {
  for (const auto& [key, t] : state) {
    const auto dims = t.shape();
    shapes.emplace_back(dims.begin(), dims.end());  // moved on growth: the heap buffer stays
    const void* data = std::visit([](const auto& a) -> const void* { return a.data(); }, t.variant());
    out.push_back({{key, t.dtype(), shapes.back(), data}, key, true});
  }
}

/// The tensor a restore read for a saveable: its dtype, shape and bytes.
inline tensor tensor_of(const io::tensor_info& info, std::span<const unsigned char> bytes) {
  if (bytes.size() != info.num_bytes())
    throw data_loss_error("Tensor " + info.name + " holds " + std::to_string(bytes.size()) + " bytes, not " +
                          std::to_string(info.num_bytes()));
  auto make = [&]<class T>(T) {
    typename xt::xarray<T>::shape_type shape(info.shape.begin(), info.shape.end());
    auto a = xt::xarray<T>::from_shape(shape);
    if (!bytes.empty()) std::memcpy(a.data(), bytes.data(), bytes.size());
    return tensor(std::move(a));
  };
  switch (info.dtype) {
    case dtype::float32: return make(float{});
    case dtype::float64: return make(double{});
    case dtype::int32: return make(std::int32_t{});
    case dtype::int64: return make(std::int64_t{});
    case dtype::boolean: return make(bool{});
  }
  throw data_loss_error("Tensor " + info.name + " has an unknown dtype");
}

/// The restore's table entry of saveable R in session state `target`; `prefix` must
/// outlive the restore.
template <class R>
io::restored_saveable restored_saveable_of(typename R::resource_type& target, const std::string& prefix) {
  return {prefix, R::name.view(), [&target, &prefix](std::span<const io::loaded_tensor> loaded) {
            named_tensors in;
            for (const auto& t : loaded) in.emplace(t.info->name, tensor_of(*t.info, t.bytes));
            return target.stage_restore(in, prefix, R::name.view());
          }};
}

}  // namespace detail
}  // namespace typeflow::train
