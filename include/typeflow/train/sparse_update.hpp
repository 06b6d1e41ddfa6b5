// typeflow/train/sparse_update.hpp — how an optimizer applies a sparse gradient (an
// embedding's IndexedSlices, ops/embedding.hpp).
//
// The update node evaluates each term's rows and ids, never the dense gradient. Before
// anything changes, every id is checked against the variable's rows and every term's rows
// against its ids; then the rows are summed per id (TensorFlow's
// _deduplicate_indexed_slices, which its sparse updates apply first), and the optimizer's
// `apply_sparse<V>(ctx, step, slices)` updates the touched rows as TensorFlow's sparse
// kernels do (SparseApplyAdagrad, SparseApplyMomentum, ...). An optimizer without a sparse
// rule gets the dense gradient, scattered into a buffer, and its dense rule.
//
// What the summing needs between steps (a row-to-position table, the unique rows, the
// sums) is the session's resource "<optimizer>/sparse_update", sized by the first steps and
// reused: a steady step allocates nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"  // fn::add, which ops/embedding.hpp names without including
#include "typeflow/ops/embedding.hpp"
#include "typeflow/train/detail/storage.hpp"

namespace typeflow::train {

/// The value type of a sparse-update resource node: never fetched or fed.
struct sparse_update_handle {};

namespace detail {

// The state behind a sparse update; see the header comment.
struct sparse_update_scratch {
  std::vector<std::int64_t> position;  // per row of the largest table seen: its unique slot, or -1
  std::vector<std::int64_t> rows;      // the unique rows, in order of first appearance
  std::vector<float> sums_float;
  std::vector<double> sums_double;
  std::vector<float> dense_float;  // the dense gradient, for optimizers without a sparse rule
  std::vector<double> dense_double;

  template <class T>
  std::vector<T>& sums() {
    if constexpr (std::is_same_v<T, float>) {
      return sums_float;
    } else {
      return sums_double;
    }
  }
  template <class T>
  std::vector<T>& dense() {
    if constexpr (std::is_same_v<T, float>) {
      return dense_float;
    } else {
      return dense_double;
    }
  }
};

}  // namespace detail

/// The resource node of the optimizer named OptName's sparse updates.
template <fixed_string OptName>
struct sparse_update_node : node_base, kind_tag<node_kind::leaf>, op_info<"SparseUpdateScratch", false> {
  using value_type = sparse_update_handle;
  using shape_type = scalar;
  using inputs = mp::mp_list<>;
  static constexpr auto name = join_names<OptName, "sparse_update">();
  static constexpr bool is_resource = true;
  using resource_type = detail::sparse_update_scratch;
};

/// A sparse gradient summed per row: `size()` unique rows, `row(k)` the k-th (in order of
/// first appearance), `values(k)` its `width()` summed values.
template <class T>
class unique_slices {
 public:
  unique_slices(const std::int64_t* rows, const T* values, std::size_t size, std::size_t width) noexcept
      : rows_(rows), values_(values), size_(size), width_(width) {}
  std::size_t size() const noexcept { return size_; }
  std::size_t width() const noexcept { return width_; }
  std::int64_t row(std::size_t k) const noexcept { return rows_[k]; }
  const T* values(std::size_t k) const noexcept { return values_ + k * width_; }

 private:
  const std::int64_t* rows_;
  const T* values_;
  std::size_t size_, width_;
};

namespace detail {

// One term's rows and ids as the run holds them.
template <class T>
struct term_view {
  const T* values;
  std::size_t value_count;
  const void* ids;
  bool ids_are_64;
  std::size_t count;
  std::int64_t id(std::size_t k) const noexcept {
    return ids_are_64 ? static_cast<const std::int64_t*>(ids)[k]
                      : static_cast<std::int64_t>(static_cast<const std::int32_t*>(ids)[k]);
  }
};

template <class T, class Term, class Ctx>
term_view<T> view_term(Ctx& ctx) {
  using values_node = indexed_slices_values<Term>;
  using ids_node = indexed_slices_indices<Term>;
  const auto& values = ctx.template value<values_node>();
  const auto& ids = ctx.template value<ids_node>();
  return {data_of(values), size_of(values), data_of(ids), std::is_same_v<value_type_of<ids_node>, std::int64_t>,
          size_of(ids)};
}

// What is wrong with a sparse gradient's terms, found before anything changes: nothing
// (kind none), a term whose rows are not ids.size * width values, or an id out of range.
struct term_error {
  enum kind_t : std::int64_t { none = 0, value_count = 1, index = 2 };
  std::int64_t kind = none;
  std::int64_t k = 0;            // index: the position of the id in its term
  std::int64_t id = 0;           // index: the id
  std::int64_t values = 0;       // value_count: the term's values
  std::int64_t count = 0;        // value_count: the term's ids
  explicit operator bool() const noexcept { return kind != none; }
};

// The first error of the terms: every id of every term must be in [0, rows) and every
// term's rows ids.size * width values.
template <class T, std::size_t N>
term_error find_term_error(const std::array<term_view<T>, N>& terms, std::size_t rows, std::size_t width) noexcept {
  for (const auto& t : terms) {
    if (t.value_count != t.count * width)
      return {term_error::value_count, 0, 0, static_cast<std::int64_t>(t.value_count),
              static_cast<std::int64_t>(t.count)};
    for (std::size_t k = 0; k < t.count; ++k) {
      const std::int64_t id = t.id(k);
      if (id < 0 || static_cast<std::size_t>(id) >= rows)
        return {term_error::index, static_cast<std::int64_t>(k), id, 0, 0};
    }
  }
  return {};
}

// TensorFlow's InvalidArgument text for error e of the sparse gradient of V (rows of width
// values each), followed by `where` (empty, or " on rank 1 of 2").
template <class V>
invalid_argument_error term_error_exception(const term_error& e, std::size_t rows, std::size_t width,
                                            const std::string& where = {}) {
  if (e.kind == term_error::value_count)
    return invalid_argument_error("The sparse gradient of variable " + std::string(V::name.view()) + " has " +
                                  std::to_string(e.values) + " values for " + std::to_string(e.count) +
                                  " indices of rows of " + std::to_string(width) + where);
  return invalid_argument_error("indices[" + std::to_string(e.k) + "] = " + std::to_string(e.id) + " is not in [0, " +
                                std::to_string(rows) + ") (the sparse gradient of variable " +
                                std::string(V::name.view()) + ")" + where);
}

// The checks of find_term_error, or TensorFlow's InvalidArgument naming the variable:
// made before anything changes.
template <class V, class T, std::size_t N>
void check_terms(const std::array<term_view<T>, N>& terms, std::size_t rows, std::size_t width) {
  if (const term_error e = find_term_error(terms, rows, width)) throw term_error_exception<V>(e, rows, width);
}

template <class V>
constexpr std::size_t rows_of() {
  return shape_of<V>::rank == 0 ? 1 : shape_of<V>::dims[0];
}

// The summing of rows per id into the scratch s: begin_sums for up to `total` rows of
// `width` values of a table of `rows` rows, add_row for each row in order, end_sums for the
// unique rows (in order of first appearance) and their sums. Nothing allocates once the
// scratch has held as many.
template <class T>
T* begin_sums(sparse_update_scratch& s, std::size_t rows, std::size_t total, std::size_t width) {
  if (s.position.size() < rows) s.position.resize(rows, -1);
  s.rows.clear();
  if (s.rows.capacity() < total) s.rows.reserve(total);
  auto& sums = s.sums<T>();
  if (sums.size() < total * width) sums.resize(total * width);
  return sums.data();
}
template <class T>
void add_row(sparse_update_scratch& s, T* sums, std::int64_t id, const T* src, std::size_t width) noexcept {
  auto& slot = s.position[static_cast<std::size_t>(id)];
  if (slot < 0) {
    slot = static_cast<std::int64_t>(s.rows.size());
    s.rows.push_back(id);  // within the capacity begin_sums reserved
    std::copy_n(src, width, sums + static_cast<std::size_t>(slot) * width);
  } else {
    T* dst = sums + static_cast<std::size_t>(slot) * width;
    for (std::size_t j = 0; j < width; ++j) dst[j] += src[j];
  }
}
template <class T>
unique_slices<T> end_sums(sparse_update_scratch& s, std::size_t width) noexcept {
  for (const auto id : s.rows) s.position[static_cast<std::size_t>(id)] = -1;
  return {s.rows.data(), s.sums<T>().data(), s.rows.size(), width};
}

// The terms of gradient G of V as the run holds them.
template <class V, class G, class Ctx>
auto view_terms(Ctx& ctx) {
  using T = value_type_of<V>;
  return [&]<class... Term>(mp::mp_list<Term...>) {
    return std::array<term_view<T>, sizeof...(Term)>{view_term<T, Term>(ctx)...};
  }(indexed_slices_terms<G>{});
}

// The terms of gradient G of V, checked and summed per row.
template <class V, class G, class Ctx>
unique_slices<value_type_of<V>> deduplicate(Ctx& ctx, sparse_update_scratch& s) {
  using T = value_type_of<V>;
  constexpr std::size_t rows = rows_of<V>(), width = shape_of<V>::size / rows;
  const auto terms = view_terms<V, G>(ctx);
  check_terms<V>(terms, rows, width);
  std::size_t total = 0;
  for (const auto& t : terms) total += t.count;
  T* sums = begin_sums<T>(s, rows, total, width);
  for (const auto& t : terms)
    for (std::size_t k = 0; k < t.count; ++k) add_row(s, sums, t.id(k), t.values + k * width, width);
  return end_sums<T>(s, width);
}

// A view of a contiguous gradient, for an optimizer's dense rule.
template <class T>
struct dense_view {
  const T* p;
  std::size_t n;
  const T* data() const noexcept { return p; }
  std::size_t size() const noexcept { return n; }
};

template <class Def, class V, class Ctx, class Step>
concept has_sparse_rule = requires(Ctx& ctx, const Step& step, const unique_slices<value_type_of<V>>& s) {
  Def::template apply_sparse<V>(ctx, step, s);
};

/// Applies the summed slices of V's gradient with Def's sparse rule, or its dense rule on
/// the slices scattered into the scratch's dense buffer (see the header comment).
template <class Def, class V, class Ctx, class Step>
void apply_slices(Ctx& ctx, const Step& step, const unique_slices<value_type_of<V>>& slices,
                  sparse_update_scratch& scratch) {
  using T = value_type_of<V>;
  if constexpr (has_sparse_rule<Def, V, Ctx, Step>) {
    Def::template apply_sparse<V>(ctx, step, slices);
  } else {
    auto& dense = scratch.template dense<T>();
    if (dense.size() < shape_of<V>::size) dense.resize(shape_of<V>::size);
    std::fill_n(dense.begin(), shape_of<V>::size, T(0));
    for (std::size_t k = 0; k < slices.size(); ++k)
      std::copy_n(slices.values(k), slices.width(), dense.data() + static_cast<std::size_t>(slices.row(k)) * slices.width());
    Def::template apply<V>(ctx, step, dense_view<T>{dense.data(), shape_of<V>::size});
  }
}

/// Applies the sparse gradient G to V (apply_slices of its terms summed per row).
template <class Def, class V, class G, class Ctx, class Step>
void apply_sparse_pair(Ctx& ctx, const Step& step) {
  auto& scratch = ctx.template resource<sparse_update_node<Def::name>>();
  apply_slices<Def, V>(ctx, step, deduplicate<V, G>(ctx, scratch), scratch);
}

}  // namespace detail

}  // namespace typeflow::train
