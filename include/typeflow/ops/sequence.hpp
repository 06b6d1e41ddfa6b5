// typeflow/ops/sequence.hpp — tf.reverse_sequence (op ReverseSequence) and tf.sequence_mask:
// the ops of variable-length sequences in a padded batch.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"

namespace typeflow {

/// In a diagnostic: seq_axis, batch_axis and x's shape, when the axes are not two
/// different dims of x.
template <std::ptrdiff_t SeqAxis, std::ptrdiff_t BatchAxis, class XShape>
struct reverse_sequence_axes_must_be_two_different_dims_of_x {
  static constexpr bool value = false;
};
/// In a diagnostic: the shape of seq_lengths, not a vector of x's size along batch_axis;
/// the batch axis and x's shape.
template <class LengthsShape, std::ptrdiff_t BatchAxis, class XShape>
struct reverse_sequence_lengths_must_be_a_vector_over_the_batch_axis {
  static constexpr bool value = false;
};
/// In a diagnostic: the element type of sequence lengths, which is not int32 or int64.
template <class LengthsType>
struct sequence_lengths_must_be_int32_or_int64 {
  static constexpr bool value = false;
};

namespace ops::detail {
template <class T>
inline constexpr bool is_index_type = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>;
}  // namespace ops::detail

/// tf.reverse_sequence(x, seq_lengths, seq_axis=SeqAxis, batch_axis=BatchAxis), axes in [0, rank).
template <std::size_t SeqAxis, std::size_t BatchAxis, class X, class L>
struct reverse_sequence_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::compute, X, L>,
                               op_info<"ReverseSequence"> {
  template <class... N>
  using rebind = reverse_sequence_node<SeqAxis, BatchAxis, N...>;
  // The reversal is its own inverse (a permutation of x's elements that it transposes):
  // g reversed with the same lengths; none to the lengths.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, reverse_sequence_node<SeqAxis, BatchAxis, G, L>, no_gradient>;

  template <class Out, class VX, class VL>
  static void compute(Out& out, const VX& x, const VL& lengths) {
    using T = value_type_of<X>;
    constexpr std::size_t r = shape_of<X>::rank;
    const auto xd = ops::detail::dims_of<r>(x);
    const auto ld = ops::detail::dims_of<1>(lengths);
    const auto* len = ops::detail::data_ptr(lengths);
    // TensorFlow's checks and messages (reverse_sequence_op.cc), before anything is written.
    if (ld[0] != xd[BatchAxis])
      throw invalid_argument_error("Length of seq_lengths != input.dims(" + std::to_string(BatchAxis) + "), (" +
                                   std::to_string(ld[0]) + " vs. " + std::to_string(xd[BatchAxis]) + ")");
    for (std::size_t b = 0; b < ld[0]; ++b) {
      if (len[b] < 0) throw invalid_argument_error("seq_lens(" + std::to_string(b) + ") < 0");
      if (static_cast<std::size_t>(len[b]) > xd[SeqAxis])
        throw invalid_argument_error("seq_lens(" + std::to_string(b) + ") > input.dims(" + std::to_string(SeqAxis) + ")");
    }
    ops::detail::resize_unless_static<shape_of<X>::is_static>(out, xd);
    const std::size_t seq_stride = ops::detail::dims_product(xd, SeqAxis + 1, r);
    const std::size_t batch_stride = ops::detail::dims_product(xd, BatchAxis + 1, r);
    const std::size_t size = ops::detail::dims_product(xd, 0, r);
    const T* xp = ops::detail::data_ptr(x);
    T* o = out.data();
    for (std::size_t i = 0; i < size; ++i) {
      const std::size_t s = (i / seq_stride) % xd[SeqAxis];
      const std::size_t n = static_cast<std::size_t>(len[(i / batch_stride) % xd[BatchAxis]]);
      o[i] = s < n ? xp[i + (n - 1 - s) * seq_stride - s * seq_stride] : xp[i];
    }
  }
};

/// `reverse_sequence<seq_axis, batch_axis>(x, seq_lengths)` is tf.reverse_sequence(x,
/// seq_lengths, seq_axis, batch_axis): for each b, the first seq_lengths[b] elements along
/// seq_axis of batch entry b reversed, the rest kept. seq_lengths: int32 or int64, a vector
/// of x's size along batch_axis; each in [0, x.shape[seq_axis]] at run time.
template <std::ptrdiff_t SeqAxis, std::ptrdiff_t BatchAxis = 0, node X, node L>
constexpr auto reverse_sequence(const X& x, const L& seq_lengths) {
  using SX = shape_of<X>;
  using SL = shape_of<L>;
  constexpr std::ptrdiff_t r = std::ptrdiff_t(SX::rank);
  constexpr std::ptrdiff_t seq = SeqAxis < 0 ? SeqAxis + r : SeqAxis;
  constexpr std::ptrdiff_t batch = BatchAxis < 0 ? BatchAxis + r : BatchAxis;
  if constexpr (seq < 0 || seq >= r || batch < 0 || batch >= r || seq == batch) {
    static_assert(reverse_sequence_axes_must_be_two_different_dims_of_x<SeqAxis, BatchAxis, SX>::value,
                  "typeflow::reverse_sequence<seq_axis, batch_axis>(x, lengths): the axes must be two "
                  "different dims of x, in [-rank, rank)");
    return x;  // inert: the error above is the one to read
  } else if constexpr (!ops::detail::is_index_type<value_type_of<L>>) {
    static_assert(sequence_lengths_must_be_int32_or_int64<value_type_of<L>>::value,
                  "typeflow::reverse_sequence(x, lengths): lengths must be int32 or int64");
    return x;
  } else if constexpr (SL::rank != 1 || (SL::dims[0] != dyn && SX::dims[batch] != dyn && SL::dims[0] != SX::dims[batch])) {
    static_assert(reverse_sequence_lengths_must_be_a_vector_over_the_batch_axis<SL, BatchAxis, SX>::value,
                  "typeflow::reverse_sequence(x, lengths): lengths must be a vector with one length per "
                  "entry of x along batch_axis");
    return x;
  } else {
    return make_node<reverse_sequence_node<std::size_t(seq), std::size_t(batch), X, L>>(x, seq_lengths);
  }
}

// --- sequence_mask --------------------------------------------------------------------------

namespace ops::detail {
template <class S, std::ptrdiff_t MaxLen>
struct mask_shape {
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> shape<S::dims[I]..., MaxLen>;
  using type = decltype(make(std::make_index_sequence<S::rank>{}));
};
}  // namespace ops::detail

/// tf.sequence_mask(lengths, maxlen, dtype=T); MaxLen dyn: max(lengths) at run time.
template <std::ptrdiff_t MaxLen, class T, class L>
struct sequence_mask_node
    : node_facade<T, typename ops::detail::mask_shape<shape_of<L>, MaxLen>::type, node_kind::compute, L>,
      op_info<"SequenceMask", false> {
  template <class... N>
  using rebind = sequence_mask_node<MaxLen, T, N...>;

  template <class Out, class VL>
  static void compute(Out& out, const VL& lengths) {
    using S = shape_of<sequence_mask_node>;
    constexpr std::size_t rl = shape_of<L>::rank;
    const auto ld = ops::detail::dims_of<rl>(lengths);
    const auto* len = ops::detail::data_ptr(lengths);
    const std::size_t n = ops::detail::dims_product(ld, 0, rl);
    std::size_t maxlen = MaxLen == dyn ? 0 : static_cast<std::size_t>(MaxLen);
    if constexpr (MaxLen == dyn)
      for (std::size_t k = 0; k < n; ++k)
        if (len[k] > 0) maxlen = std::max(maxlen, static_cast<std::size_t>(len[k]));
    std::array<std::size_t, S::rank> od{};
    for (std::size_t j = 0; j < rl; ++j) od[j] = ld[j];
    od[rl] = maxlen;
    ops::detail::resize_unless_static<S::is_static>(out, od);
    T* o = out.data();
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < maxlen; ++j)
        o[k * maxlen + j] = static_cast<T>(static_cast<std::int64_t>(j) < static_cast<std::int64_t>(len[k]));
  }
};

/// `sequence_mask<maxlen, T = bool>(lengths)` is tf.sequence_mask(lengths, maxlen, dtype=T):
/// shape lengths.shape + [maxlen], element [i..., j] is j < lengths[i...]. With maxlen
/// `tf::dyn` (the default, TensorFlow's maxlen=None), maxlen is max(lengths) at run time.
/// lengths: int32 or int64. Not differentiable.
template <std::ptrdiff_t MaxLen = dyn, element_type T = bool, node L>
constexpr auto sequence_mask(const L& lengths) {
  static_assert(MaxLen >= 0 || MaxLen == dyn, "typeflow::sequence_mask<maxlen>(lengths): maxlen must be >= 0 or tf::dyn");
  if constexpr (!ops::detail::is_index_type<value_type_of<L>>) {
    static_assert(sequence_lengths_must_be_int32_or_int64<value_type_of<L>>::value,
                  "typeflow::sequence_mask(lengths): lengths must be int32 or int64");
    return lengths;  // inert: the error above is the one to read
  } else {
    return make_node<sequence_mask_node<MaxLen, T, L>>(lengths);
  }
}

}  // namespace typeflow
