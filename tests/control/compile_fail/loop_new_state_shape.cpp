// A loop's body whose new state has another shape than its state: compile error naming the
// loop, the state's index and both shapes.
#include <typeflow/control/scan.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto elems = tf::placeholder<"elems", float, tf::shape<tf::dyn, 3>>();
  auto init = tf::placeholder<"init", float, tf::shape<3>>();
  auto r = tf::control::dynamic_loop<"growing">(
      [](const auto& states, const auto& x) {
        auto wider = tf::concat<0>(std::get<0>(states), x);  // [6], not [3]
        return std::pair{x, std::tuple{wider}};
      },
      elems, std::tuple{init});
  tf::session s(r.outputs);
  return 0;
}
