// typeflow/core/none.hpp — none_t, the value of nodes that have none. Includes nothing.
#pragma once

namespace typeflow {

/// The value of nodes that have none, such as group (TensorFlow's None). Unused, it draws
/// no warning: `auto done = sess.run(train_op);` needs no `(void)`.
struct [[gnu::unused]] none_t {
  friend constexpr bool operator==(none_t, none_t) { return true; }
};

}  // namespace typeflow
