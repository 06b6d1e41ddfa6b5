// typeflow/control/detail/loop_gradient.hpp — the reverse loop: the gradient of a loop's outputs or final state.
//
// A reverse loop runs the body's vector-Jacobian product (grad_body, loop_body.hpp) from the
// last step to the first over the states the forward loop stored, carrying the states'
// cotangent (JAX's lax.scan, TensorFlow's while-loop gradient). The forward loop stored the
// states before each step and the step's values that the gradient reads (saved_forward_t);
// a reverse step is fed both and computes only the gradient's own nodes. Its record is read
// by one `loop_grad_part` node per input of the loop. The body's gradient is not
// differentiated again: a loop has no second derivative.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <xtensor/xtensor.hpp>

#include "typeflow/control/detail/loop.hpp"
#include "typeflow/core/detail/independent_loop.hpp"

namespace typeflow::control::detail {

// --- the reverse loop -------------------------------------------------------------------

/// What the reverse loop leaves for the gradient nodes of L's inputs.
template <class T, std::size_t XRank, std::size_t GRank, class OStorage, class CapList, class StateList, class Saved>
struct loop_grad_record;
template <class T, std::size_t XRank, std::size_t GRank, class OStorage, class... C, class X, class... S, class Saved>
struct loop_grad_record<T, XRank, GRank, OStorage, mp::mp_list<C...>, mp::mp_list<X, S...>, Saved> {
  X x_t{};                  // one step of the sequence, fed
  std::tuple<S...> carry;   // the states' cotangent; after the run, that of the initial states
  std::tuple<S...> cot;     // what is fed as the new states' cotangent in a step
  std::tuple<S...> state;   // the state before the step, fed
  OStorage gy{};            // the step output's cotangent, fed
  buffer<T> gx;             // the sequence's gradient, [steps, ...]
  std::array<std::size_t, XRank> x_dims{};
  std::tuple<C...> gcap{};  // the captured variables' gradients
  xt::xtensor_container<std::vector<T>, GRank, xt::layout_type::row_major> g_scratch;
  Saved saved{};            // the forward values the reverse steps read, per step (saved_forward_t), when kept here
};

template <class L, std::ptrdiff_t Which, class G>
struct loop_grad : node_base, kind_tag<node_kind::effect>, op_info<"WhileGrad", false>, pure_effect {
  using body_type = typename L::body_type;
  using grad = grad_body<body_type, Which < 0>;
  using T = typename L::T;
  using value_type = none_t;  // its value is a record, read by loop_grad_part
  using shape_type = scalar;
  using loop = L;
  using inputs = mp::mp_if_c<L::has_lengths_v, mp::mp_list<L, typename L::sequence, typename L::lengths, G>,
                             mp::mp_list<L, typename L::sequence, G>>;
  using carried = carried_union_t<L>;
  [[no_unique_address]] definitions_t<carried> defs;
  using output_type =
      loop_grad_record<T, shape_of<typename L::sequence>::rank, shape_of<G>::rank,
                       buffer_of<typename body_type::output>, mp::mp_transform<buffer_of, typename body_type::captures>,
                       mp::mp_push_front<mp::mp_transform<buffer_of, typename body_type::states>, buffer_of<typename body_type::input>>,
                       saved_series_t<body_type>>;

  template <class Ctx>
  static void run(Ctx& ctx);
};

template <class L, std::ptrdiff_t Which, class G>
template <class Ctx>
void loop_grad<L, Which, G>::run(Ctx& ctx) {
  using Body = body_type;
  constexpr std::size_t K = mp::mp_size<typename Body::states>::value;
  constexpr std::size_t NC = mp::mp_size<typename Body::captures>::value;
  const auto& rec = ctx.template value<L>();
  auto& g = ctx.template buffer<loop_grad>();
  // The forward values of each step, which the forward loop kept (in this record, or in
  // that of the run's other reverse loop of L).
  const auto& kept = ctx.template buffer<keeper_t<typename Ctx::order, L>>().saved;
  decltype(auto) xs_value = ctx.template value<typename L::sequence>();
  // The sequence's elements: its own, or the copy the forward loop made of an expression.
  const T* xs = [&] {
    if constexpr (requires { xs_value.data(); }) {
      return xs_value.data();
    } else {
      return rec.xs_scratch.data();
    }
  }();
  decltype(auto) g_value = ctx.template value<G>();
  const T* gp = contiguous(g_value, g.g_scratch);
  const std::size_t steps = rec.steps;
  std::size_t x_size = 1;
  for (std::size_t i = 1; i < rec.x_dims.size(); ++i) x_size *= rec.x_dims[i];
  g.x_dims = rec.x_dims;
  const std::size_t batch = [&] {
    const auto& s0 = std::get<0>(rec.state);
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(s0)>>) {
      return std::size_t(1);
    } else {
      return s0.dimension() > 0 ? std::size_t(s0.shape()[0]) : std::size_t(1);
    }
  }();

  // The carried cotangent starts as the final states' (zero, or G for state Which).
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((assign_value(std::get<I>(g.carry), std::get<I>(rec.state)), assign_value(std::get<I>(g.cot), std::get<I>(rec.state)),
      assign_value(std::get<I>(g.state), std::get<I>(rec.state)),
      std::fill_n(mutable_data(std::get<I>(g.carry)), element_count(std::get<I>(g.carry)), T(0))),
     ...);
  }(std::make_index_sequence<K>{});
  if constexpr (Which >= 0) {
    auto& c = std::get<std::size_t(Which)>(g.carry);
    if (element_count(g_value) != element_count(c))
      throw internal_error(std::string(Body::scope.view()) + ": the final state's gradient has the wrong size");
    copy_elements<T>(mutable_data(c), gp, element_count(c));
  } else {
    if (element_count(g_value) != steps * rec.out_size)
      throw internal_error(std::string(Body::scope.view()) + ": the outputs' gradient has the wrong size");
    resize_to(g.gy, rec.out_dims);
  }
  // The captures' gradients start at zero, of the captured values' dims (a dynamic batch is
  // known only now).
  [&]<class... Cap, std::size_t... I>(mp::mp_list<Cap...>, std::index_sequence<I...>) {
    ((assign_value(std::get<I>(g.gcap), capture_value<Cap>(ctx, std::get<I>(rec.captured))),
      std::fill_n(mutable_data(std::get<I>(g.gcap)), element_count(std::get<I>(g.gcap)), T(0))),
     ...);
  }(typename Body::captures{}, std::make_index_sequence<NC>{});
  g.gx.resize(steps * x_size);

  using x_storage = buffer_of<typename Body::input>;
  x_storage& x_t = g.x_t;
  if constexpr (!std::is_arithmetic_v<x_storage>) {
    std::array<std::size_t, shape_of<typename L::sequence>::rank - 1> step_dims{};
    for (std::size_t i = 1; i < rec.x_dims.size(); ++i) step_dims[i - 1] = rec.x_dims[i];
    resize_to(x_t, step_dims);
  }

  for (std::size_t i = steps; i-- > 0;) {
    const std::size_t t = Body::element(i, steps);
    if constexpr (Body::is_while) {
      x_t = static_cast<T>(t);  // a while loop's step input: the step's index
    } else {
      copy_elements<T>(mutable_data(x_t), xs + t * x_size, x_size);
    }
    // The state before step t, and the cotangents of the step's results; an example past
    // its length took no part in the step: its cotangents are zero.
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((copy_elements<T>(mutable_data(std::get<I>(g.state)), rec.saved[I].get() + t * element_count(std::get<I>(g.state)),
                         element_count(std::get<I>(g.state))),
        copy_elements<T>(mutable_data(std::get<I>(g.cot)), mutable_data(std::get<I>(g.carry)), element_count(std::get<I>(g.cot)))),
       ...);
    }(std::make_index_sequence<K>{});
    if constexpr (Which < 0) copy_elements<T>(mutable_data(g.gy), gp + t * rec.out_size, rec.out_size);
    if (rec.masked) {
      for (std::size_t b = 0; b < batch; ++b) {
        if (!past_length(rec.lengths, true, b, t)) continue;
        [&]<std::size_t... I>(std::index_sequence<I...>) {
          ((std::fill_n(mutable_data(std::get<I>(g.cot)) + b * (element_count(std::get<I>(g.cot)) / batch),
                        element_count(std::get<I>(g.cot)) / batch, T(0))),
           ...);
        }(std::make_index_sequence<K>{});
        if constexpr (Which < 0) {
          const std::size_t orow = rec.out_size / batch;
          std::fill_n(mutable_data(g.gy) + b * orow, orow, T(0));
        }
      }
    }
    T* gx_t = g.gx.get() + t * x_size;
    auto on_values = [&](const auto&... v) {
      const auto vals = std::forward_as_tuple(v...);
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (
            [&] {
              auto& c = std::get<I>(g.carry);
              const std::size_t size = element_count(c);
              const T* d = ops::detail::data_ptr(std::get<I>(vals));
              T* cp = mutable_data(c);
              if (!rec.masked) {  // whole, as the forward loop's states (loop.hpp)
                copy_elements<T>(cp, d, size);
                return;
              }
              const std::size_t row = size / (batch == 0 ? 1 : batch);
              for (std::size_t b = 0; b < batch; ++b)
                if (!past_length(rec.lengths, rec.masked, b, t)) copy_elements<T>(cp + b * row, d + b * row, row);
            }(),
            ...);
      }(std::make_index_sequence<K>{});
      copy_elements<T>(gx_t, ops::detail::data_ptr(std::get<K>(vals)), x_size);
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        (
            [&] {
              // An integer or bool capture (an outer placeholder the body reads and casts)
              // has no gradient: its zeros stay as they are. A floating one's gradient has
              // its own type (a float variable read by a loop that runs in double).
              using V = value_type_of<mp::mp_at_c<typename Body::captures, C>>;
              if constexpr (floating_element<V>) {
                auto& acc = std::get<C>(g.gcap);
                const V* d = ops::detail::data_ptr(std::get<K + 1 + C>(vals));
                V* a = mutable_data(acc);
                // A static size vectorizes (independent_loop): the loop with a run-time count
                // stayed scalar at -O2, 5% of a GRU(128) training step (perf).
                using S = shape_of<mp::mp_at_c<typename Body::captures, C>>;
                if constexpr (S::is_static) {
                  core::detail::independent_loop<S::size>([&](std::size_t i) { a[i] += d[i]; });
                } else {
                  const std::size_t n = element_count(acc);
                  for (std::size_t i = 0; i < n; ++i) a[i] += d[i];
                }
              }
            }(),
            ...);
      }(std::make_index_sequence<NC>{});
    };
    [&]<class... SP, class... GS, std::size_t... I, class... Cap, std::size_t... I2, class... F, std::size_t... J>(
        mp::mp_list<SP...>, mp::mp_list<GS...>, std::index_sequence<I...>, mp::mp_list<Cap...>, std::index_sequence<I2...>,
        mp::mp_list<F...>, std::index_sequence<J...>) {
      if constexpr (Which < 0) {
        ctx.template run_subgraph<typename grad::fetches>(
            on_values, step_feed<SP, std::tuple_element_t<I, decltype(g.state)>>{std::get<I>(g.state)}...,
            step_feed<typename Body::input, x_storage>{x_t},
            step_feed<GS, std::tuple_element_t<I, decltype(g.cot)>>{std::get<I>(g.cot)}...,
            step_feed<typename grad::output_cotangent_type, decltype(g.gy)>{g.gy},
            capture_feed<Cap>(ctx, std::get<I2>(rec.captured))..., step_feed<F, buffer_of<F>>{std::get<J>(kept)[t]}...);
      } else {
        ctx.template run_subgraph<typename grad::fetches>(
            on_values, step_feed<SP, std::tuple_element_t<I, decltype(g.state)>>{std::get<I>(g.state)}...,
            step_feed<typename Body::input, x_storage>{x_t},
            step_feed<GS, std::tuple_element_t<I, decltype(g.cot)>>{std::get<I>(g.cot)}...,
            capture_feed<Cap>(ctx, std::get<I2>(rec.captured))..., step_feed<F, buffer_of<F>>{std::get<J>(kept)[t]}...);
      }
    }(typename Body::states{}, typename grad::state_cotangents{}, std::make_index_sequence<K>{},
      typename Body::captures{}, std::make_index_sequence<NC>{}, saved_forward_t<Body>{},
      std::make_index_sequence<mp::mp_size<saved_forward_t<Body>>::value>{});
  }
}

/// Where a loop input's gradient is in the reverse loop's record.
enum class loop_grad_place { state, sequence, capture };

/// The compute kernel of a loop_grad_part (session_detail::compute_kernel): what its step
/// reads of the loop, the place and index of the gradient in the record, named by them and
/// not by the loop, whose type spells its body's graph (5 MB of the names of the bucketed
/// seq2seq training program's 94 such steps).
template <class T, class S, loop_grad_place Place, std::size_t Index>
struct loop_grad_part_kernel : node_facade<T, S, node_kind::compute> {
  template <class Out, class Rec>
  static void compute(Out& out, const Rec& g) {
    if constexpr (Place == loop_grad_place::state) {
      assign_value(out, std::get<Index>(g.carry));
    } else if constexpr (Place == loop_grad_place::sequence) {
      resize_to(out, g.x_dims);
      std::size_t n = 1;
      for (std::size_t d : g.x_dims) n *= d;
      copy_elements(mutable_data(out), g.gx.get(), n);
    } else {
      assign_value(out, std::get<Index>(g.gcap));
    }
  }
};

/// The element type of the gradient of input I of loop L: the input's own when floating (a
/// capture of another floating type than the loop's), the loop's otherwise.
template <class L, std::size_t I, class V = value_type_of<mp::mp_at_c<inputs_of<L>, I>>>
using loop_grad_part_t = std::conditional_t<floating_element<V>, V, typename L::T>;

/// The gradient of input I of the loop, read from the reverse loop's record.
template <class LG, std::size_t I>
struct loop_grad_part
    : node_facade<loop_grad_part_t<typename LG::loop, I>, shape_of<mp::mp_at_c<inputs_of<typename LG::loop>, I>>,
                  node_kind::compute, LG>,
      op_info<"WhileGradOutput", false> {
  using L = typename LG::loop;
  template <class... N>
  using rebind = loop_grad_part;
  using compute_kernel =
      loop_grad_part_kernel<loop_grad_part_t<L, I>, shape_of<mp::mp_at_c<inputs_of<L>, I>>,
                            I < L::layout::states      ? loop_grad_place::state
                            : I == L::layout::sequence ? loop_grad_place::sequence
                                                       : loop_grad_place::capture,
                            I < L::layout::states ? I : I == L::layout::sequence ? 0 : I - L::layout::first_capture>;
};

}  // namespace typeflow::control::detail
