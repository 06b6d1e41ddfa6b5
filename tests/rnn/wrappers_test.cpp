// rnn/wrappers.hpp: EmbeddingWrapper and OutputProjectionWrapper with TensorFlow's variable
// names, the same values as the lookup and the projection written out, a zero state from
// ids, a sparse gradient for the embedding through static_rnn, and a short training run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
using ids_t = xt::xtensor_fixed<std::int32_t, xt::xshape<3>>;
auto i0 = tf::placeholder<"i0", std::int32_t, tf::shape<3>>();
auto i1 = tf::placeholder<"i1", std::int32_t, tf::shape<3>>();
const ids_t v0{1, 4, 1}, v1{0, 2, 3};

using cell_t = rnn::output_projection_wrapper<rnn::embedding_wrapper<rnn::gru_cell<4>, 5, 3>, 5>;

bool has(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}
}  // namespace

TEST_CASE("the wrappers' variables have TensorFlow's names, the cell's under the wrappers'") {
  auto [outs, state] = rnn::static_rnn(cell_t{}, std::tuple{i0, i1});
  static_assert(tf::shape_of<std::tuple_element_t<1, decltype(outs)>>::dims[1] == 5);
  static_assert(tf::shape_of<decltype(state)>::dims[1] == 4);
  tf::session sess(std::get<1>(outs));
  const auto names = sess.uninitialized_names();
  CHECK(names.size() == 7);
  CHECK(has(names, "rnn/output_projection_wrapper/kernel"));
  CHECK(has(names, "rnn/output_projection_wrapper/bias"));
  CHECK(has(names, "rnn/output_projection_wrapper/embedding_wrapper/embedding"));
  CHECK(has(names, "rnn/output_projection_wrapper/embedding_wrapper/gru_cell/gates/kernel"));
  CHECK(has(names, "rnn/output_projection_wrapper/embedding_wrapper/gru_cell/candidate/bias"));
}

TEST_CASE("the wrappers compute the lookup, the cell and the projection, from a zero state of the ids' batch") {
  auto [outs, state] = rnn::static_rnn(cell_t{}, std::tuple{i0, i1});
  // The same computation written out: the wrappers' variables are these types (one name,
  // one type: DESIGN rule 1), so one session holds one set of them for both.
  auto table = tf::variable<"rnn/output_projection_wrapper/embedding_wrapper/embedding", float, tf::shape<5, 3>,
                            rnn::embedding_wrapper<rnn::gru_cell<4>, 5, 3>::default_initializer>();
  auto kernel = tf::variable<"rnn/output_projection_wrapper/kernel", float, tf::shape<4, 5>, tf::init::glorot_uniform()>();
  auto bias = tf::variable<"rnn/output_projection_wrapper/bias", float, tf::shape<5>, tf::init::zeros()>();
  auto e0 = tf::embedding_lookup(table, i0);
  auto e1 = tf::embedding_lookup(table, i1);
  auto zero = rnn::zero_state(rnn::gru_cell<4>{}, e0);
  auto [h0, s0] = rnn::gru_cell<4>{}.call<"rnn/output_projection_wrapper/embedding_wrapper">(e0, zero);
  auto [h1, s1] = rnn::gru_cell<4>{}.call<"rnn/output_projection_wrapper/embedding_wrapper">(e1, s0);
  auto p1 = tf::matmul(h1, kernel) + bias;
  tf::session sess(std::get<1>(outs), state, p1, s1);
  sess.initialize_all();
  sess.slot<decltype(bias)>().value = xt::xtensor_fixed<float, xt::xshape<5>>{0.1f, -0.2f, 0.3f, 0, 0.5f};
  auto [got, got_state] = sess.run(tf::fetch(std::get<1>(outs), state), tf::feed(i0, v0), tf::feed(i1, v1));
  auto [want, want_state] = sess.run(tf::fetch(p1, s1), tf::feed(i0, v0), tf::feed(i1, v1));
  CHECK(xt::allclose(got, want, 1e-6, 1e-7));
  CHECK(xt::allclose(got_state, want_state, 1e-6, 1e-7));
  CHECK(xt::amax(xt::abs(got_state))() > 0.01);  // not a trivial state
}

TEST_CASE("through static_rnn the embedding's gradient is sparse, and a copy task trains") {
  // Predict each step's id from the embedding wrapper's GRU: a tiny copy task.
  auto [outs, state] = rnn::static_rnn(cell_t{}, std::tuple{i0, i1});
  auto loss = (tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(i0, std::get<0>(outs))) +
               tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(i1, std::get<1>(outs))));
  auto table = tf::variable<"rnn/output_projection_wrapper/embedding_wrapper/embedding", float, tf::shape<5, 3>,
                            rnn::embedding_wrapper<rnn::gru_cell<4>, 5, 3>::default_initializer>();
  static_assert(tf::indexed_slices<decltype(tf::gradient(loss, table))>);
  auto opt = tf::train::adam(0.05);
  auto train_op = opt.minimize(loss);
  tf::session sess(train_op, loss);
  sess.initialize_all();
  const float first = sess.run(loss, tf::feed(i0, v0), tf::feed(i1, v1));
  for (int step = 0; step < 60; ++step) sess.run(train_op, tf::feed(i0, v0), tf::feed(i1, v1));
  const float last = sess.run(loss, tf::feed(i0, v0), tf::feed(i1, v1));
  CHECK(last < 0.5f * first);
}
