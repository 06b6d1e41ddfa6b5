// typeflow/core/gradient_rule.hpp — the vocabulary of gradient rules, part of the node
// protocol: ops (which declare their rules) and autodiff (which derives gradients from them)
// both speak it.
//
// Every differentiable node declares, next to its forward rule,
//   static constexpr bool differentiable = true;
//   template <std::size_t K, class G> using gradient = ...;
// the node that gives the gradient of the output with respect to its K-th input when G
// is the gradient with respect to its output, or `no_gradient` when none flows there
// (a comparison, stop_gradient, an input that only gives a shape). Rules are ordinary
// graph expressions, so gradient nodes reuse forward values and are differentiable again
// when their own ops are.
#pragma once

#include <cstddef>

#include "typeflow/core/node.hpp"

namespace typeflow {

/// "No gradient flows here": the rule's way to say TensorFlow's None.
struct no_gradient {};

template <class G>
inline constexpr bool is_no_gradient = std::is_same_v<G, no_gradient>;

/// The gradient of N's output with respect to its K-th input, given G for its output.
template <class N, std::size_t K, class G>
using input_gradient = typename N::template gradient<K, G>;

/// The op name as a fixed_string, so a diagnostic can show it.
template <class N>
struct op_name_as_fixed {
  static constexpr std::string_view sv = op_name_of<N>();
  static constexpr auto value = [] {
    fixed_string<sv.size() + 1> s{};
    for (std::size_t i = 0; i < sv.size(); ++i) s.data[i] = sv[i];
    return s;
  }();
};

}  // namespace typeflow
