// The functions a run instantiates are named by short types (docs/ARCHITECTURE.md, "Compile
// time in large graphs"): a compute step calls its node's kernel, the node rebuilt on
// operands that keep only element types and shapes, so nodes of one op and equal shapes
// share one kernel; variables and the session's named constants are read by position.
// Checked on the plan's types, and on the values the rebuilt kernels and positions give.
#include <doctest/doctest.h>

#include <cmath>
#include <type_traits>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace mp = boost::mp11;
namespace sd = typeflow::session_detail;

namespace {
template <class Fetch, class Session>
using plan_of = typename tf::run_context<Session, mp::mp_list<Fetch>, mp::mp_list<>, std::tuple<>>::plan;
}  // namespace

TEST_CASE("a compute step calls a kernel named by its op and shapes, shared by equal products") {
  auto a = tf::variable<"sn_a", float, tf::shape<2, 3>>(tf::init::constant(1.));
  auto b = tf::variable<"sn_b", float, tf::shape<3, 4>>(tf::init::constant(2.));
  auto c = tf::variable<"sn_c", float, tf::shape<2, 3>>(tf::init::constant(0.5));
  auto p = tf::matmul(a, b);
  auto q = tf::matmul(tf::exp(c) * c, b);  // other operands, the same shapes
  auto sum = p + q;

  using kernel = tf::matmul_node<sd::kernel_operand<float, tf::shape<2, 3>>,
                                 sd::kernel_operand<float, tf::shape<3, 4>>, false, false>;
  static_assert(std::is_same_v<sd::compute_kernel_t<decltype(p)>, kernel>);
  static_assert(std::is_same_v<sd::compute_kernel_t<decltype(q)>, kernel>);  // one kernel for both
  static_assert(std::is_same_v<tf::shape_of<kernel>, tf::shape_of<decltype(p)>>);

  tf::session sess(sum);
  using plan = plan_of<decltype(sum), decltype(sess)>;
  // The step names the kernel and where its operands are: variables by their position
  // in the session's list (a, b, c in graph order), not the nodes.
  static_assert(std::is_same_v<plan::source<decltype(a)>, sd::var_src<decltype(a), 0>>);
  static_assert(std::is_same_v<plan::source<decltype(b)>, sd::var_src<decltype(b), 1>>);
  static_assert(std::is_same_v<plan::source<decltype(c)>, sd::var_src<decltype(c), 2>>);
  static_assert(std::is_same_v<plan::step<decltype(p)>,
                               sd::compute_step<kernel, plan::location<decltype(p)>, sd::var_src<decltype(a), 0>,
                                                sd::var_src<decltype(b), 1>>>);

  sess.initialize_all();
  const auto v = sess.run(sum);
  const float qv = 3 * (std::exp(0.5f) * 0.5f) * 2;  // a row of exp(c) * c times a column of b
  for (float e : v) CHECK(e == doctest::Approx(6.0f + qv));
}

TEST_CASE("a run reads the session's named constants by position, literals and the fetch's own constants by type") {
  auto x = tf::placeholder<"sn_x", float, tf::shape<3>>();
  auto w = tf::variable<"sn_w", float, tf::shape<3>>(tf::init::constant(2.));
  auto k1 = tf::constant<"sn_k1">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
  auto k2 = tf::constant<"sn_k2">(xt::xtensor_fixed<float, xt::xshape<3>>{10, 20, 30});
  auto two = tf::constant<2.0f>();
  auto y = (x * w + k1) * two;
  tf::session sess(y);
  sess.initialize_all();

  using plan = plan_of<decltype(y), decltype(sess)>;
  static_assert(std::is_same_v<plan::source<decltype(w)>, sd::var_src<decltype(w), 0>>);
  using defined = decltype(sess)::defined_nodes;  // what the session holds definitions of
  static_assert(std::is_same_v<plan::source<decltype(k1)>,
                               sd::def_src<decltype(k1), mp::mp_find<defined, decltype(k1)>::value>>);
  static_assert(mp::mp_find<defined, decltype(k1)>::value < mp::mp_size<defined>::value);
  static_assert(std::is_same_v<plan::source<decltype(two)>, sd::leaf_src<decltype(two)>>);

  const xt::xtensor_fixed<float, xt::xshape<3>> xv{1, -1, 0.5};
  CHECK(sess.run(y, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<3>>{6, 0, 8});

  // k2 is not in the session's graph: the fetch carries its values, read by type.
  auto z = y + k2;
  using zplan = plan_of<decltype(z), decltype(sess)>;
  static_assert(std::is_same_v<zplan::source<decltype(k2)>, sd::leaf_src<decltype(k2)>>);
  CHECK(sess.run(z, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<3>>{16, 20, 38});

  // A restored or reassigned variable is read through the same position.
  sess.slot<decltype(w)>().value = xt::xtensor_fixed<float, xt::xshape<3>>{1, 1, 1};
  CHECK(sess.run(y, tf::feed(x, xv)) == xt::xtensor_fixed<float, xt::xshape<3>>{4, 2, 7});
}
