// The functions a run instantiates are named by short types (docs/ARCHITECTURE.md, "Compile
// time in large graphs"): a compute step calls its node's kernel, the node rebuilt on
// operands that keep only element types and shapes, so nodes of one op and equal shapes
// share one kernel. Checked on the plan's types, and on the values the kernels compute.
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
  // The step names the kernel and where its operands are (here two variables: their
  // positions in the session and their values' types), not the node, nor the variables' names.
  using vars = decltype(sess)::variables;
  using a_src = sd::var_src<mp::mp_find<vars, decltype(a)>::value, tf::storage_t<float, tf::shape<2, 3>>>;
  using b_src = sd::var_src<mp::mp_find<vars, decltype(b)>::value, tf::storage_t<float, tf::shape<3, 4>>>;
  static_assert(!std::is_same_v<a_src, b_src>);
  static_assert(
      std::is_same_v<plan::step<decltype(p)>, sd::compute_step<kernel, plan::location<decltype(p)>, a_src, b_src>>);
  // The second product's step calls the same kernel, with its own operands' sources.
  static_assert(std::is_same_v<mp::mp_front<mp::mp_rename<plan::step<decltype(q)>, mp::mp_list>>, kernel>);

  sess.initialize_all();
  const auto v = sess.run(sum);
  const float qv = 3 * (std::exp(0.5f) * 0.5f) * 2;  // a row of exp(c) * c times a column of b
  for (float e : v) CHECK(e == doctest::Approx(6.0f + qv));
}

TEST_CASE("a run's environment knows the feeds, variables and constants by address, not by type") {
  auto x = tf::placeholder<"sn_x", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"sn_w", float, tf::shape<3>>(tf::init::constant(2.));
  auto k = tf::constant<"sn_k">(xt::xtensor_fixed<float, xt::xshape<3>>{1, 2, 3});
  auto y = x * w + k;
  tf::session sess(y);
  using feed = decltype(tf::feed(x, std::declval<const xt::xtensor<float, 2>&>()));
  using ctx = tf::run_context<decltype(sess), mp::mp_list<decltype(y)>, mp::mp_list<decltype(x)>,
                              std::tuple<const feed&>>;
  // The environment's type, which names every function of a run, names the buffers alone.
  static_assert(std::is_same_v<ctx::env_type, sd::run_env<ctx::buffers_type, tf::definitions<>>>);
  // Each source says where its value is and of what type.
  static_assert(std::is_same_v<ctx::plan::source<decltype(x)>, sd::feed_src<0, const xt::xtensor<float, 2>>>);
  static_assert(std::is_same_v<ctx::plan::source<decltype(w)>, sd::var_src<0, tf::storage_t<float, tf::shape<3>>>>);
  using defined = tf::definitions_t<decltype(sess)::defined_nodes>::keys;  // k, and w's initial value
  static_assert(std::is_same_v<ctx::plan::source<decltype(k)>,
                               sd::def_src<mp::mp_find<defined, decltype(k)>::value, decltype(k)::definition_type>>);

  sess.initialize_all();
  const xt::xtensor<float, 2> xv = {{1, 2, 3}, {-1, 0, 1}};
  const auto v = sess.run(y, tf::feed(x, xv));
  CHECK(v == xt::xtensor<float, 2>{{3, 6, 9}, {-1, 2, 5}});
}
