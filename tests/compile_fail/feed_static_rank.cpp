// Compile-fail: an xt::xtensor<float, 1> fed to the scalar placeholder 'lr'. The value's
// type fixes its rank (1), which the placeholder's shape [] does not have; the diagnostic
// names the placeholder: cannot_feed_a_value_of_static_shape_to<..."lr"...,
// any_shape_of_rank<1>, shape<>>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto lr = tf::placeholder<"lr", float>();
  auto y = lr * tf::constant<2>();
  tf::session sess(y);
  const xt::xtensor<float, 1> rates = {0.1f, 0.2f, 0.3f};
  return static_cast<int>(sess.run(y, tf::feed(lr, rates)));  // the mistake: a vector for a scalar
}
