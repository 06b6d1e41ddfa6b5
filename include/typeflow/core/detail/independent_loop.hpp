// typeflow/core/detail/independent_loop.hpp — a loop over N independent elements that
// g++ vectorizes at -O2 (the optimizers' updates, the fused gradient buffer of sync_replicas).
#pragma once

#include <cstddef>

namespace typeflow::core::detail {

/// body(i) for every i in [0, N), where no iteration reads what another writes (the caller's
/// promise: an update of a variable from its gradient, element by element).
///
/// g++ 12 at -O2 vectorizes a loop only under its "very cheap" cost model: no run-time alias
/// check and no scalar remainder. A __restrict pointer declared in an inlined function does
/// not spare the check (the updates' loops stayed scalar: 100,000 scalar divisions a step for
/// the averaged gradient of a 784-128-10 MLP), so the loops say `ivdep`, and the iterations
/// are split into loops of constant trip counts: the first N - N % 16 (a multiple of every
/// vector length), then multiples of 8 and of 4 (a row of 10 floats is 8 in vectors, 2
/// alone), then the rest. Each element's arithmetic is the scalar loop's: the results are the
/// same bit for bit.
template <std::size_t N, class Body>
inline void independent_loop(Body&& body) {
  constexpr std::size_t by16 = N - N % 16, by8 = N - N % 8, by4 = N - N % 4;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (std::size_t i = 0; i < by16; ++i) body(i);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (std::size_t i = by16; i < by8; ++i) body(i);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (std::size_t i = by8; i < by4; ++i) body(i);
  for (std::size_t i = by4; i < N; ++i) body(i);
}

}  // namespace typeflow::core::detail
