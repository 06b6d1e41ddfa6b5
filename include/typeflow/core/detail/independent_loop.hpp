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
/// the averaged gradient of a 784-128-10 MLP), so the loop says `ivdep`, and its first
/// N - N % 16 iterations, a multiple of every vector length, are one loop and the rest another.
/// Each element's arithmetic is the scalar loop's: the results are the same bit for bit.
template <std::size_t N, class Body>
inline void independent_loop(Body&& body) {
  constexpr std::size_t whole = N - N % 16;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (std::size_t i = 0; i < whole; ++i) body(i);
  for (std::size_t i = whole; i < N; ++i) body(i);
}

}  // namespace typeflow::core::detail
