// A loop constant of another element type than the loop's values: compile error naming the
// loop, the constant's index and both types.
#include <typeflow/control/scan.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto elems = tf::placeholder<"elems", double, tf::shape<tf::dyn, 3>>();
  auto init = tf::placeholder<"init", double, tf::shape<3>>();
  auto scale = tf::placeholder<"scale", double, tf::shape<3>>();
  auto shift = tf::placeholder<"shift", float, tf::shape<3>>();
  auto r = tf::control::dynamic_loop<"mixed">(
      [](const auto& states, const auto& x, const auto& consts) {
        auto next = std::get<0>(states) * std::get<0>(consts) + x;
        return std::pair{next, std::tuple{next}};
      },
      elems, std::tuple{init}, tf::control::constants{scale, shift});
  tf::session s(r.outputs);
  return 0;
}
