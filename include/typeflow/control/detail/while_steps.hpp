// typeflow/control/detail/while_steps.hpp — the forward run of a while loop.
//
// A while loop (while_loop.hpp) is a loop node (loop.hpp) whose body has a condition: before
// each step the loop runs the condition's graph on the states, and stops when it is false or
// when the steps reach the maximum (the loop's sequence, a scalar). The step input is the
// step's index. In a run that computes its gradient it keeps what a sequence loop keeps (the
// states before each step, the values its reverse loop reads), growing with the steps, so
// that the reverse loop (loop_gradient.hpp) runs over the steps taken as over a sequence's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "typeflow/control/detail/loop.hpp"

namespace typeflow::control::detail {

template <class L, class Ctx>
void run_while(Ctx& ctx) {
  using Body = typename L::body_type;
  using T = typename L::T;
  using Caps = typename Body::captures;
  constexpr std::size_t K = mp::mp_size<typename Body::states>::value;
  constexpr std::size_t NC = mp::mp_size<Caps>::value;
  using Init = mp::mp_take_c<inputs_of<L>, K>;
  auto& rec = ctx.template buffer<L>();

  // The maximum number of steps: none below 0.
  const auto maximum = static_cast<std::int64_t>(ctx.template value<typename L::sequence>());
  const std::size_t limit = maximum <= 0 ? 0 : static_cast<std::size_t>(maximum);

  load_loop_inputs<L>(ctx, rec);
  rec.masked = false;

  using LG = keeper_t<typename Ctx::order, L>;
  using x_storage = buffer_of<typename Body::input>;

  std::size_t step = 0;
  for (;; ++step) {
    // The condition, on the states before the step.
    bool go = step < limit;
    [&]<class... SP, std::size_t... I, class... Cp, std::size_t... C>(mp::mp_list<SP...>, std::index_sequence<I...>,
                                                                     mp::mp_list<Cp...>, std::index_sequence<C...>) {
      if (go)
        ctx.template run_subgraph<mp::mp_list<typename Body::cond>>(
            [&](const auto& c) { go = static_cast<bool>(c); },
            step_feed<SP, std::tuple_element_t<I, decltype(rec.state)>>{std::get<I>(rec.state)}...,
            capture_feed<Cp>(ctx, std::get<C>(rec.captured))...);
    }(typename Body::states{}, std::make_index_sequence<K>{}, Caps{}, std::make_index_sequence<NC>{});
    if (!go) break;

    // The state before the step and the step's values that the gradient reads, kept only
    // in a run that runs a reverse loop of this one: a loop of many steps without one
    // keeps nothing per step. The storage keeps its capacity across runs, and grows by
    // doubling within one.
    if constexpr (!std::is_void_v<LG>) {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (
            [&] {
              auto& saved = rec.saved[I];
              const std::size_t size = element_count(std::get<I>(rec.state));
              if (saved.data.size() < (step + 1) * size)
                saved.data.resize(std::max((step + 1) * size, 2 * saved.data.size()));
              saved.size = (step + 1) * size;
              copy_elements<T>(saved.get() + step * size, mutable_data(std::get<I>(rec.state)), size);
            }(),
            ...);
      }(std::make_index_sequence<K>{});
      std::apply(
          [&](auto&... series) {
            ((series.size() <= step ? series.resize(std::max(step + 1, 2 * series.size())) : void()), ...);
          },
          ctx.template buffer<LG>().saved);
    }

    x_storage x_t = static_cast<T>(step);
    run_body_step<L>(ctx, rec, x_t, step, [](const auto&) {});  // the output, the step's index, is not kept
    for_each_state(std::make_index_sequence<K>{}, rec, [&](auto k, auto& s, auto& n) {
      check_new_state_size<shape_of<mp::mp_at_c<Init, k>>::rank>(Body::scope.view(), k, s, n);
      copy_elements<T>(mutable_data(s), mutable_data(n), element_count(s));
    });
  }
  rec.steps = step;
}

}  // namespace typeflow::control::detail
