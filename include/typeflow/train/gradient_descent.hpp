// typeflow/train/gradient_descent.hpp — tf.train.GradientDescentOptimizer.
#pragma once

#include "typeflow/train/optimizer.hpp"

namespace typeflow::train {

/// var -= learning_rate * gradient.
template <fixed_string Name>
struct gradient_descent_def : no_step_state {
  static constexpr auto name = Name;
  static constexpr std::string_view kind_name = "gradient_descent";
  static constexpr std::string_view op_name = "GradientDescent";
  struct hyper {
    double learning_rate = 0.01;
    friend bool operator==(const hyper&, const hyper&) = default;
  };
  template <class V>
  using slots = mp::mp_list<>;
  template <class V>
  static void define_slots() {}

  template <class V, class Ctx, class G>
  static void apply(Ctx& ctx, const hyper& h, int, const G& g) {
    using T = value_type_of<V>;
    auto* v = detail::data_of(ctx.template slot_of<V>().value);
    const auto* gp = detail::data_of(g);
    const T lr = static_cast<T>(h.learning_rate);
    for (std::size_t i = 0; i < shape_of<V>::size; ++i) v[i] -= lr * gp[i];
  }
};

template <fixed_string Name = "GradientDescent">
using gradient_descent_optimizer = optimizer<gradient_descent_def<Name>>;

/// `gradient_descent(0.1).minimize(loss)`; `gradient_descent<"SGD2">(0.5)` names another one.
template <fixed_string Name = "GradientDescent">
gradient_descent_optimizer<Name> gradient_descent(double learning_rate) {
  return gradient_descent_optimizer<Name>({learning_rate});
}

}  // namespace typeflow::train
