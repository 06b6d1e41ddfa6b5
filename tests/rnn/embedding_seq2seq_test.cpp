// rnn/embedding_seq2seq.hpp: seq2seq_test.py's testEmbeddingRNNSeq2Seq,
// testEmbeddingAttentionDecoder and testEmbeddingAttentionSeq2Seq (the outputs' shapes, an
// external output projection, feed_previous ignoring the decoder inputs after the first),
// TensorFlow's variable names. (The embeddings' sparse gradients: rnn.wrappers,
// train.sparse_update and the training of rnn.seq2seq_buckets.)
// typeflow local to this unit (<typeflow/tu_local.hpp>): this test's unrolled graphs compile
// in a sixth to a third less time; built without the tests' precompiled header (CMakeLists.txt).
#include <typeflow/tu_local.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <typeflow/rnn/embedding_seq2seq.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace rnn = typeflow::rnn;

namespace {
// enc_inp = [constant(1, int32, [2]) for i in range(2)]; dec_inp = [constant(i, int32, [2]) for i in range(3)]
auto e = tf::constant<"enc_inp">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{1, 1});
auto d0 = tf::constant<"dec_inp0">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{0, 0});
auto d1 = tf::constant<"dec_inp1">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{1, 1});
auto d2 = tf::constant<"dec_inp2">(xt::xtensor_fixed<std::int32_t, xt::xshape<2>>{2, 2});
const auto enc_inp = std::tuple{e, e};
const auto dec_inp = std::tuple{d0, d1, d2};
const auto dec_inp2 = std::tuple{d0, d0, d0};  // dec_inp2 = [constant(0, int32, [2]) for _ in range(3)]
using cell = rnn::gru_cell<2>;

bool has(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}
template <class T>
using shape_t = tf::shape_of<std::remove_cvref_t<T>>;
}  // namespace

TEST_CASE("embedding_rnn_seq2seq: outputs [2, 5] per step, a projection's [2, 2], feed_previous") {
  auto [dec, mem] = rnn::embedding_rnn_seq2seq<2, 5, 2>(enc_inp, dec_inp, cell{});
  static_assert(std::tuple_size_v<decltype(dec)> == 3);
  static_assert(std::is_same_v<shape_t<decltype(std::get<0>(dec))>, tf::shape<2, 5>>);
  static_assert(std::is_same_v<shape_t<decltype(mem)>, tf::shape<2, 2>>);
  auto w = tf::variable<"proj_w", float, tf::shape<2, 5>>();
  auto b = tf::variable<"proj_b", float, tf::shape<5>>();
  auto [projected, unused] =
      rnn::embedding_rnn_seq2seq<2, 5, 2, false, "proj_seq2seq">(enc_inp, dec_inp, cell{}, rnn::output_projection(w, b));
  static_assert(std::is_same_v<shape_t<decltype(std::get<0>(projected))>, tf::shape<2, 2>>);
  // With feed_previous the decoder inputs after the first are ignored (the "other" scopes).
  auto [fed1, s1] = rnn::embedding_rnn_seq2seq<2, 5, 2, true, "other">(enc_inp, dec_inp, cell{});
  auto [fed2, s2] = rnn::embedding_rnn_seq2seq<2, 5, 2, true, "other">(enc_inp, dec_inp2, cell{});
  tf::session sess(std::get<2>(dec), mem, std::get<2>(projected), std::get<2>(fed1), std::get<2>(fed2));
  const auto names = sess.uninitialized_names();
  CHECK(has(names, "embedding_rnn_seq2seq/rnn/embedding_wrapper/embedding"));
  CHECK(has(names, "embedding_rnn_seq2seq/rnn/embedding_wrapper/gru_cell/gates/kernel"));
  CHECK(has(names, "embedding_rnn_seq2seq/embedding_rnn_decoder/embedding"));
  CHECK(has(names, "embedding_rnn_seq2seq/embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/kernel"));
  CHECK(has(names, "embedding_rnn_seq2seq/embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/gru_cell/gates/kernel"));
  CHECK(!has(names, "proj_seq2seq/embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/kernel"));
  sess.initialize_all();
  CHECK(sess.run(std::get<0>(dec)).shape()[1] == 5);
  const auto r1 = sess.run(std::get<2>(fed1));
  const auto r2 = sess.run(std::get<2>(fed2));
  CHECK(xt::allclose(r1, r2));
  CHECK(!xt::allclose(sess.run(std::get<2>(dec)), r1));  // teacher forcing reads dec_inp[2]
}

TEST_CASE("embedding_attention_decoder: outputs and state of the cell over attention states") {
  auto attn = tf::constant<"attn">(xt::xtensor_fixed<float, xt::xshape<2, 3, 2>>(xt::ones<float>({2, 3, 2})));
  auto state = tf::constant<"state">(xt::xtensor_fixed<float, xt::xshape<2, 2>>(xt::ones<float>({2, 2})));
  auto [dec, mem] = rnn::embedding_attention_decoder<5, 2, 1, 3>(dec_inp, state, attn, cell{});
  static_assert(std::tuple_size_v<decltype(dec)> == 3);
  static_assert(std::is_same_v<shape_t<decltype(std::get<0>(dec))>, tf::shape<2, 3>>);
  static_assert(std::is_same_v<shape_t<decltype(mem)>, tf::shape<2, 2>>);
  tf::session sess(std::get<2>(dec));
  const auto names = sess.uninitialized_names();
  CHECK(has(names, "embedding_attention_decoder/embedding"));
  CHECK(has(names, "embedding_attention_decoder/attention_decoder/AttnW_0"));
  CHECK(has(names, "embedding_attention_decoder/attention_decoder/gru_cell/gates/kernel"));
  sess.initialize_all();
  CHECK(sess.run(std::get<2>(dec)).shape()[1] == 3);
}

TEST_CASE("embedding_attention_seq2seq: shapes, a projection, feed_previous") {
  auto [dec, mem] = rnn::embedding_attention_seq2seq<2, 5, 2>(enc_inp, dec_inp, cell{});
  static_assert(std::tuple_size_v<decltype(dec)> == 3);
  static_assert(std::is_same_v<shape_t<decltype(std::get<0>(dec))>, tf::shape<2, 5>>);
  static_assert(std::is_same_v<shape_t<decltype(mem)>, tf::shape<2, 2>>);
  auto w = tf::variable<"proj_w", float, tf::shape<2, 5>>();
  auto b = tf::variable<"proj_b", float, tf::shape<5>>();
  auto [projected, unused] = rnn::embedding_attention_seq2seq<2, 5, 2, 1, false, false, "proj_seq2seq">(
      enc_inp, dec_inp, cell{}, rnn::output_projection(w, b));
  static_assert(std::is_same_v<shape_t<decltype(std::get<0>(projected))>, tf::shape<2, 2>>);
  auto [fed1, s1] = rnn::embedding_attention_seq2seq<2, 5, 2, 1, true, false, "other">(enc_inp, dec_inp, cell{});
  auto [fed2, s2] = rnn::embedding_attention_seq2seq<2, 5, 2, 1, true, false, "other">(enc_inp, dec_inp2, cell{});

  tf::session sess(std::get<2>(dec), mem, std::get<2>(projected), std::get<2>(fed1), std::get<2>(fed2));
  const auto names = sess.uninitialized_names();
  CHECK(has(names, "embedding_attention_seq2seq/rnn/embedding_wrapper/embedding"));
  CHECK(has(names, "embedding_attention_seq2seq/embedding_attention_decoder/embedding"));
  CHECK(has(names, "embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/AttnW_0"));
  CHECK(has(names,
            "embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/kernel"));
  CHECK(has(names, "embedding_attention_seq2seq/embedding_attention_decoder/attention_decoder/output_projection_wrapper/"
                   "gru_cell/gates/kernel"));
  CHECK(has(names, "proj_seq2seq/embedding_attention_decoder/attention_decoder/gru_cell/gates/kernel"));
  sess.initialize_all();
  CHECK(xt::allclose(sess.run(std::get<2>(fed1)), sess.run(std::get<2>(fed2))));
  CHECK(sess.run(std::get<0>(dec)).shape()[1] == 5);
}
