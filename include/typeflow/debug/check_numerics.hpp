// typeflow/debug/check_numerics.hpp — tf.debugging.check_numerics.
#pragma once

#include <cmath>
#include <string>
#include <type_traits>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/gradient_rule.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/math.hpp"

namespace typeflow {

template <fixed_string Message, class X>
struct check_numerics_node : node_facade<value_type_of<X>, shape_of<X>, node_kind::effect, X>,
                             op_info<"CheckNumerics"> {
  using forwards = X;
  static constexpr bool changes_state = false;  // it fails a run, it writes nothing
  // An identity for gradients.
  template <std::size_t K, class G>
  using gradient = mp::mp_if_c<K == 0, G, no_gradient>;
  template <class... N>
  using rebind = check_numerics_node<Message, N...>;

  template <class Ctx>
  static void run(Ctx& ctx) {
    const auto& v = ctx.template value<X>();
    bool nan = false, inf = false;
    auto look = [&](auto x) {
      nan = nan || std::isnan(x);
      inf = inf || std::isinf(x);
    };
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(v)>>) {
      look(v);
    } else {
      for (auto x : v) look(x);
    }
    if (nan || inf) {
      std::string what = std::string(Message.view()) + " : Tensor had " +
                         (nan && inf ? "NaN and Inf" : nan ? "NaN" : "Inf") + " values";
      if constexpr (named_node<X>) what += " (node '" + std::string(X::name.view()) + "')";
      throw invalid_argument_error(what);
    }
  }
};

/// `check_numerics<"message">(x)`: x's value; a run through it fails with
/// invalid_argument_error "message : Tensor had NaN values" when x holds a NaN or Inf.
template <fixed_string Message, node X>
constexpr check_numerics_node<Message, X> check_numerics(const X& x) {
  static_assert(op_needs_a_floating_point_operand<value_type_of<X>>::value,
                "typeflow::check_numerics<\"message\">(x) needs a float or double x");
  return make_node<check_numerics_node<Message, X>>(x);
}

}  // namespace typeflow
