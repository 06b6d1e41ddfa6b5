// rnn::model_with_buckets (rnn/buckets.hpp) over a small embedding seq2seq (a GRU encoder
// and decoder over ids, TensorFlow's EmbeddingWrapper and OutputProjectionWrapper): one set
// of variables for both buckets, a loss and an update per bucket that share the
// optimizer's slots, gradients clipped by their global norm (sparse for the embeddings) and
// applied as (gradient, variable) pairs: the training loop of seq2seq_test.py's
// testModelWithBuckets, with its checks (each bucket's perplexity falls).
// typeflow local to this unit (<typeflow/tu_local.hpp>): this test's unrolled graphs compile
// in a sixth to a third less time; built without the tests' precompiled header (CMakeLists.txt).
#include <typeflow/tu_local.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>

#include <typeflow/rnn/buckets.hpp>
#include <typeflow/rnn/static_rnn.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
constexpr std::size_t batch = 4, symbols = 6;
using ids_t = xt::xtensor_fixed<std::int32_t, xt::xshape<batch>>;
using weights_t = xt::xtensor_fixed<float, xt::xshape<batch>>;

auto e0 = tf::placeholder<"e0", std::int32_t, tf::shape<batch>>();
auto e1 = tf::placeholder<"e1", std::int32_t, tf::shape<batch>>();
auto e2 = tf::placeholder<"e2", std::int32_t, tf::shape<batch>>();
auto d0 = tf::placeholder<"d0", std::int32_t, tf::shape<batch>>();
auto d1 = tf::placeholder<"d1", std::int32_t, tf::shape<batch>>();
auto d2 = tf::placeholder<"d2", std::int32_t, tf::shape<batch>>();
auto d3 = tf::placeholder<"d3", std::int32_t, tf::shape<batch>>();
auto d4 = tf::placeholder<"d4", std::int32_t, tf::shape<batch>>();
auto w0 = tf::placeholder<"w0", float, tf::shape<batch>>();
auto w1 = tf::placeholder<"w1", float, tf::shape<batch>>();
auto w2 = tf::placeholder<"w2", float, tf::shape<batch>>();
auto w3 = tf::placeholder<"w3", float, tf::shape<batch>>();

// encoder_inputs 3 steps, decoder inputs, targets (the decoder inputs shifted by one) and
// weights 4 steps; buckets (2, 2) and (3, 4).
auto encoder_inputs = std::tuple{e0, e1, e2};
auto decoder_inputs = std::tuple{d0, d1, d2, d3};
auto targets = std::tuple{d1, d2, d3, d4};
auto weights = std::tuple{w0, w1, w2, w3};
using two_buckets = rnn::buckets<rnn::bucket<2, 2>, rnn::bucket<3, 4>>;

// The model: embedding_rnn_seq2seq's structure, built from the cell wrappers.
struct copy_model {
  template <class E, class D>
  auto operator()(const E& encoder, const D& decoder) const {
    using cell = rnn::gru_cell<8>;
    auto [unused, state] = rnn::static_rnn<"seq2seq/encoder">(rnn::embedding_wrapper<cell, symbols, 5>{}, encoder);
    return rnn::static_rnn<"seq2seq/decoder">(
        rnn::output_projection_wrapper<rnn::embedding_wrapper<cell, symbols, 5>, symbols>{}, decoder, state);
  }
};

// A copy batch: the decoder reads GO (0) then the encoder's symbols; the targets are the
// symbols, then EOS-like 0.
template <class Sess, class Fetch>
auto run_batch(Sess& sess, const Fetch& fetch, std::mt19937& rng) {
  std::uniform_int_distribution<int> symbol(1, int(symbols) - 1);
  std::array<ids_t, 5> d{};
  std::array<ids_t, 3> e{};
  for (std::size_t b = 0; b < batch; ++b) {
    d[0](b) = 0;
    for (std::size_t t = 0; t < 3; ++t) d[t + 1](b) = e[t](b) = symbol(rng);
    d[4](b) = 0;
  }
  const weights_t ones = xt::ones<float>({batch});
  return sess.run(fetch, tf::feed(e0, e[0]), tf::feed(e1, e[1]), tf::feed(e2, e[2]), tf::feed(d0, d[0]),
                  tf::feed(d1, d[1]), tf::feed(d2, d[2]), tf::feed(d3, d[3]), tf::feed(d4, d[4]), tf::feed(w0, ones),
                  tf::feed(w1, ones), tf::feed(w2, ones), tf::feed(w3, ones));
}
}  // namespace

TEST_CASE("model_with_buckets: a graph per bucket over its first steps, one set of variables") {
  auto [outputs, losses] = rnn::model_with_buckets<two_buckets>(encoder_inputs, decoder_inputs, targets, weights, copy_model{});
  static_assert(std::tuple_size_v<std::remove_cvref_t<decltype(std::get<0>(outputs))>> == 2);
  static_assert(std::tuple_size_v<std::remove_cvref_t<decltype(std::get<1>(outputs))>> == 4);
  static_assert(tf::shape_of<std::tuple_element_t<0, std::remove_cvref_t<decltype(std::get<1>(outputs))>>>::dims[1] ==
                symbols);
  static_assert(tf::shape_of<std::remove_cvref_t<decltype(std::get<0>(losses))>>::rank == 0);
  tf::session both(std::get<0>(losses), std::get<1>(losses));
  tf::session larger(std::get<1>(losses));
  CHECK(both.uninitialized_names() == larger.uninitialized_names());  // the same variables
  CHECK(larger.uninitialized_names().size() == 12);  // 2 embeddings, 2 GRUs of 4, the projection's 2

  auto [per_example_outputs, per_example] =
      rnn::model_with_buckets<two_buckets, true>(encoder_inputs, decoder_inputs, targets, weights, copy_model{});
  static_assert(std::is_same_v<tf::shape_of<std::remove_cvref_t<decltype(std::get<0>(per_example))>>, tf::shape<batch>>);
  tf::session sess(std::get<0>(per_example), std::get<0>(losses));
  sess.initialize_all();
  std::mt19937 rng(1), same(1);
  const auto by_example = run_batch(sess, std::get<0>(per_example), rng);
  const float mean = run_batch(sess, std::get<0>(losses), same);
  CHECK(xt::mean(by_example)() == doctest::Approx(mean).epsilon(1e-6));
}

// seq2seq_test.py, testModelWithBuckets: per bucket, gradients of its loss over all
// variables, clip_by_global_norm(grads, 30.0), one Adam (0.03, epsilon 1e-5) applying them
// (the buckets share its slots); steps on buckets chosen at random; each bucket's last
// perplexity is below its first.
TEST_CASE("model_with_buckets trains each bucket with clipped gradients and one shared Adam") {
  auto [outputs, losses] = rnn::model_with_buckets<two_buckets>(encoder_inputs, decoder_inputs, targets, weights, copy_model{});
  auto opt = tf::train::adam(0.03, 0.9, 0.999, 1e-5);
  auto gs = tf::train::global_step();
  auto update_for = [&](const auto& loss) {
    auto pairs = opt.compute_gradients(loss);
    auto [clipped, norm] = tf::clip_by_global_norm(tf::train::gradients_of(pairs), tf::constant<30.0f>());
    return opt.apply_gradients(tf::train::zip(clipped, tf::train::variables_of(pairs)), gs);
  };
  auto update0 = update_for(std::get<0>(losses));
  auto update1 = update_for(std::get<1>(losses));
  using pairs_t = decltype(opt.compute_gradients(std::get<1>(losses)));
  static_assert(std::tuple_size_v<pairs_t> == 12);
  tf::session sess(update0, update1, std::get<0>(losses), std::get<1>(losses));
  sess.initialize_all();
  std::mt19937 rng(7), choose(11);
  std::array<float, 2> first{-1, -1}, last{};
  for (int step = 0; step < 40; ++step) {
    const std::size_t b = std::bernoulli_distribution(0.5)(choose) ? 1 : 0;
    float perplexity = 0;
    if (b == 0) {
      perplexity = std::exp(std::get<0>(run_batch(sess, tf::fetch(std::get<0>(losses), update0), rng)));
    } else {
      perplexity = std::exp(std::get<0>(run_batch(sess, tf::fetch(std::get<1>(losses), update1), rng)));
    }
    if (first[b] < 0) first[b] = perplexity;
    last[b] = perplexity;
  }
  CHECK(first[0] > 0);
  CHECK(first[1] > 0);
  CHECK(last[0] < first[0]);
  CHECK(last[1] < first[1]);
  CHECK(sess.run(gs) == 40);
}
