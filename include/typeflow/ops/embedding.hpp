// typeflow/ops/embedding.hpp — tf.nn.embedding_lookup, and the sparse form of its gradient
// (TensorFlow's IndexedSlices).
//
// `embedding_lookup(params, ids)` is `gather(params, ids)`: row ids[i...] of params, for ids
// of any rank. Its gradient with respect to params is a gather_gradient_node, which is
// TensorFlow's IndexedSlices in the graph's type: its *values* are the incoming gradient's
// rows (input 0, shape ids.shape + params.shape[1:]) and its *indices* the ids (input 2).
// Fetched, it is the dense scatter-add of the rows at the ids (TensorFlow would convert it so
// in any dense op); given to an optimizer, it is applied sparsely: the update reads the rows
// and the ids, never the dense tensor, and touches the looked-up rows only, with
// TensorFlow's sparse update rules (train/optimizer.hpp).
//
// A sum of such gradients, as the table looked up at every step of an unrolled sequence
// receives, is sparse too: its rows are the terms' rows one after the other, as TensorFlow's
// gradient aggregation concatenates IndexedSlices. A sum with a dense gradient (a table also
// used as a matmul's weights) is dense, as in TensorFlow.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/elementwise.hpp"
#include "typeflow/ops/gather.hpp"

namespace typeflow {

/// In a diagnostic: the element type of embedding_lookup's ids, which is not int32 or int64.
template <class IdsType>
struct embedding_ids_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: the static shape of embedding_lookup's params, which has no rows.
template <class ParamsShape>
struct embedding_params_must_have_rank_at_least_1 {
  static constexpr bool value = false;
};

namespace ops::detail {

// The gather gradients (IndexedSlices) a gradient sums, in order; void when it is dense.
template <class G>
struct slices_terms {
  using type = void;
};
template <class G, class P, class I>
struct slices_terms<gather_gradient_node<G, P, I>> {
  using type = mp::mp_list<gather_gradient_node<G, P, I>>;
};
template <class A, class B, bool Sparse = !std::is_void_v<typename slices_terms<A>::type> &&
                                          !std::is_void_v<typename slices_terms<B>::type>>
struct sum_terms {
  using type = void;
};
template <class A, class B>
struct sum_terms<A, B, true> {
  using type = mp::mp_append<typename slices_terms<A>::type, typename slices_terms<B>::type>;
};
template <class A, class B>
struct slices_terms<elementwise_node<fn::add, A, B>> : sum_terms<A, B> {};

}  // namespace ops::detail

/// A gradient in the sparse form of an embedding's: a gather gradient or a sum of them.
template <class G>
concept indexed_slices = !std::is_void_v<typename ops::detail::slices_terms<G>::type>;

/// The gather gradients an indexed_slices gradient sums, an mp_list.
template <indexed_slices G>
using indexed_slices_terms = typename ops::detail::slices_terms<G>::type;

/// The rows of one term (tf.IndexedSlices.values): ids.shape + params.shape[1:].
template <class Term>
using indexed_slices_values = mp::mp_at_c<inputs_of<Term>, 0>;
/// The ids of one term (tf.IndexedSlices.indices), of any rank.
template <class Term>
using indexed_slices_indices = mp::mp_at_c<inputs_of<Term>, 2>;

/// `embedding_lookup(params, ids)` is tf.nn.embedding_lookup(params, ids) for one table
/// (partition_strategy and max_norm do not apply): ids int32 or int64 of any rank, the
/// result ids.shape + params.shape[1:]; an id outside [0, rows) fails the run, naming it.
/// The gradient with respect to params is sparse (see the header comment).
template <node P, node I>
constexpr auto embedding_lookup(const P& params, const I& ids) {
  using IT = value_type_of<I>;
  if constexpr (!std::is_same_v<IT, std::int32_t> && !std::is_same_v<IT, std::int64_t>) {
    static_assert(embedding_ids_must_be_int32_or_int64<IT>::value,
                  "typeflow::embedding_lookup(params, ids): ids must be int32 or int64");
    return params;  // inert: the error above is the one to read
  } else if constexpr (shape_of<P>::rank == 0) {
    static_assert(embedding_params_must_have_rank_at_least_1<shape_of<P>>::value,
                  "typeflow::embedding_lookup(params, ids): params must have rank >= 1 (ids pick its rows)");
    return params;
  } else {
    return make_node<gather_node<P, I>>(params, ids);
  }
}

}  // namespace typeflow
