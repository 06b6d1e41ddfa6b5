// sampled_softmax_loss (ops/sampled_softmax.hpp) and log_uniform_candidate_sampler
// (ops/candidate_sampler.hpp).
//
// Ported from TensorFlow's nn_test.py SampledSoftmaxLossTest.testSampledSoftmaxLoss: 5
// classes, dim 10, batch 3, labels [0, 1, 2], sampled_values ([1, 0, 2, 3], true expected
// counts 0.5, sampled expected counts 0.5), remove_accidental_hits=False, random weights,
// biases and inputs; the expected loss is the exact softmax cross-entropy over the true and
// sampled candidates' logits (minus log expected count), computed here as the test computes
// it with numpy. The same data with remove_accidental_hits (the hits leave the softmax) and
// num_true = 2; the loss with the sampler's own draw against the same computation from that
// draw's fetched values. From candidate_sampler_ops_test.py, what is observable of the
// log-uniform sampler: ids in range, unique, the expected counts' formula from the draw's
// number of tries; the seeds' determinism; P(k) against the frequencies of many draws. And
// the gradients with respect to weights, biases and inputs against central differences, the
// samples fixed by feeding a draw's values as sampled_values; a training step without
// allocation; and sampled_softmax_loss as sequence_loss's softmax_loss_function, as
// testModelWithBuckets uses it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include <xtensor/xstrided_view.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"
#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

namespace {

std::mt19937& gen() {
  static std::mt19937 g(20261202u);
  return g;
}
template <class V>
V randn(V v) {
  std::normal_distribution<double> d;
  for (std::size_t i = 0; i < v.size(); ++i) v.flat(i) = static_cast<typename V::value_type>(d(gen()));
  return v;
}

/// The expected loss per row, as TensorFlow's test builds it with numpy: logits of the true
/// and the sampled candidates, dot(x, w[id]) + b[id] - log(expected count), the hits removed
/// (when asked) at the last position of a true class among the sampled ids, and the
/// cross-entropy with labels 1/num_true on the true columns.
template <class W, class B, class X, class L, class S, class TC, class SC>
std::vector<double> expected_loss(const W& w, const B& b, const X& x, const L& labels, const S& sampled,
                                  const TC& tc, const SC& sc, bool remove_hits) {
  const std::size_t batch = x.shape()[0], dim = x.shape()[1], nt = labels.shape()[1], ns = sampled.size();
  const auto logit = [&](std::size_t i, std::int64_t id) {
    double s = static_cast<double>(b(std::size_t(id)));
    for (std::size_t d = 0; d < dim; ++d) s += double(x(i, d)) * double(w(std::size_t(id), d));
    return s;
  };
  std::vector<double> out;
  for (std::size_t i = 0; i < batch; ++i) {
    std::vector<double> z;
    std::vector<bool> removed;
    for (std::size_t t = 0; t < nt; ++t) {
      z.push_back(logit(i, labels(i, t)) - std::log(double(tc(i, t))));
      removed.push_back(false);
    }
    for (std::size_t k = 0; k < ns; ++k) {
      z.push_back(logit(i, sampled(k)) - std::log(double(sc(k))));
      bool hit = false;
      for (std::size_t t = 0; t < nt; ++t) {
        const bool last = std::find(&sampled(0) + k + 1, &sampled(0) + ns, sampled(k)) == &sampled(0) + ns;
        hit = hit || (remove_hits && last && sampled(k) == labels(i, t));
      }
      removed.push_back(hit);
    }
    const double mx = *std::max_element(z.begin(), z.end());
    double sum = 0;
    for (std::size_t j = 0; j < z.size(); ++j)
      if (!removed[j]) sum += std::exp(z[j] - mx);
    double loss = 0;
    for (std::size_t t = 0; t < nt; ++t) loss -= (z[t] - mx - std::log(sum)) / double(nt);
    out.push_back(loss);
  }
  return out;
}

// testSampledSoftmaxLoss's sizes.
constexpr std::size_t classes = 5, dim = 10, batch = 3, num_sampled = 4;

template <std::size_t NumTrue, bool RemoveHits>
void check_fixed_samples(const tf::storage_t<std::int64_t, shape<batch, NumTrue>>& labels_v) {
  auto w = tf::placeholder<"ss_w", float, shape<classes, dim>>();
  auto b = tf::placeholder<"ss_b", float, shape<classes>>();
  auto x = tf::placeholder<"ss_x", float, shape<batch, dim>>();
  auto labels = tf::placeholder<"ss_labels", std::int64_t, shape<batch, NumTrue>>();
  auto s = tf::placeholder<"ss_sampled", std::int64_t, shape<num_sampled>>();
  auto tc = tf::placeholder<"ss_true_exp", float, shape<batch, NumTrue>>();
  auto sc = tf::placeholder<"ss_sampled_exp", float, shape<num_sampled>>();
  auto loss = tf::sampled_softmax_loss<num_sampled, classes, RemoveHits>(w, b, labels, x, std::tuple{s, tc, sc});
  static_assert(std::is_same_v<tf::shape_of<decltype(loss)>, shape<batch>>);
  tf::session sess(loss);
  const auto wv = randn(tf::storage_t<float, shape<classes, dim>>{});
  const auto bv = randn(tf::storage_t<float, shape<classes>>{});
  const auto xv = randn(tf::storage_t<float, shape<batch, dim>>{});
  const tf::storage_t<std::int64_t, shape<num_sampled>> sv = {1, 0, 2, 3};
  tf::storage_t<float, shape<batch, NumTrue>> tcv;
  tcv.fill(0.5f);
  tf::storage_t<float, shape<num_sampled>> scv;
  scv.fill(0.5f);
  const auto got = sess.run(loss, tf::feed(w, wv), tf::feed(b, bv), tf::feed(x, xv), tf::feed(labels, labels_v),
                            tf::feed(s, sv), tf::feed(tc, tcv), tf::feed(sc, scv));
  const auto want = expected_loss(wv, bv, xv, labels_v, sv, tcv, scv, RemoveHits);
  const auto kept = expected_loss(wv, bv, xv, labels_v, sv, tcv, scv, false);
  for (std::size_t i = 0; i < batch; ++i) {
    INFO("row " << i);
    CHECK(double(got(i)) == doctest::Approx(want[i]).epsilon(1e-4));  // TensorFlow's tolerance
    if (RemoveHits) CHECK(std::abs(want[i] - kept[i]) > 1e-3);        // the hits matter to these rows
  }
}

}  // namespace

TEST_CASE("sampled_softmax_loss: TensorFlow's testSampledSoftmaxLoss (remove_accidental_hits=False)") {
  check_fixed_samples<1, false>({{0}, {1}, {2}});
}

TEST_CASE("sampled_softmax_loss removes accidental hits: a sampled true class leaves the softmax") {
  check_fixed_samples<1, true>({{0}, {1}, {2}});
}

TEST_CASE("sampled_softmax_loss with num_true = 2: labels 1/2 on each true column") {
  check_fixed_samples<2, true>({{0, 4}, {1, 3}, {4, 2}});
}

TEST_CASE("the sampler's own draw: the loss is the exact softmax over the candidates it drew") {
  auto w = tf::placeholder<"sd_w", float, shape<20, 6>>();
  auto b = tf::placeholder<"sd_b", float, shape<20>>();
  auto x = tf::placeholder<"sd_x", float, shape<dyn, 6>>();
  auto labels = tf::placeholder<"sd_labels", std::int64_t, shape<dyn, 1>>();
  // The same sampler as the loss draws from (one node: same seed, sizes and labels).
  auto [s, tc, sc] = tf::log_uniform_candidate_sampler<8, 20, true, 9>(labels);
  auto loss = tf::sampled_softmax_loss<8, 20, true, 9>(w, b, labels, x);
  tf::session sess(loss, s, tc, sc);
  const auto wv = randn(tf::storage_t<float, shape<20, 6>>{});
  const auto bv = randn(tf::storage_t<float, shape<20>>{});
  const auto xv = randn(xt::xtensor<float, 2>::from_shape({5, 6}));
  const xt::xtensor<std::int64_t, 2> lv = {{0}, {3}, {1}, {19}, {0}};
  std::set<std::vector<std::int64_t>> draws;
  for (int run = 0; run < 4; ++run) {
    const auto [got, sv, tcv, scv] =
        sess.run(tf::fetch(loss, s, tc, sc), tf::feed(w, wv), tf::feed(b, bv), tf::feed(x, xv), tf::feed(labels, lv));
    draws.insert(std::vector<std::int64_t>(sv.begin(), sv.end()));
    const auto want = expected_loss(wv, bv, xv, lv, sv, tcv, scv, true);
    REQUIRE(got.size() == 5);
    for (std::size_t i = 0; i < 5; ++i) CHECK(double(got(i)) == doctest::Approx(want[i]).epsilon(1e-5));
  }
  CHECK(draws.size() > 1);  // a new draw on each run
}

namespace {
template <std::size_t N, std::size_t R, bool Unique, std::uint64_t Seed>
struct sampler {
  tf::placeholder_node<"cs_true", std::int64_t, shape<2, 3>> labels;
  using nodes = decltype(tf::log_uniform_candidate_sampler<N, R, Unique, Seed>(labels));
  using sampled_t = std::tuple_element_t<0, nodes>;
  // The draw node behind the three outputs: the ids and then the number of tries.
  using draw_t = tf::mp::mp_front<typename sampled_t::inputs>;
  nodes out = tf::log_uniform_candidate_sampler<N, R, Unique, Seed>(labels);
  tf::storage_t<std::int64_t, shape<2, 3>> true_classes = {{0, 1, 2}, {5, 9, 0}};
};

double probability(std::int64_t k, std::size_t range_max) {
  return (std::log(double(k) + 2.0) - std::log(double(k) + 1.0)) / std::log(double(range_max) + 1.0);
}
}  // namespace

TEST_CASE("log_uniform_candidate_sampler: unique ids in range, expected counts from the draw's tries") {
  sampler<6, 10, true, 3> sm;
  const auto& [s, tc, sc] = sm.out;
  tf::session sess(s, tc, sc, typename decltype(sm)::draw_t{});
  for (int run = 0; run < 20; ++run) {
    const auto [sv, tcv, scv, draw] =
        sess.run(tf::fetch(s, tc, sc, typename decltype(sm)::draw_t{}), tf::feed(sm.labels, sm.true_classes));
    const std::int64_t tries = draw(6);
    CHECK(tries >= 6);
    const std::set<std::int64_t> distinct(sv.begin(), sv.end());
    CHECK(distinct.size() == 6);  // unique=True
    for (std::size_t k = 0; k < 6; ++k) {
      CHECK(draw(k) == sv(k));
      CHECK(sv(k) >= 0);
      CHECK(sv(k) < 10);
      const double p = probability(sv(k), 10);
      const double want = tries == 6 ? p * 6 : -std::expm1(double(tries) * std::log1p(-p));
      CHECK(double(scv(k)) == doctest::Approx(want).epsilon(1e-6));
    }
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t t = 0; t < 3; ++t) {
        const double p = probability(sm.true_classes(i, t), 10);
        const double want = tries == 6 ? p * 6 : -std::expm1(double(tries) * std::log1p(-p));
        CHECK(double(tcv(i, t)) == doctest::Approx(want).epsilon(1e-6));
      }
  }
}

TEST_CASE("log_uniform_candidate_sampler: the seeds decide the draws, each run draws anew") {
  auto draws = [](auto sm, std::uint64_t graph_seed) {
    const auto& s = std::get<0>(sm.out);
    tf::session sess(s);
    sess.set_random_seed(graph_seed);
    std::vector<std::vector<std::int64_t>> out;
    for (int run = 0; run < 3; ++run) {
      const auto v = sess.run(s, tf::feed(sm.labels, sm.true_classes));
      out.emplace_back(v.begin(), v.end());
    }
    return out;
  };
  const auto a = draws(sampler<5, 1000, true, 1>{}, 7);
  CHECK(a == draws(sampler<5, 1000, true, 1>{}, 7));  // a new session, the same seeds: the same draws
  CHECK(a[0] != a[1]);                                // a new draw on each run
  CHECK(a[1] != a[2]);
  CHECK(a != draws(sampler<5, 1000, true, 2>{}, 7));  // another op seed
  CHECK(a != draws(sampler<5, 1000, true, 1>{}, 8));  // another graph seed
}

TEST_CASE("log_uniform_candidate_sampler without unique: frequencies follow P(k), counts are P(k) * num_sampled") {
  sampler<4000, 10, false, 5> sm;
  const auto& [s, tc, sc] = sm.out;
  tf::session sess(s, sc);
  const auto [sv, scv] = sess.run(tf::fetch(s, sc), tf::feed(sm.labels, sm.true_classes));
  std::vector<double> freq(10, 0.0);
  for (std::size_t i = 0; i < sv.size(); ++i) {
    REQUIRE(sv(i) >= 0);
    REQUIRE(sv(i) < 10);
    freq[std::size_t(sv(i))] += 1.0;
  }
  for (std::int64_t k = 0; k < 10; ++k) {
    const double p = probability(k, 10);
    const double sd = std::sqrt(4000 * p * (1 - p));
    INFO("class " << k << ": " << freq[std::size_t(k)] << " draws, expected " << 4000 * p);
    CHECK(std::abs(freq[std::size_t(k)] - 4000 * p) < 5 * sd);
  }
  for (std::size_t i = 0; i < 10; ++i)
    CHECK(double(scv(i)) == doctest::Approx(probability(sv(i), 10) * 4000).epsilon(1e-6));
}

TEST_CASE("the gradients of sampled_softmax_loss to weights, biases and inputs (central differences)") {
  // The samples are fixed across the finite-difference runs by drawing once and feeding the
  // draw's values as sampled_values (placeholders); num_true = 2, accidental hits removed.
  auto w = tf::placeholder<"sg_w", double, shape<7, 4>>();
  auto b = tf::placeholder<"sg_b", double, shape<7>>();
  auto x = tf::placeholder<"sg_x", double, shape<3, 4>>();
  auto labels = tf::placeholder<"sg_labels", std::int32_t, shape<3, 2>>();  // int32 labels, int64 samples
  auto s = tf::placeholder<"sg_sampled", std::int64_t, shape<4>>();
  auto tc = tf::placeholder<"sg_true_exp", double, shape<3, 2>>();
  auto sc = tf::placeholder<"sg_sampled_exp", double, shape<4>>();
  auto c = tf::placeholder<"sg_c", double, shape<3>>();
  auto per_row = tf::sampled_softmax_loss<4, 7>(w, b, labels, x, std::tuple{s, tc, sc});
  auto loss = tf::reduce_sum(per_row * c);
  auto [ds, dtc, dsc] = tf::log_uniform_candidate_sampler<4, 7, true, 4, double>(labels);
  tf::session sess(loss, ds, dtc, dsc);
  const tf::storage_t<std::int32_t, shape<3, 2>> lv = {{0, 2}, {1, 0}, {6, 3}};
  const auto [sv, tcv, scv] = sess.run(tf::fetch(ds, dtc, dsc), tf::feed(labels, lv));
  const auto wv = fd_check::uniform<shape<7, 4>>();
  const auto bv = fd_check::uniform<shape<7>>(0.0, 1.0);
  const auto xv = fd_check::uniform<shape<3, 4>>();
  const auto cv = fd_check::uniform<shape<3>>(0.5, 1.5);
  const auto fixed = [&](auto... feeds) {
    return std::tuple{tf::feed(labels, lv), tf::feed(s, sv), tf::feed(tc, tcv), tf::feed(sc, scv), tf::feed(c, cv),
                      feeds...};
  };
  {
    INFO("weights");
    std::apply([&](auto... f) { fd_check::check_gradient(sess, loss, w, wv, f...); },
               fixed(tf::feed(b, bv), tf::feed(x, xv)));
  }
  {
    INFO("biases");
    std::apply([&](auto... f) { fd_check::check_gradient(sess, loss, b, bv, f...); },
               fixed(tf::feed(w, wv), tf::feed(x, xv)));
  }
  {
    INFO("inputs");
    std::apply([&](auto... f) { fd_check::check_gradient(sess, loss, x, xv, f...); },
               fixed(tf::feed(w, wv), tf::feed(b, bv)));
  }
}

TEST_CASE("a training step on sampled_softmax_loss draws and runs without allocating (static shapes)") {
  auto w = tf::variable<"sa_w", float, shape<50, 8>>(tf::init::glorot_uniform());
  auto b = tf::variable<"sa_b", float, shape<50>>(tf::init::zeros());
  auto x = tf::placeholder<"sa_x", float, shape<16, 8>>();
  auto labels = tf::placeholder<"sa_labels", std::int64_t, shape<16, 1>>();
  auto loss = tf::reduce_mean(tf::sampled_softmax_loss<10, 50, true, 2>(w, b, labels, x));
  auto train_op = tf::train::gradient_descent(0.1).minimize(loss);
  tf::session sess(train_op);
  sess.initialize_all();
  const auto xv = randn(tf::storage_t<float, shape<16, 8>>{});
  tf::storage_t<std::int64_t, shape<16, 1>> lv;
  for (std::size_t i = 0; i < 16; ++i) lv(i, 0) = std::int64_t(i * 3 % 50);
  sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(labels, lv));  // plans and buffers
  const long before = typeflow_test::allocation_count();
  for (int i = 0; i < 20; ++i) sess.run(tf::fetch(loss, train_op), tf::feed(x, xv), tf::feed(labels, lv));
  CHECK(typeflow_test::allocation_count() == before);
}

TEST_CASE("sampled_softmax_loss as sequence_loss's softmax_loss_function (seq2seq_test.py's SampledLoss)") {
  // TensorFlow's testModelWithBuckets: sequence_loss(outputs, targets, weights,
  // softmax_loss_function=SampledLoss), SampledLoss(labels, logits) reshaping the int32
  // labels to [-1, 1] and calling sampled_softmax_loss(w_t, b, labels, logits, 8, classes).
  // Each step draws its own candidates (one counter, advanced by each draw in a run); the
  // loss is the weighted average of the exact softmaxes over those candidates.
  auto w_t = tf::placeholder<"sq_w", float, shape<10, 6>>();
  auto b = tf::placeholder<"sq_b", float, shape<10>>();
  auto o0 = tf::placeholder<"sq_o0", float, shape<dyn, 6>>();
  auto o1 = tf::placeholder<"sq_o1", float, shape<dyn, 6>>();
  auto y0 = tf::placeholder<"sq_y0", std::int32_t, shape<dyn>>();
  auto y1 = tf::placeholder<"sq_y1", std::int32_t, shape<dyn>>();
  auto v0 = tf::placeholder<"sq_v0", float, shape<dyn>>();
  auto v1 = tf::placeholder<"sq_v1", float, shape<dyn>>();
  const auto sampled_loss = [&](auto labels, auto logits) {
    return tf::sampled_softmax_loss<8, 10>(w_t, b, tf::reshape<shape<dyn, 1>>(labels), logits);
  };
  auto loss = tf::sequence_loss(std::tuple{o0, o1}, std::tuple{y0, y1}, std::tuple{v0, v1}, sampled_loss);
  // The steps' own samplers, to fetch the candidates each drew.
  auto [s0, tc0, sc0] = tf::log_uniform_candidate_sampler<8, 10>(tf::reshape<shape<dyn, 1>>(y0));
  auto [s1, tc1, sc1] = tf::log_uniform_candidate_sampler<8, 10>(tf::reshape<shape<dyn, 1>>(y1));
  tf::session sess(loss, s0, tc0, sc0, s1, tc1, sc1);
  const auto wv = randn(tf::storage_t<float, shape<10, 6>>{});
  const auto bv = randn(tf::storage_t<float, shape<10>>{});
  const auto ov0 = randn(xt::xtensor<float, 2>::from_shape({4, 6}));
  const auto ov1 = randn(xt::xtensor<float, 2>::from_shape({4, 6}));
  const xt::xtensor<std::int32_t, 1> yv0 = {1, 4, 0, 9}, yv1 = {2, 2, 7, 0};
  const xt::xtensor<float, 1> vv0 = {1, 1, 1, 0.5f}, vv1 = {1, 0, 1, 0.5f};
  const auto [got, sv0, tcv0, scv0, sv1, tcv1, scv1] =
      sess.run(tf::fetch(loss, s0, tc0, sc0, s1, tc1, sc1), tf::feed(w_t, wv), tf::feed(b, bv), tf::feed(o0, ov0),
               tf::feed(o1, ov1), tf::feed(y0, yv0), tf::feed(y1, yv1), tf::feed(v0, vv0), tf::feed(v1, vv1));
  CHECK(std::vector<std::int64_t>(sv0.begin(), sv0.end()) != std::vector<std::int64_t>(sv1.begin(), sv1.end()));
  const xt::xtensor<std::int32_t, 2> l0 = xt::reshape_view(yv0, {4, 1}), l1 = xt::reshape_view(yv1, {4, 1});
  const auto e0 = expected_loss(wv, bv, ov0, l0, sv0, tcv0, scv0, true);
  const auto e1 = expected_loss(wv, bv, ov1, l1, sv1, tcv1, scv1, true);
  double want = 0;
  for (std::size_t i = 0; i < 4; ++i)
    want += (e0[i] * double(vv0(i)) + e1[i] * double(vv1(i))) / (double(vv0(i)) + double(vv1(i)) + 1e-12);
  CHECK(double(got) == doctest::Approx(want / 4).epsilon(1e-5));
}
