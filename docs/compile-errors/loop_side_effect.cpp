#include <typeflow/control/scan.hpp>
#include <typeflow/typeflow.hpp>
namespace tf = typeflow;

int main() {
  auto elems = tf::placeholder<"elems", float, tf::shape<tf::dyn>>();
  auto calls = tf::variable<"calls", float>(tf::init::zeros());
  // error: a body is built once and run per step; it may not assign
  auto ys = tf::scan<"counting">([&](auto a, auto x) { return a + tf::assign_add(calls, x); }, elems,
                                 tf::constant<0.0f>());
  (void)ys;
}
