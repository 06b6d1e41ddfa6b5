// Sparse gradients (an embedding's IndexedSlices): each optimizer's sparse update against
// its dense equivalent, TensorFlow's sparse tests (gradient_descent_test.py and
// adagrad_test.py's testSparseBasic, adagrad_test.py's testSparseRepeatedIndices), and the
// checks made before anything changes.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

namespace {

using table = xt::xtensor_fixed<double, xt::xshape<4, 2>>;
using ids3 = xt::xtensor_fixed<std::int32_t, xt::xshape<3>>;

// loss = sum(lookup(w, a) * ca) + sum(lookup(w, b) * cb): w's gradient is sparse, two
// terms, whose values are ca and cb (b is int64 of rank 2).
template <class W, class A, class B>
auto two_lookups(W w, A a, B b) {
  auto ca = tf::constant<"sparse_ca">(xt::xtensor_fixed<double, xt::xshape<3, 2>>{{0.5, -1}, {2, 0.25}, {-3, 1}});
  auto cb = tf::constant<"sparse_cb">(xt::xtensor_fixed<double, xt::xshape<1, 1, 2>>{{{1.5, -0.5}}});
  return tf::reduce_sum(tf::embedding_lookup(w, a) * ca) + tf::reduce_sum(tf::embedding_lookup(w, b) * cb);
}

const table start{{1, 2}, {3, 4}, {5, 6}, {7, 8}};
// The ids of each step: a row looked up twice (1, then 0), rows left out.
const std::array<ids3, 3> steps{ids3{1, 3, 1}, ids3{0, 2, 0}, ids3{1, 0, 1}};
const xt::xtensor_fixed<std::int64_t, xt::xshape<1, 1>> b_ids{{3}};

// Runs Opt sparsely (minimize) and densely (apply_gradients of the fed dense gradient,
// which the sparse session fetches) for the steps; calls check(sparse, dense, touched) after
// each, touched[r] saying whether row r was looked up in that step.
template <class Opt, class Check>
void sparse_against_dense(Opt opt, Check check) {
  auto w = tf::variable<"emb", double, tf::shape<4, 2>>(tf::init::zeros());
  auto a = tf::placeholder<"ids_a", std::int32_t, tf::shape<3>>();
  auto b = tf::placeholder<"ids_b", std::int64_t, tf::shape<1, 1>>();
  auto loss = two_lookups(w, a, b);
  auto pairs = opt.compute_gradients(loss);
  auto g = std::get<0>(pairs).gradient_node;
  static_assert(tf::indexed_slices<decltype(g)>, "two lookups give a sparse gradient");
  auto sparse_op = opt.apply_gradients(pairs);
  tf::session sparse(sparse_op, g);
  sparse.initialize_all();
  sparse.template slot<decltype(w)>().value = start;

  auto fed = tf::placeholder<"dense_g", double, tf::shape<4, 2>>();
  auto dense_op = opt.apply_gradients(tf::train::grad_and_var(fed, w));
  tf::session dense(dense_op);
  dense.initialize_all();
  dense.template slot<decltype(w)>().value = start;

  for (const auto& ids : steps) {
    const table dense_g = sparse.run(g, tf::feed(a, ids), tf::feed(b, b_ids));
    sparse.run(sparse_op, tf::feed(a, ids), tf::feed(b, b_ids));
    dense.run(dense_op, tf::feed(fed, dense_g));
    std::array<bool, 4> touched{};
    for (auto id : ids) touched[static_cast<std::size_t>(id)] = true;
    touched[3] = true;
    check(sparse, dense, w, touched);
  }
}

template <class S, class V>
table value_of(S& s, V v) {
  return s.run(v);
}

}  // namespace

TEST_CASE("sparse updates equal their dense equivalents: gradient descent, Adagrad, Adam") {
  auto all_equal = [](auto slots_of) {
    return [=](auto& sparse, auto& dense, auto w, const std::array<bool, 4>&) {
      CHECK(xt::allclose(value_of(sparse, w), value_of(dense, w), 1e-15, 0));
      slots_of(sparse, dense, w);
    };
  };
  SUBCASE("gradient descent") {
    sparse_against_dense(tf::train::gradient_descent(0.1), all_equal([](auto&, auto&, auto) {}));
  }
  SUBCASE("Adagrad") {
    auto opt = tf::train::adagrad(0.5);
    sparse_against_dense(opt, all_equal([opt](auto& sparse, auto& dense, auto w) {
                           auto acc = tf::train::slot<0>(opt, w);
                           CHECK(xt::allclose(value_of(sparse, acc), value_of(dense, acc), 1e-15, 0));
                         }));
  }
  SUBCASE("Adam (TensorFlow 1.x decays every row's moments)") {
    auto opt = tf::train::adam(0.1);
    sparse_against_dense(opt, all_equal([opt](auto& sparse, auto& dense, auto w) {
                           auto m = tf::train::slot<0>(opt, w);
                           auto v = tf::train::slot<1>(opt, w);
                           CHECK(value_of(sparse, m) == value_of(dense, m));
                           CHECK(value_of(sparse, v) == value_of(dense, v));
                         }));
  }
}

TEST_CASE("sparse momentum and RMSProp update the touched rows only, as TensorFlow's sparse kernels") {
  // On the rows looked up, the dense rule; elsewhere nothing moves, where the dense rule
  // would decay the accumulators and keep moving the variable.
  table previous = start;  // the sparse variable before the step
  auto rows_match = [&previous](auto slots) {
    previous = start;
    return [=, &previous](auto& sparse, auto& dense, auto w, const std::array<bool, 4>& touched) {
      const table sw = value_of(sparse, w), dw = value_of(dense, w);
      for (std::size_t r = 0; r < 4; ++r)
        for (std::size_t j = 0; j < 2; ++j) {
          if (touched[r]) {
            // Equal to the dense rule while the row has been touched at every step so far;
            // checked exactly on row 3, which every step touches.
            if (r == 3) CHECK(sw(r, j) == doctest::Approx(dw(r, j)).epsilon(1e-14));
          } else {
            CHECK(sw(r, j) == previous(r, j));
          }
        }
      previous = sw;
      slots(sparse, dense, w, touched);
    };
  };
  SUBCASE("momentum") {
    auto opt = tf::train::momentum(0.1, 0.9);
    bool dense_moved_an_untouched_row = false;
    sparse_against_dense(opt, rows_match([&](auto& sparse, auto& dense, auto w, const std::array<bool, 4>& touched) {
                           auto acc = tf::train::slot<0>(opt, w);
                           const table sa = value_of(sparse, acc), da = value_of(dense, acc);
                           CHECK(sa(3, 0) == doctest::Approx(da(3, 0)).epsilon(1e-14));
                           for (std::size_t r = 0; r < 4; ++r)
                             if (!touched[r] && da(r, 0) != 0 && da(r, 0) != sa(r, 0)) dense_moved_an_untouched_row = true;
                         }));
    CHECK(dense_moved_an_untouched_row);  // the sparse rule is not the dense one
  }
  SUBCASE("RMSProp") {
    auto opt = tf::train::rmsprop(0.01, 0.9, 0.5);
    sparse_against_dense(opt, rows_match([&](auto& sparse, auto& dense, auto w, const std::array<bool, 4>&) {
                           auto ms = tf::train::slot<0>(opt, w);
                           const table s = value_of(sparse, ms), d = value_of(dense, ms);
                           CHECK(s(3, 1) == doctest::Approx(d(3, 1)).epsilon(1e-14));
                         }));
  }
}

// gradient_descent_test.py, testSparseBasic: IndexedSlices([[0.1]], [0]) and ([[0.01]], [1]).
TEST_CASE("gradient descent, sparse: TensorFlow's testSparseBasic") {
  auto var0 = tf::variable<"var0", float, tf::shape<2, 1>>(tf::init::zeros());
  auto var1 = tf::variable<"var1", float, tf::shape<2, 1>>(tf::init::zeros());
  auto i0 = tf::constant<"i0">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{0});
  auto i1 = tf::constant<"i1">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{1});
  auto loss = tf::reduce_sum(tf::embedding_lookup(var0, i0)) * tf::constant<0.1f>() +
              tf::reduce_sum(tf::embedding_lookup(var1, i1)) * tf::constant<0.01f>();
  auto train_op = tf::train::gradient_descent(3.0).minimize(loss);
  tf::session sess(train_op);
  sess.initialize_all();
  sess.slot<decltype(var0)>().value = xt::xtensor_fixed<float, xt::xshape<2, 1>>{{1}, {2}};
  sess.slot<decltype(var1)>().value = xt::xtensor_fixed<float, xt::xshape<2, 1>>{{3}, {4}};
  sess.run(train_op);
  const auto v0 = sess.run(var0);
  const auto v1 = sess.run(var1);
  CHECK(v0(0, 0) == doctest::Approx(1.0 - 3.0 * 0.1).epsilon(1e-6));
  CHECK(v0(1, 0) == 2.0f);
  CHECK(v1(0, 0) == 3.0f);
  CHECK(v1(1, 0) == doctest::Approx(4.0 - 3.0 * 0.01).epsilon(1e-6));
}

// adagrad_test.py, testSparseBasic: three steps of the same sparse gradients, lr 3.0,
// initial accumulator 0.1.
TEST_CASE("Adagrad, sparse: TensorFlow's testSparseBasic") {
  auto var0 = tf::variable<"var0", float, tf::shape<2, 1>>(tf::init::zeros());
  auto var1 = tf::variable<"var1", float, tf::shape<2, 1>>(tf::init::zeros());
  auto i0 = tf::constant<"i0">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{0});
  auto i1 = tf::constant<"i1">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{1});
  auto loss = tf::reduce_sum(tf::embedding_lookup(var0, i0)) * tf::constant<0.1f>() +
              tf::reduce_sum(tf::embedding_lookup(var1, i1)) * tf::constant<0.01f>();
  auto train_op = tf::train::adagrad(3.0, 0.1).minimize(loss);
  tf::session sess(train_op);
  sess.initialize_all();
  sess.slot<decltype(var0)>().value = xt::xtensor_fixed<float, xt::xshape<2, 1>>{{1}, {2}};
  sess.slot<decltype(var1)>().value = xt::xtensor_fixed<float, xt::xshape<2, 1>>{{3}, {4}};
  for (int step = 0; step < 3; ++step) sess.run(train_op);
  const auto v0 = sess.run(var0);
  const auto v1 = sess.run(var1);
  CHECK(v0(0, 0) == doctest::Approx(-1.6026098728179932).epsilon(1e-6));
  CHECK(v0(1, 0) == 2.0f);
  CHECK(v1(0, 0) == 3.0f);
  CHECK(v1(1, 0) == doctest::Approx(3.715679168701172).epsilon(1e-6));
}

// adagrad_test.py, testSparseRepeatedIndices: a row given twice updates as the row given
// once with the sum.
TEST_CASE("Adagrad, sparse: repeated indices update as their sum") {
  auto run = [](auto ids, auto values) {
    auto var = tf::variable<"repeated", double, tf::shape<2, 1>>(tf::init::constant(1.0));
    auto loss = tf::reduce_sum(tf::embedding_lookup(var, ids) * values);
    auto train_op = tf::train::adagrad(3.0).minimize(loss);
    tf::session sess(train_op);
    sess.initialize_all();
    for (int step = 0; step < 2; ++step) sess.run(train_op);
    return xt::xtensor_fixed<double, xt::xshape<2, 1>>(sess.run(var));
  };
  const auto repeated = run(tf::constant<"rep_i">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{1, 1}),
                            tf::constant<"rep_v">(xt::xtensor_fixed<double, xt::xshape<2, 1>>{{0.1}, {0.1}}));
  const auto aggregated = run(tf::constant<"agg_i">(xt::xtensor_fixed<std::int32_t, xt::xshape<1>>{1}),
                              tf::constant<"agg_v">(xt::xtensor_fixed<double, xt::xshape<1, 1>>{{0.2}}));
  CHECK(repeated(0, 0) == 1.0);
  CHECK(repeated(1, 0) == doctest::Approx(aggregated(1, 0)).epsilon(1e-15));
  CHECK(repeated(1, 0) < 1.0);
}

TEST_CASE("a sparse update with an id out of range fails, naming it, and changes nothing") {
  auto w = tf::variable<"emb", double, tf::shape<4, 2>>(tf::init::constant(1.0));
  auto a = tf::placeholder<"ids_a", std::int32_t, tf::shape<3>>();
  auto b = tf::placeholder<"ids_b", std::int64_t, tf::shape<1, 1>>();
  auto opt = tf::train::adam(0.1);
  auto train_op = opt.minimize(two_lookups(w, a, b));
  tf::session sess(train_op);
  sess.initialize_all();
  const xt::xtensor_fixed<std::int64_t, xt::xshape<1, 1>> bad{{4}};
  std::string message;
  try {
    sess.run(train_op, tf::feed(a, steps[0]), tf::feed(b, bad));
  } catch (const tf::invalid_argument_error& e) {
    message = e.what();
  }
  CHECK(message.find("= 4 is not in [0, 4)") != std::string::npos);
  CHECK(value_of(sess, w) == table(xt::ones<double>({4, 2})));
  CHECK(sess.run(tf::train::slot<0>(opt, w)) == table(xt::zeros<double>({4, 2})));
  CHECK(sess.run(tf::train::non_slot<0>(opt, w)) == 0.9);  // beta1_power: no step was taken
  // The same session goes on with good ids.
  sess.run(train_op, tf::feed(a, steps[0]), tf::feed(b, b_ids));
  CHECK(value_of(sess, w)(0, 0) == 1.0);
  CHECK(value_of(sess, w)(1, 0) != 1.0);
}

// clip_ops_test.py, testClipByGlobalNormWithIndexedSlicesClipped: a dense t0 and a sparse t1
// (values [1, -2] at rows 3 and 4) of global norm sqrt(4 + 16 + 1 + 4) = 5, clipped to 4.
TEST_CASE("clip_by_global_norm mixes dense and sparse gradients; the sparse one stays sparse") {
  auto w0 = tf::variable<"w0", double, tf::shape<2, 3>>(tf::init::zeros());
  auto w1 = tf::variable<"w1", double, tf::shape<5>>(tf::init::zeros());
  auto c0 = tf::constant<"c0">(xt::xtensor_fixed<double, xt::xshape<2, 3>>{{-2, 0, 0}, {4, 0, 0}});
  auto ids = tf::constant<"ids">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{3, 4});
  auto c1 = tf::constant<"c1">(xt::xtensor_fixed<double, xt::xshape<2>>{1, -2});
  auto loss = tf::reduce_sum(w0 * c0) + tf::reduce_sum(tf::embedding_lookup(w1, ids) * c1);
  auto opt = tf::train::gradient_descent(1.0);
  auto pairs = opt.compute_gradients(loss);
  auto [clipped, norm] = tf::clip_by_global_norm(
      std::make_tuple(std::get<0>(pairs).gradient_node, std::get<1>(pairs).gradient_node), tf::constant<4.0>());
  auto g0 = std::get<0>(clipped);
  auto g1 = std::get<1>(clipped);
  static_assert(!tf::indexed_slices<decltype(g0)> && tf::indexed_slices<decltype(g1)>);
  using term = boost::mp11::mp_front<tf::indexed_slices_terms<decltype(g1)>>;
  auto values = tf::make_node<tf::indexed_slices_values<term>>(g1);
  auto train_op = opt.apply_gradients(tf::train::grad_and_var(g0, w0), tf::train::grad_and_var(g1, w1));
  tf::session sess(train_op, norm, g0, g1, values);
  sess.initialize_all();
  CHECK(sess.run(norm) == doctest::Approx(5.0).epsilon(1e-15));
  CHECK(xt::allclose(sess.run(g0), xt::xtensor<double, 2>{{-1.6, 0, 0}, {3.2, 0, 0}}));
  CHECK(xt::allclose(sess.run(values), xt::xtensor<double, 1>{0.8, -1.6}));
  CHECK(xt::allclose(sess.run(g1), xt::xtensor<double, 1>{0, 0, 0, 0.8, -1.6}));  // fetched: dense
  sess.run(train_op);
  CHECK(xt::allclose(sess.run(w1), xt::xtensor<double, 1>{0, 0, 0, -0.8, 1.6}));
  CHECK(xt::allclose(sess.run(w0), xt::xtensor<double, 2>{{1.6, 0, 0}, {-3.2, 0, 0}}));
}

TEST_CASE("global_norm counts a row looked up twice twice, as TensorFlow's of IndexedSlices") {
  auto w = tf::variable<"w1", double, tf::shape<5>>(tf::init::zeros());
  auto ids = tf::constant<"ids">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{1, 1});
  auto c = tf::constant<"c1">(xt::xtensor_fixed<double, xt::xshape<2>>{3, 4});
  auto g = tf::gradient(tf::reduce_sum(tf::embedding_lookup(w, ids) * c), w);
  auto sparse_norm = tf::global_norm(g);                    // sqrt(9 + 16): the values
  auto dense_norm = tf::global_norm(g + tf::constant<0.0>());  // a dense gradient: |7|
  tf::session sess(sparse_norm, dense_norm);
  sess.initialize_all();
  CHECK(sess.run(sparse_norm) == doctest::Approx(5.0).epsilon(1e-15));
  CHECK(sess.run(dense_norm) == doctest::Approx(7.0).epsilon(1e-15));
}

// embedding_ops_test.py: ids of any rank give ids.shape + params.shape[1:].
TEST_CASE("embedding_lookup: ids of rank 0, 1 and 2") {
  auto params = tf::constant<"params">(table{{1, 2}, {3, 4}, {5, 6}, {7, 8}});
  auto scalar_id = tf::constant<"scalar_id">(std::int64_t{2});
  auto matrix_ids = tf::constant<"matrix_ids">(xt::xtensor_fixed<std::int32_t, xt::xshape<2, 2>>{{3, 0}, {1, 1}});
  auto one = tf::embedding_lookup(params, scalar_id);
  auto many = tf::embedding_lookup(params, matrix_ids);
  static_assert(std::is_same_v<tf::shape_of<decltype(one)>, tf::shape<2>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(many)>, tf::shape<2, 2, 2>>);
  tf::session sess(one, many);
  CHECK(sess.run(one) == xt::xtensor<double, 1>{5, 6});
  CHECK(sess.run(many) == xt::xtensor<double, 3>{{{7, 8}, {1, 2}}, {{3, 4}, {3, 4}}});
}
