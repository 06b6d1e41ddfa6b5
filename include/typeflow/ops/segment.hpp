// typeflow/ops/segment.hpp — TensorFlow 1.x's segment reductions: the sorted
// tf.segment_sum/mean/max/min/prod(data, segment_ids) (ops SegmentSum, ...) and
// tf.unsorted_segment_sum/max/min/prod(data, segment_ids, num_segments) (UnsortedSegmentSum, ...).
//
// Row j of the result reduces the slices data[i..., :] whose segment_ids[i...] is j; the
// shape is [rows] + data.shape[segment_ids.rank:]. An empty segment holds the reduction's
// identity, as TensorFlow's kernels: sum 0, prod 1, max lowest(), min max(), mean 0.
//  - sorted: segment_ids is a vector of data.shape[0] ids, sorted and >= 0; rows = last id + 1
//    (a dyn dim). The checks and messages are TensorFlow's ("segment ids are not increasing").
//  - unsorted: segment_ids' shape is a prefix of data's; rows = num_segments, a compile-time
//    value (a static dim). An id >= num_segments fails the run before anything is written
//    ("segment_ids[i] = v is out of range [0, num)"); a negative id is dropped, as TensorFlow 1.15.
// Gradients are TensorFlow's (math_grad.py): sum gathers g, mean gathers g / counts, max and
// min split g evenly among the tied selected elements, prod handles zeros
// (_UnsortedSegmentProdGrad; TensorFlow 1.x registers none for the sorted SegmentProd,
// typeflow uses the same rule for it).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: the element type of a segment op's segment_ids, which is not int32 or int64.
template <class IdsType>
struct segment_ids_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: the element type of a segment op's data, bool (it must be a number).
template <class DataType>
struct segment_data_must_be_numeric {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of a sorted segment op's segment_ids, not a vector.
template <class IdsShape>
struct segment_ids_must_be_a_vector {
  static constexpr bool value = false;
};
/// In a diagnostic: segment_ids' static shape, which is not a prefix of data's static shape.
template <class IdsShape, class DataShape>
struct segment_ids_shape_must_be_a_prefix_of_data_shape {
  static constexpr bool value = false;
};

namespace ops::segment {
// The reductions: identity (an empty segment's value) and combination.
struct sum {
  template <class T>
  static constexpr T identity() { return T(0); }
  template <class T>
  static void combine(T& a, T b) { a += b; }
};
struct mean : sum {};
struct max {
  template <class T>
  static constexpr T identity() { return std::numeric_limits<T>::lowest(); }
  template <class T>
  static void combine(T& a, T b) { a = b > a ? b : a; }
};
struct min {
  template <class T>
  static constexpr T identity() { return std::numeric_limits<T>::max(); }
  template <class T>
  static void combine(T& a, T b) { a = b < a ? b : a; }
};
struct prod {
  template <class T>
  static constexpr T identity() { return T(1); }
  template <class T>
  static void combine(T& a, T b) { a *= b; }
};

// The TensorFlow op of a reduction, sorted or not.
template <class R, bool Sorted>
struct op;
template <> struct op<sum, true> : op_info<"SegmentSum"> {};
template <> struct op<mean, true> : op_info<"SegmentMean"> {};
template <> struct op<max, true> : op_info<"SegmentMax"> {};
template <> struct op<min, true> : op_info<"SegmentMin"> {};
template <> struct op<prod, true> : op_info<"SegmentProd"> {};
template <> struct op<sum, false> : op_info<"UnsortedSegmentSum"> {};
template <> struct op<max, false> : op_info<"UnsortedSegmentMax"> {};
template <> struct op<min, false> : op_info<"UnsortedSegmentMin"> {};
template <> struct op<prod, false> : op_info<"UnsortedSegmentProd"> {};

// The gradient's op: the last op of TensorFlow's composition (gather for sum and mean, a
// select for max and min, a mul for prod); max/min/prod gradients are not differentiated again.
template <class R>
using grad_op = mp::mp_if_c<std::is_same_v<R, sum> || std::is_same_v<R, mean>, op_info<"GatherV2">,
                            mp::mp_if_c<std::is_same_v<R, prod>, op_info<"Mul", false>, op_info<"Select", false>>>;

// [Rows] + D.dims[ri:].
template <std::ptrdiff_t Rows, class D, std::size_t RI>
struct out_shape {
  template <std::size_t... J>
  static auto make(std::index_sequence<J...>) -> shape<Rows, D::dims[J + RI]...>;
  using type = decltype(make(std::make_index_sequence<D::rank - RI>{}));
};

template <class I, class D>
constexpr bool ids_prefix_of_data() {
  if constexpr (I::rank > D::rank) {
    return false;
  } else {
    for (std::size_t j = 0; j < I::rank; ++j)
      if (I::dims[j] >= 0 && D::dims[j] >= 0 && I::dims[j] != D::dims[j]) return false;
    return true;
  }
}

// The geometry of a run: ids' count n, a slice's size row, the output rows; checks the ids
// as TensorFlow's kernels do, before anything is written.
struct geometry {
  std::size_t n, row, rows;
};

template <bool Sorted, std::ptrdiff_t NumSegments, std::size_t RD, std::size_t RI, class Ix>
geometry check(const std::array<std::size_t, RD>& dd, const std::array<std::size_t, RI>& id, const Ix* ix) {
  for (std::size_t j = 0; j < RI; ++j)
    if (id[j] != dd[j]) {
      if constexpr (Sorted)
        throw invalid_argument_error("segment_ids should be the same size as dimension 0 of data");
      else
        throw invalid_argument_error("data.shape = " + ops::detail::dims_string(dd) + " does not start with segment_ids.shape = " +
                                     ops::detail::dims_string(id));
    }
  const std::size_t n = ops::detail::dims_product(id, 0, RI), row = ops::detail::dims_product(dd, RI, RD);
  if constexpr (Sorted) {  // SegmentReductionOp::Compute
    const std::int64_t last = n ? static_cast<std::int64_t>(ix[n - 1]) + 1 : 0;
    if (last < 0 || (n && ix[n - 1] < 0)) throw invalid_argument_error("segment ids must be >= 0");
    for (std::size_t k = 0; k < n; ++k) {
      if (k + 1 < n && ix[k + 1] != ix[k] && ix[k + 1] < ix[k])
        throw invalid_argument_error("segment ids are not increasing");
      if (k + 1 == n || ix[k + 1] != ix[k])  // the end of a segment
        if (ix[k] < 0 || ix[k] >= last)
          throw invalid_argument_error("Segment id " + std::to_string(ix[k]) + " out of range [0, " + std::to_string(last) +
                                       "), possibly because 'segment_ids' input is not sorted.");
    }
    return {n, row, static_cast<std::size_t>(last)};
  } else {
    for (std::size_t k = 0; k < n; ++k)
      if (ix[k] >= NumSegments)
        throw invalid_argument_error("segment_ids" + ops::detail::index_string(k, id) + " = " + std::to_string(ix[k]) +
                                     " is out of range [0, " + std::to_string(NumSegments) + ")");
    return {n, row, static_cast<std::size_t>(NumSegments)};
  }
}

/// n values set to `fill`, in a grow-only buffer per thread, value type and use (Use): only
/// the first runs, and a run with more segments, allocate (steady runs allocate nothing).
template <int Use, class V>
V* scratch(std::size_t n, V fill) {
  thread_local std::vector<V> buffer;
  if (buffer.size() < n) buffer.resize(n);
  std::fill_n(buffer.data(), n, fill);
  return buffer.data();
}

// How many ids fall in each segment (negatives dropped).
template <class Ix>
const std::size_t* counts(const Ix* ix, std::size_t n, std::size_t rows) {
  std::size_t* c = scratch<0>(rows, std::size_t(0));
  for (std::size_t k = 0; k < n; ++k)
    if (ix[k] >= 0) ++c[static_cast<std::size_t>(ix[k])];
  return c;
}

}  // namespace ops::segment

template <class R, bool Sorted, std::ptrdiff_t NumSegments, class D, class I>
struct segment_node;

/// The gradient of a segment reduction with respect to data (TensorFlow's math_grad.py rules),
/// of data's shape; rows whose id is negative (dropped by the unsorted ops) get 0.
template <class R, bool Sorted, std::ptrdiff_t NumSegments, class G, class D, class I, class F>
struct segment_gradient_node : node_facade<value_type_of<D>, shape_of<D>, node_kind::compute, G, D, I, F>,
                               ops::segment::grad_op<R> {
  template <class... N>
  using rebind = segment_gradient_node<R, Sorted, NumSegments, N...>;
  // Sum and mean: linear in g; the gradient of gather(g / counts) is the same reduction of gg.
  template <std::size_t K, class GG>
  using gradient = mp::mp_if_c<K == 0 && (std::is_same_v<R, ops::segment::sum> || std::is_same_v<R, ops::segment::mean>),
                               segment_node<R, Sorted, NumSegments, GG, I>, no_gradient>;

  template <class Out, class VG, class VD, class VI, class VF>
  static void compute(Out& out, const VG& g, const VD& data, const VI& ids, const VF& f) {
    using T = value_type_of<D>;
    namespace sg = ops::segment;
    constexpr std::size_t rd = shape_of<D>::rank, ri = shape_of<I>::rank;
    const auto dd = ops::detail::dims_of<rd>(data);
    const auto id = ops::detail::dims_of<ri>(ids);
    const auto* ix = ops::detail::data_ptr(ids);
    const auto geo = sg::check<Sorted, NumSegments>(dd, id, ix);
    ops::detail::resize_unless_static<shape_of<D>::is_static>(out, dd);
    std::fill(out.begin(), out.end(), T(0));
    const std::size_t n = geo.n, row = geo.row;
    const T* gp = ops::detail::data_ptr(g);
    const T* dp = ops::detail::data_ptr(data);
    const T* fp = ops::detail::data_ptr(f);
    T* o = out.data();
    if constexpr (std::is_same_v<R, sg::sum>) {  // _UnsortedSegmentSumGrad, _SegmentSumGrad: gather(g)
      for (std::size_t k = 0; k < n; ++k)
        if (ix[k] >= 0) std::copy_n(gp + static_cast<std::size_t>(ix[k]) * row, row, o + k * row);
    } else if constexpr (std::is_same_v<R, sg::mean>) {  // _SegmentMeanGrad: gather(g / counts)
      const auto c = sg::counts(ix, n, geo.rows);
      for (std::size_t k = 0; k < n; ++k) {
        const auto j = static_cast<std::size_t>(ix[k]);
        for (std::size_t e = 0; e < row; ++e) o[k * row + e] = gp[j * row + e] / static_cast<T>(c[j]);
      }
    } else if constexpr (std::is_same_v<R, sg::prod>) {  // _UnsortedSegmentProdGrad
      std::size_t* zeros = sg::scratch<1>(geo.rows * row, std::size_t(0));
      T* non_zero_prod = sg::scratch<2>(geo.rows * row, T(1));
      for (std::size_t k = 0; k < n; ++k)
        if (ix[k] >= 0)
          for (std::size_t e = 0; e < row; ++e) {
            const std::size_t at = static_cast<std::size_t>(ix[k]) * row + e;
            if (dp[k * row + e] == T(0)) ++zeros[at];
            else non_zero_prod[at] *= dp[k * row + e];
          }
      for (std::size_t k = 0; k < n; ++k)
        if (ix[k] >= 0)
          for (std::size_t e = 0; e < row; ++e) {
            const std::size_t at = static_cast<std::size_t>(ix[k]) * row + e;
            if (zeros[at] > 1) continue;  // more than one zero: the product is 0 near here
            const T x = dp[k * row + e];
            o[k * row + e] = gp[at] * (x == T(0) ? non_zero_prod[at] : fp[at] / x);
          }
    } else {  // _UnsortedSegmentMinOrMaxGrad, _SegmentMinOrMaxGrad: g split among the selected
      std::size_t* selected = sg::scratch<1>(geo.rows * row, std::size_t(0));
      for (std::size_t k = 0; k < n; ++k)
        if (ix[k] >= 0)
          for (std::size_t e = 0; e < row; ++e) {
            const std::size_t at = static_cast<std::size_t>(ix[k]) * row + e;
            if (dp[k * row + e] == fp[at]) ++selected[at];
          }
      for (std::size_t k = 0; k < n; ++k)
        if (ix[k] >= 0)
          for (std::size_t e = 0; e < row; ++e) {
            const std::size_t at = static_cast<std::size_t>(ix[k]) * row + e;
            if (dp[k * row + e] == fp[at]) o[k * row + e] = gp[at] / static_cast<T>(selected[at]);
          }
    }
  }
};

template <class R, bool Sorted, std::ptrdiff_t NumSegments, class D, class I>
struct segment_node
    : node_facade<value_type_of<D>,
                  typename ops::segment::out_shape<Sorted ? dyn : NumSegments, shape_of<D>, shape_of<I>::rank>::type,
                  node_kind::compute, D, I>,
      ops::segment::op<R, Sorted> {
  template <class... N>
  using rebind = segment_node<R, Sorted, NumSegments, N...>;
  // To data only: no gradient flows into segment_ids.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, segment_gradient_node<R, Sorted, NumSegments, G, D, I, segment_node>, no_gradient>;

  template <class Out, class VD, class VI>
  static void compute(Out& out, const VD& data, const VI& ids) {
    using T = value_type_of<D>;
    using S = shape_of<segment_node>;
    namespace sg = ops::segment;
    constexpr std::size_t rd = shape_of<D>::rank, ri = shape_of<I>::rank;
    const auto dd = ops::detail::dims_of<rd>(data);
    const auto id = ops::detail::dims_of<ri>(ids);
    const auto* ix = ops::detail::data_ptr(ids);
    const auto geo = sg::check<Sorted, NumSegments>(dd, id, ix);
    std::array<std::size_t, S::rank> od{};
    od[0] = geo.rows;
    for (std::size_t j = 1; j < S::rank; ++j) od[j] = dd[j - 1 + ri];
    ops::detail::resize_unless_static<S::is_static>(out, od);
    std::fill(out.begin(), out.end(), R::template identity<T>());
    const std::size_t n = geo.n, row = geo.row;
    const T* dp = ops::detail::data_ptr(data);
    T* o = out.data();
    for (std::size_t k = 0; k < n; ++k)
      if (ix[k] >= 0) {
        T* dst = o + static_cast<std::size_t>(ix[k]) * row;
        for (std::size_t e = 0; e < row; ++e) R::combine(dst[e], dp[k * row + e]);
      }
    if constexpr (std::is_same_v<R, sg::mean>) {
      const auto c = sg::counts(ix, n, geo.rows);
      for (std::size_t j = 0; j < geo.rows; ++j)
        if (c[j])
          for (std::size_t e = 0; e < row; ++e) o[j * row + e] /= static_cast<T>(c[j]);
    }
  }
};

namespace ops::segment {
// The one error of a segment op's call, then an inert value (data).
template <bool Sorted, std::ptrdiff_t NumSegments, class R, class D, class I>
constexpr auto make(const D& data, const I& ids) {
  using IT = value_type_of<I>;
  using DS = shape_of<D>;
  using IS = shape_of<I>;
  if constexpr (!std::is_same_v<IT, std::int32_t> && !std::is_same_v<IT, std::int64_t>) {
    static_assert(segment_ids_must_be_int32_or_int64<IT>::value,
                  "typeflow segment ops (data, segment_ids): segment_ids must be int32 or int64");
    return data;  // inert: the error above is the one to read
  } else if constexpr (std::is_same_v<value_type_of<D>, bool>) {
    static_assert(segment_data_must_be_numeric<value_type_of<D>>::value,
                  "typeflow segment ops (data, segment_ids): data must be a number type, not bool");
    return data;
  } else if constexpr (Sorted && IS::rank != 1) {
    static_assert(segment_ids_must_be_a_vector<IS>::value,
                  "typeflow::segment_*(data, segment_ids): segment_ids must be a vector (rank 1)");
    return data;
  } else if constexpr (IS::rank == 0 || !ids_prefix_of_data<IS, DS>()) {
    static_assert(segment_ids_shape_must_be_a_prefix_of_data_shape<IS, DS>::value,
                  "typeflow segment ops (data, segment_ids): segment_ids' shape (rank >= 1) must be a prefix of data's shape");
    return data;
  } else {
    return make_node<segment_node<R, Sorted, NumSegments, D, I>>(data, ids);
  }
}
}  // namespace ops::segment

/// `segment_sum(data, segment_ids)` is tf.segment_sum: segment_ids (int32 or int64) a sorted
/// vector of data.shape[0] ids >= 0; shape [last id + 1 (dyn)] + data.shape[1:].
template <node D, node I>
constexpr auto segment_sum(const D& data, const I& segment_ids) {
  return ops::segment::make<true, dyn, ops::segment::sum>(data, segment_ids);
}
/// tf.segment_mean: as segment_sum, each row divided by its segment's count (0 if empty).
template <node D, node I>
constexpr auto segment_mean(const D& data, const I& segment_ids) {
  return ops::segment::make<true, dyn, ops::segment::mean>(data, segment_ids);
}
/// tf.segment_max: as segment_sum, the maximum (an empty segment holds lowest()).
template <node D, node I>
constexpr auto segment_max(const D& data, const I& segment_ids) {
  return ops::segment::make<true, dyn, ops::segment::max>(data, segment_ids);
}
/// tf.segment_min: as segment_sum, the minimum (an empty segment holds max()).
template <node D, node I>
constexpr auto segment_min(const D& data, const I& segment_ids) {
  return ops::segment::make<true, dyn, ops::segment::min>(data, segment_ids);
}
/// tf.segment_prod: as segment_sum, the product (an empty segment holds 1).
template <node D, node I>
constexpr auto segment_prod(const D& data, const I& segment_ids) {
  return ops::segment::make<true, dyn, ops::segment::prod>(data, segment_ids);
}

/// `unsorted_segment_sum<num_segments>(data, segment_ids)` is tf.unsorted_segment_sum(data,
/// segment_ids, num_segments): segment_ids (int32 or int64) of a shape that is a prefix of
/// data's, any order; shape [num_segments] + data.shape[segment_ids.rank:]. Negative ids are
/// dropped (TensorFlow 1.15); an id >= num_segments is an invalid_argument_error.
template <std::size_t NumSegments, node D, node I>
constexpr auto unsorted_segment_sum(const D& data, const I& segment_ids) {
  return ops::segment::make<false, static_cast<std::ptrdiff_t>(NumSegments), ops::segment::sum>(data, segment_ids);
}
/// tf.unsorted_segment_max: as unsorted_segment_sum, the maximum (empty: lowest()).
template <std::size_t NumSegments, node D, node I>
constexpr auto unsorted_segment_max(const D& data, const I& segment_ids) {
  return ops::segment::make<false, static_cast<std::ptrdiff_t>(NumSegments), ops::segment::max>(data, segment_ids);
}
/// tf.unsorted_segment_min: as unsorted_segment_sum, the minimum (empty: max()).
template <std::size_t NumSegments, node D, node I>
constexpr auto unsorted_segment_min(const D& data, const I& segment_ids) {
  return ops::segment::make<false, static_cast<std::ptrdiff_t>(NumSegments), ops::segment::min>(data, segment_ids);
}
/// tf.unsorted_segment_prod: as unsorted_segment_sum, the product (empty: 1).
template <std::size_t NumSegments, node D, node I>
constexpr auto unsorted_segment_prod(const D& data, const I& segment_ids) {
  return ops::segment::make<false, static_cast<std::ptrdiff_t>(NumSegments), ops::segment::prod>(data, segment_ids);
}

}  // namespace typeflow
