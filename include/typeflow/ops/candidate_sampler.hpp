// typeflow/ops/candidate_sampler.hpp — tf.random.log_uniform_candidate_sampler (op
// LogUniformCandidateSampler) and tf.nn.compute_accidental_hits' effect on sampled logits.
//
// TensorFlow's sampler is one op with three outputs; here each output is its own node over
// one draw node, so the three agree within a run:
//   - the draw (log_uniform_draw_node, an effect): num_sampled ids in [0, range_max), then
//     the number of tries the draw took, as int64 [num_sampled + 1];
//   - sampled_candidates: the ids, int64 [num_sampled];
//   - true_expected_count and sampled_expected_count: for each id k (of the true classes,
//     of the sampled ones), the expected count of k in the draw:
//     P(k) = (log(k + 2) - log(k + 1)) / log(range_max + 1), and with unique sampling
//     -expm1(num_tries * log1p(-P(k))), with num_tries == num_sampled (so always without
//     unique) P(k) * num_sampled, as TensorFlow's RangeSampler computes them.
// Sampling draws k = floor(exp(u * log(range_max + 1))) - 1 for uniform u in [0, 1); with
// unique sampling an id already drawn is drawn again (that is a try), as TensorFlow's
// RangeSampler does. No gradient flows through any of these nodes.
//
// Random state lives in the session, as dropout's (ops/dropout.hpp): each op seed Seed has a
// hidden int64 counter "log_uniform_candidate_sampler/random_state_<Seed>", left out of
// savers; the u are splitmix64 draws seeded by (Seed, the session's graph seed, the
// counter), and each run that computes the draw advances the counter. The samples are new
// on each run and reproducible from the seeds; TensorFlow's own Philox streams are not
// reproduced, so the same seeds give other samples than in TensorFlow.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/detail/tensor_access.hpp"
#include "typeflow/ops/dropout.hpp"
#include "typeflow/ops/variable.hpp"

namespace typeflow {

/// In a diagnostic: the element type of the true classes (labels) given to a candidate
/// sampler or a sampled loss, which is not int32 or int64.
template <class LabelsType>
struct sampled_labels_must_be_int32_or_int64 {
  static constexpr bool value = false;
};
/// In a diagnostic: the true classes' shape, which is not [batch, num_true] with a static
/// num_true.
template <class LabelsShape>
struct sampled_labels_must_be_batch_by_num_true {
  static constexpr bool value = false;
};
/// In a diagnostic: unique sampling of NumSampled distinct ids out of RangeMax.
template <std::size_t NumSampled, std::size_t RangeMax>
struct unique_sampling_needs_num_sampled_at_most_range_max {
  static constexpr bool value = false;
};

namespace ops::detail {

/// "log_uniform_candidate_sampler/random_state_<Seed>".
template <std::uint64_t Seed>
constexpr auto candidate_sampler_state_name() {
  return numbered_name<"log_uniform_candidate_sampler/random_state_", Seed>();
}

/// P(k) of the log-uniform (Zipfian) distribution over [0, range_max), as TensorFlow's
/// LogUniformSampler::Probability.
inline double log_uniform_probability(std::int64_t k, std::size_t range_max) {
  return std::log((static_cast<double>(k) + 2.0) / (static_cast<double>(k) + 1.0)) /
         std::log1p(static_cast<double>(range_max));
}

/// The expected count of an id of probability p in a draw of num_sampled ids that took
/// num_tries tries (TensorFlow's ExpectedCountHelper).
inline double expected_count(double p, std::int64_t num_sampled, std::int64_t num_tries) {
  if (num_tries == num_sampled) return p * static_cast<double>(num_sampled);
  return -std::expm1(static_cast<double>(num_tries) * std::log1p(-p));
}

/// Draws n ids in [0, range_max) into out[0, n) and writes the number of tries to out[n].
// What a sampler returns after its diagnostic: three nodes, so that a binding of its three
// outputs adds no error of its own.
template <class T>
constexpr auto inert_sample() {
  return std::tuple{literal_node<0, std::int64_t>{}, literal_node<1, T>{}, literal_node<1, T>{}};
}

inline void log_uniform_draw(std::int64_t* out, std::size_t n, std::size_t range_max, bool unique,
                             std::uint64_t op_seed, std::uint64_t graph_seed, std::uint64_t count) {
  std::uint64_t state = seeded_state(op_seed, graph_seed, count);
  const double log_range = std::log1p(static_cast<double>(range_max));
  const auto last = static_cast<std::int64_t>(range_max) - 1;
  std::int64_t tries = 0;
  std::size_t picked = 0;
  while (picked < n) {
    ++tries;
    const double u = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
    const std::int64_t k = std::min(static_cast<std::int64_t>(std::exp(u * log_range)) - 1, last);
    // A linear search: no allocation in a run, and num_sampled is small beside range_max.
    if (!unique || std::find(out, out + picked, k) == out + picked) out[picked++] = k;
  }
  out[n] = tries;
}

}  // namespace ops::detail

/// The counter of the draws of op seed Seed, in each session: hidden state.
template <std::uint64_t Seed>
struct candidate_sampler_state_node
    : variable_node<ops::detail::candidate_sampler_state_name<Seed>(), std::int64_t, scalar,
                    init::fixed<init::zeros()>> {
  static constexpr bool is_hidden_state = true;
};

/// One draw of the sampler: NumSampled ids, then the number of tries, int64
/// [NumSampled + 1], drawn anew on each run that computes it. TrueClasses is an input as in
/// TensorFlow (the true expected counts are computed from the same draw), not read by it.
template <std::uint64_t Seed, std::size_t NumSampled, std::size_t RangeMax, bool Unique, class TrueClasses>
struct log_uniform_draw_node
    : writer_facade<std::int64_t, shape<std::ptrdiff_t(NumSampled + 1)>, node_kind::effect,
                    mp::mp_list<candidate_sampler_state_node<Seed>>, TrueClasses>,
      op_info<"LogUniformCandidateSampler"> {
  using output_type = storage_t<std::int64_t, shape<std::ptrdiff_t(NumSampled + 1)>>;
  using reads = mp::mp_list<>;  // an uninitialized counter counts as 0
  template <class... N>
  using rebind = log_uniform_draw_node<Seed, NumSampled, RangeMax, Unique, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Ctx>
  static void run(Ctx& ctx) {
    auto& slot = ctx.template slot_of<candidate_sampler_state_node<Seed>>();
    const std::int64_t count = slot.initialized ? slot.value : 0;
    slot.value = count + 1;
    slot.initialized = true;
    auto& out = ctx.template buffer<log_uniform_draw_node>();
    ops::detail::log_uniform_draw(out.data(), NumSampled, RangeMax, Unique, Seed, ctx.session.random_seed(),
                                  static_cast<std::uint64_t>(count));
  }
};

/// The sampled ids of a draw: its first num_sampled entries, int64 [num_sampled].
template <std::size_t NumSampled, class Draw>
struct sampled_candidates_node
    : node_facade<std::int64_t, shape<std::ptrdiff_t(NumSampled)>, node_kind::compute, Draw>,
      op_info<"LogUniformCandidateSampler"> {
  template <class... N>
  using rebind = sampled_candidates_node<NumSampled, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VD>
  static void compute(Out& out, const VD& draw) {
    std::copy_n(ops::detail::data_ptr(draw), NumSampled, out.data());
  }
};

/// The expected count, in the draw, of each id of Ids (the true classes, or the sampled
/// candidates), in element type T and Ids' shape.
template <class T, std::size_t NumSampled, std::size_t RangeMax, class Draw, class Ids>
struct expected_count_node : node_facade<T, shape_of<Ids>, node_kind::compute, Draw, Ids>,
                             op_info<"LogUniformCandidateSampler"> {
  template <class... N>
  using rebind = expected_count_node<T, NumSampled, RangeMax, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VD, class VI>
  static void compute(Out& out, const VD& draw, const VI& ids) {
    constexpr std::size_t rank = shape_of<Ids>::rank;
    const auto dims = ops::detail::dims_of<rank>(ids);
    ops::detail::resize_unless_static<shape_of<Ids>::is_static>(out, dims);
    const auto num_tries = ops::detail::data_ptr(draw)[NumSampled];
    const auto* id = ops::detail::data_ptr(ids);
    const std::size_t n = ops::detail::dims_product(dims, 0, rank);
    for (std::size_t i = 0; i < n; ++i)
      out.data()[i] = static_cast<T>(ops::detail::expected_count(
          ops::detail::log_uniform_probability(static_cast<std::int64_t>(id[i]), RangeMax),
          std::int64_t(NumSampled), num_tries));
  }
};

/// `auto [sampled, true_expected_count, sampled_expected_count] =
/// log_uniform_candidate_sampler<num_sampled, range_max, unique, seed>(true_classes)` is
/// tf.random.log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique,
/// range_max, seed): true_classes int32 or int64 [batch, num_true]; sampled int64
/// [num_sampled]; the expected counts in T (float unless chosen), [batch, num_true] and
/// [num_sampled]. A new draw on each run; see the header comment for the seeds.
template <std::size_t NumSampled, std::size_t RangeMax, bool Unique = true, std::uint64_t Seed = 0,
          element_type T = float, node L>
auto log_uniform_candidate_sampler(const L& true_classes) {
  using LT = value_type_of<L>;
  if constexpr (!std::is_same_v<LT, std::int32_t> && !std::is_same_v<LT, std::int64_t>) {
    static_assert(sampled_labels_must_be_int32_or_int64<LT>::value,
                  "typeflow::log_uniform_candidate_sampler(true_classes): true_classes must be int32 or int64");
    return ops::detail::inert_sample<T>();  // inert: the error above is the one to read
  } else if constexpr (shape_of<L>::rank != 2) {
    static_assert(sampled_labels_must_be_batch_by_num_true<shape_of<L>>::value,
                  "typeflow::log_uniform_candidate_sampler(true_classes): true_classes must be [batch, num_true]");
    return ops::detail::inert_sample<T>();
  } else if constexpr (Unique && NumSampled > RangeMax) {
    static_assert(unique_sampling_needs_num_sampled_at_most_range_max<NumSampled, RangeMax>::value,
                  "typeflow::log_uniform_candidate_sampler<num_sampled, range_max>: unique sampling needs "
                  "num_sampled <= range_max");
    return ops::detail::inert_sample<T>();
  } else {
    static_assert(NumSampled >= 1 && RangeMax >= 1, "log_uniform_candidate_sampler: num_sampled and range_max >= 1");
    auto draw = make_node<log_uniform_draw_node<Seed, NumSampled, RangeMax, Unique, L>>(true_classes);
    auto sampled = make_node<sampled_candidates_node<NumSampled, decltype(draw)>>(draw);
    using D = decltype(draw);
    return std::tuple{sampled, make_node<expected_count_node<T, NumSampled, RangeMax, D, L>>(draw, true_classes),
                      make_node<expected_count_node<T, NumSampled, RangeMax, D, decltype(sampled)>>(draw, sampled)};
  }
}

/// The dense form of tf.nn.compute_accidental_hits(true_classes, sampled_candidates) as
/// _compute_sampled_logits adds it to the sampled logits: [batch, num_sampled] of T, 0
/// except -FLT_MAX at [i, j] where sampled candidate j is one of row i's true classes (j the
/// last position of that id in the candidates, as TensorFlow's kernel keeps).
template <class T, class Labels, class Sampled>
struct accidental_hits_node
    : node_facade<T, shape<shape_of<Labels>::dims[0], shape_of<Sampled>::dims[0]>, node_kind::compute, Labels, Sampled>,
      op_info<"ComputeAccidentalHits"> {
  template <class... N>
  using rebind = accidental_hits_node<T, N...>;
  template <std::size_t K, class G>
  using gradient = no_gradient;

  template <class Out, class VL, class VS>
  static void compute(Out& out, const VL& labels, const VS& sampled) {
    const auto ld = ops::detail::dims_of<2>(labels);
    const std::size_t s = ops::detail::dims_of<1>(sampled)[0];
    ops::detail::resize_unless_static<shape_of<accidental_hits_node>::is_static>(out,
                                                                                 std::array<std::size_t, 2>{ld[0], s});
    std::fill(out.begin(), out.end(), T(0));
    const auto* l = ops::detail::data_ptr(labels);
    const auto* c = ops::detail::data_ptr(sampled);
    for (std::size_t i = 0; i < ld[0]; ++i)
      for (std::size_t t = 0; t < ld[1]; ++t)
        for (std::size_t j = s; j-- > 0;)
          if (static_cast<std::int64_t>(c[j]) == static_cast<std::int64_t>(l[i * ld[1] + t])) {
            out.data()[i * s + j] = -static_cast<T>(std::numeric_limits<float>::max());
            break;
          }
  }
};

}  // namespace typeflow
