// tests/support/counting.hpp — a compute op that counts its evaluations, for tests that
// prove which nodes a run evaluates and how often.
#pragma once

#include <string_view>

#include <typeflow/typeflow.hpp>

namespace typeflow_test {

template <int Id>
inline int evaluations = 0;

template <class A, int Id>
struct counting_node
    : typeflow::node_facade<typeflow::value_type_of<A>, typeflow::shape_of<A>, typeflow::node_kind::compute, A> {
  static constexpr std::string_view op_name = "Counting";
  template <class N>
  using rebind = counting_node<N, Id>;

  template <class Out, class V>
  static void compute(Out& out, const V& v) {
    ++evaluations<Id>;
    out = v;
  }
};

/// The identity, counting each evaluation in evaluations<Id>.
template <int Id, typeflow::node A>
constexpr counting_node<A, Id> counted(const A& a) {
  return typeflow::make_node<counting_node<A, Id>>(a);  // carries what a carries
}

}  // namespace typeflow_test
