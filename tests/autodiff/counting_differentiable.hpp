// tests/autodiff/counting_differentiable.hpp — tests/support/counting.hpp's counting op, with
// a gradient rule (the identity's), so that it can sit where gradients flow: it proves
// how often a run evaluates forward nodes that the gradient graph reuses.
#pragma once

#include <cstddef>
#include <string_view>

#include <typeflow/typeflow.hpp>

namespace typeflow_test {

template <int Id>
inline int differentiable_evaluations = 0;

template <class A, int Id>
struct differentiable_counting_node
    : typeflow::node_facade<typeflow::value_type_of<A>, typeflow::shape_of<A>, typeflow::node_kind::compute, A> {
  static constexpr std::string_view op_name = "DifferentiableCounting";
  template <class N>
  using rebind = differentiable_counting_node<N, Id>;

  static constexpr bool differentiable = true;
  template <std::size_t K, class G>
  using gradient = G;

  template <class Out, class V>
  static void compute(Out& out, const V& v) {
    ++differentiable_evaluations<Id>;
    out = v;
  }
};

/// The identity with the identity's gradient, counting each evaluation in
/// differentiable_evaluations<Id>.
template <int Id, typeflow::node A>
constexpr differentiable_counting_node<A, Id> counted_differentiable(const A& a) {
  return typeflow::make_node<differentiable_counting_node<A, Id>>(a);  // carries what a carries
}

}  // namespace typeflow_test
