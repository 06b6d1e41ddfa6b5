// The encoder of embedding_rnn_seq2seq and embedding_attention_seq2seq
// (rnn/embedding_seq2seq.hpp) runs as one loop in the graph: rnn::dynamic_rnn over the ids
// stacked [time, batch] and looked up once. TensorFlow (legacy_seq2seq) builds it with
// static_rnn over an EmbeddingWrapper, one step per input. Both are built here in one graph
// over the same variables (same names: "enc/rnn/embedding_wrapper/embedding",
// ".../multi_rnn_cell/cell_<k>/gru_cell/..."), in double precision, two GRU(3) layers over 3
// steps with a batch of 2 and a repeated id, and must agree at 1e-12: the outputs, the final
// state, and the gradients of a loss over both with respect to every variable (the table's
// sparse one summed over the steps, the cells' summed over the loop's steps).
// typeflow local to this unit (<typeflow/tu_local.hpp>): this test's unrolled graphs compile
// in a sixth to a third less time; built without the tests' precompiled header (CMakeLists.txt).
#include <typeflow/tu_local.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <tuple>

#include <boost/mp11/list.hpp>

#include <typeflow/rnn/embedding_seq2seq.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
using ids_t = xt::xtensor_fixed<std::int32_t, xt::xshape<2>>;
auto e0 = tf::constant<"e0">(ids_t{1, 3});
auto e1 = tf::constant<"e1">(ids_t{4, 1});
auto e2 = tf::constant<"e2">(ids_t{0, 1});
using cell = rnn::multi_rnn_cell<rnn::gru_cell<3>, rnn::gru_cell<3>>;

template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  REQUIRE(a.size() == b.size());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(double(a.flat(i)) - double(b.flat(i))));
  return m;
}
}  // namespace

TEST_CASE("embedding seq2seq encoder: the loop equals TensorFlow's static_rnn of an embedding_wrapper") {
  const auto ids = std::tuple{e0, e1, e2};
  auto [loop_outputs, loop_state] = rnn::detail::embedding_encoder<"enc/rnn", 5, 4, double>(cell{}, ids);
  auto [static_outputs, static_state] =
      rnn::static_rnn<"enc/rnn">(rnn::embedding_wrapper<cell, 5, 4, double>{}, ids);
  static_assert(std::is_same_v<tf::shape_of<decltype(loop_outputs)>, tf::shape<3, 2, 3>>);
  auto stacked = std::apply([](const auto&... o) { return tf::stack<0>(o...); }, static_outputs);
  auto loop_flat = rnn::flatten_state(loop_state);
  auto static_flat = rnn::flatten_state(static_state);
  // Weights that differ per step, so a step out of place changes the loss.
  auto weights = tf::constant<"w">(xt::xtensor_fixed<double, xt::xshape<3, 2, 3>>{
      {{0.3, -0.7, 1.1}, {0.2, 0.5, -0.4}}, {{-1.3, 0.6, 0.1}, {0.9, -0.2, 0.8}}, {{0.4, 1.2, -0.6}, {-0.5, 0.7, 0.3}}});
  auto loop_loss = tf::reduce_sum(tf::square(loop_outputs * weights)) +
                   tf::reduce_sum(tf::square(std::get<1>(loop_flat))) + tf::reduce_sum(std::get<0>(loop_flat));
  auto static_loss = tf::reduce_sum(tf::square(stacked * weights)) +
                     tf::reduce_sum(tf::square(std::get<1>(static_flat))) + tf::reduce_sum(std::get<0>(static_flat));
  tf::session sess(loop_loss + static_loss);
  using vars = decltype(sess)::variables;
  static_assert(boost::mp11::mp_size<vars>::value == 9);  // the table; per layer the gates' and candidate's kernel and bias
  sess.initialize_all();
  CHECK(max_abs_diff(sess.run(loop_outputs), sess.run(stacked)) <= 1e-12);
  CHECK(max_abs_diff(sess.run(std::get<0>(loop_flat)), sess.run(std::get<0>(static_flat))) <= 1e-12);
  CHECK(max_abs_diff(sess.run(std::get<1>(loop_flat)), sess.run(std::get<1>(static_flat))) <= 1e-12);
  CHECK(std::abs(sess.run(loop_loss) - sess.run(static_loss)) <= 1e-12);
  [&]<class... V>(boost::mp11::mp_list<V...>) {
    auto check = [&]<class W>(W) {
      const auto from_loop = sess.run(tf::gradient(loop_loss, W{}));
      const auto from_static = sess.run(tf::gradient(static_loss, W{}));
      INFO(W::name.view());
      CHECK(max_abs_diff(from_loop, from_static) <= 1e-12);
      CHECK(xt::amax(xt::abs(from_static))() > 1e-3);  // every variable matters to the loss
    };
    (check(V{}), ...);
  }(vars{});
}
