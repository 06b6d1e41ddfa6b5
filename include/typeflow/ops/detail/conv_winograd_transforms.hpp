// typeflow/ops/detail/conv_winograd_transforms.hpp — the 1-D transforms of Winograd's
// F(4x4, 3x3) form (conv_winograd.hpp), each over rows of contiguous values (channels):
// B^T and A^T of the forward pass, A of the filter's gradient, G and G^T of the filter's
// transform and of its gradient.
#pragma once

#include <cstddef>
#include <utility>

namespace typeflow::ops::detail {

// --- the 1-D transforms, each over n contiguous values (channels) -------------------------
// Each transform is a struct whose `run<N>` takes N values of each row through restrict
// pointers (the callers' rows never overlap; inputs that may be one row of zeros are only
// read); winograd_rows calls it over blocks of 8, a loop of fixed length that g++ -O2
// vectorizes (its cheap cost model leaves loops of unknown length, and loops through
// pointers that may overlap, scalar), then over the rest one at a time.

template <class Op, std::size_t N, class T, std::size_t I, std::size_t O, std::size_t... K, std::size_t... L>
[[gnu::always_inline]] inline void winograd_call(const T* const (&in)[I], T* const (&out)[O], std::size_t at,
                                                 std::index_sequence<K...>, std::index_sequence<L...>) {
  Op::template run<N, T>((in[K] + at)..., (out[L] + at)...);
}

/// Op over n contiguous values of each of I rows in, into O rows out:
/// `winograd_rows<winograd_bt_op, T>({d0, ..., d5}, {o0, ..., o5}, n)`.
template <class Op, class T, std::size_t I, std::size_t O>
void winograd_rows(const T* const (&in)[I], T* const (&out)[O], std::size_t n) {
  constexpr std::size_t block = 8;
  std::size_t i = 0;
  for (; i + block <= n; i += block)
    winograd_call<Op, block>(in, out, i, std::make_index_sequence<I>{}, std::make_index_sequence<O>{});
  for (; i < n; ++i) winograd_call<Op, 1>(in, out, i, std::make_index_sequence<I>{}, std::make_index_sequence<O>{});
}

/// out = B^T d, 6 from 6. B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0;
/// 0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1].
struct winograd_bt_op {
  template <std::size_t N, class T>
  [[gnu::always_inline]] static void run(const T* __restrict d0, const T* __restrict d1, const T* __restrict d2,
                                         const T* __restrict d3, const T* __restrict d4, const T* __restrict d5,
                                         T* __restrict o0, T* __restrict o1, T* __restrict o2, T* __restrict o3,
                                         T* __restrict o4, T* __restrict o5) {
    for (std::size_t i = 0; i < N; ++i) {
      o0[i] = 4 * d0[i] - 5 * d2[i] + d4[i];
      o1[i] = -4 * (d1[i] + d2[i]) + d3[i] + d4[i];
      o2[i] = 4 * (d1[i] - d2[i]) - d3[i] + d4[i];
      o3[i] = 2 * (d3[i] - d1[i]) - d2[i] + d4[i];
      o4[i] = 2 * (d1[i] - d3[i]) - d2[i] + d4[i];
      o5[i] = 4 * d1[i] - 5 * d3[i] + d5[i];
    }
  }
};

/// out = A^T m, 4 from 6. A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
struct winograd_at_op {
  template <std::size_t N, class T>
  [[gnu::always_inline]] static void run(const T* __restrict m0, const T* __restrict m1, const T* __restrict m2,
                                         const T* __restrict m3, const T* __restrict m4, const T* __restrict m5,
                                         T* __restrict o0, T* __restrict o1, T* __restrict o2, T* __restrict o3) {
    for (std::size_t i = 0; i < N; ++i) {
      const T p12 = m1[i] + m2[i], n12 = m1[i] - m2[i], p34 = m3[i] + m4[i], n34 = m3[i] - m4[i];
      o0[i] = m0[i] + p12 + p34;
      o1[i] = n12 + 2 * n34;
      o2[i] = p12 + 4 * p34;
      o3[i] = n12 + 8 * n34 + m5[i];
    }
  }
};

/// out = A y, 6 from 4 (A^T's transpose): the output gradient's side of the filter's.
struct winograd_a_op {
  template <std::size_t N, class T>
  [[gnu::always_inline]] static void run(const T* __restrict y0, const T* __restrict y1, const T* __restrict y2,
                                         const T* __restrict y3, T* __restrict o0, T* __restrict o1,
                                         T* __restrict o2, T* __restrict o3, T* __restrict o4, T* __restrict o5) {
    for (std::size_t i = 0; i < N; ++i) {
      const T p02 = y0[i] + y2[i], p13 = y1[i] + y3[i], f02 = y0[i] + 4 * y2[i], f13 = 2 * y1[i] + 8 * y3[i];
      o0[i] = y0[i];
      o1[i] = p02 + p13;
      o2[i] = p02 - p13;
      o3[i] = f02 + f13;
      o4[i] = f02 - f13;
      o5[i] = y3[i];
    }
  }
};

/// out = G g, 6 from 3. G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6;
/// 1/24 -1/12 1/6; 0 0 1].
struct winograd_g_op {
  template <std::size_t N, class T>
  [[gnu::always_inline]] static void run(const T* __restrict g0, const T* __restrict g1, const T* __restrict g2,
                                         T* __restrict o0, T* __restrict o1, T* __restrict o2, T* __restrict o3,
                                         T* __restrict o4, T* __restrict o5) {
    for (std::size_t i = 0; i < N; ++i) {
      const T s = g0[i] + g2[i], q = g0[i] / 24 + g2[i] / 6;
      o0[i] = g0[i] / 4;
      o1[i] = -(s + g1[i]) / 6;
      o2[i] = -(s - g1[i]) / 6;
      o3[i] = q + g1[i] / 12;
      o4[i] = q - g1[i] / 12;
      o5[i] = g2[i];
    }
  }
};

/// out = G^T d, 3 from 6: the filter's gradient from its transform's.
struct winograd_gt_op {
  template <std::size_t N, class T>
  [[gnu::always_inline]] static void run(const T* __restrict d0, const T* __restrict d1, const T* __restrict d2,
                                         const T* __restrict d3, const T* __restrict d4, const T* __restrict d5,
                                         T* __restrict o0, T* __restrict o1, T* __restrict o2) {
    for (std::size_t i = 0; i < N; ++i) {
      o0[i] = d0[i] / 4 - (d1[i] + d2[i]) / 6 + (d3[i] + d4[i]) / 24;
      o1[i] = (d2[i] - d1[i]) / 6 + (d3[i] - d4[i]) / 12;
      o2[i] = (d3[i] + d4[i] - d1[i] - d2[i]) / 6 + d5[i];
    }
  }
};

}  // namespace typeflow::ops::detail
