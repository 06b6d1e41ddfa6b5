// rnn::rnn_decoder and rnn::basic_rnn_seq2seq (rnn/seq2seq.hpp): TensorFlow's
// seq2seq_test.py testRNNDecoder and testBasicRNNSeq2Seq (the outputs' and the state's
// shapes), the variables' names, and feed_previous through a loop_function against the
// cell unrolled by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>

#include <typeflow/rnn/seq2seq.hpp>
#include <typeflow/typeflow.hpp>

#include "seq2seq_testing.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;
using namespace seq2seq_testing;

namespace {
using value22 = xt::xtensor_fixed<float, xt::xshape<2, 2>>;
value22 filled(float v) {
  value22 out{};
  out.fill(v);
  return out;
}
auto inp = tf::placeholder<"inp", float, tf::shape<2, 2>>();
auto dec = tf::placeholder<"dec", float, tf::shape<2, 2>>();
using shape_map = std::map<std::string, std::vector<std::ptrdiff_t>>;
}  // namespace

// seq2seq_test.py, testRNNDecoder: a GRUCell(2) encoder over two steps, then rnn_decoder of
// OutputProjectionWrapper(GRUCell(2), 4) over three; variables 0.5 (constant_initializer).
TEST_CASE("rnn_decoder: TensorFlow's testRNNDecoder") {
  auto [enc_outputs, enc_state] = rnn::static_rnn(rnn::gru_cell<2>{}, std::tuple{inp, inp});
  output_projection_wrapper<rnn::gru_cell<2>, 4> cell;
  auto [dec_outputs, mem] = rnn::rnn_decoder(std::tuple{dec, dec, dec}, enc_state, cell);
  static_assert(std::tuple_size_v<decltype(dec_outputs)> == 3);
  tf::session sess(std::get<2>(dec_outputs), mem);
  set_all_variables(sess, 0.5);
  auto res = sess.run(tf::fetch(std::get<0>(dec_outputs), std::get<1>(dec_outputs), std::get<2>(dec_outputs)),
                      tf::feed(inp, filled(0.5f)), tf::feed(dec, filled(0.4f)));
  CHECK(std::get<0>(res).shape()[0] == 2);
  CHECK(std::get<0>(res).shape()[1] == 4);
  auto m = sess.run(mem, tf::feed(inp, filled(0.5f)), tf::feed(dec, filled(0.4f)));
  CHECK(m.shape()[0] == 2);
  CHECK(m.shape()[1] == 2);
  // Every weight 0.5, every input the same: the projection's columns are equal, and the
  // three steps differ (the state moves).
  CHECK(std::get<0>(res)(0, 0) == std::get<0>(res)(1, 3));
  CHECK(std::get<0>(res)(0, 0) != std::get<2>(res)(0, 0));
  CHECK(variable_shapes<decltype(sess)>() ==
        shape_map{{"rnn/gru_cell/gates/kernel", {4, 4}},
                  {"rnn/gru_cell/gates/bias", {4}},
                  {"rnn/gru_cell/candidate/kernel", {4, 2}},
                  {"rnn/gru_cell/candidate/bias", {2}},
                  {"rnn_decoder/output_projection_wrapper/gru_cell/gates/kernel", {4, 4}},
                  {"rnn_decoder/output_projection_wrapper/gru_cell/gates/bias", {4}},
                  {"rnn_decoder/output_projection_wrapper/gru_cell/candidate/kernel", {4, 2}},
                  {"rnn_decoder/output_projection_wrapper/gru_cell/candidate/bias", {2}},
                  {"rnn_decoder/output_projection_wrapper/kernel", {2, 4}},
                  {"rnn_decoder/output_projection_wrapper/bias", {4}}});
}

// seq2seq_test.py, testBasicRNNSeq2Seq: the same model through basic_rnn_seq2seq, whose
// encoder is a copy of the cell under "basic_rnn_seq2seq/rnn".
TEST_CASE("basic_rnn_seq2seq: TensorFlow's testBasicRNNSeq2Seq") {
  output_projection_wrapper<rnn::gru_cell<2>, 4> cell;
  auto [dec_outputs, mem] = rnn::basic_rnn_seq2seq(std::tuple{inp, inp}, std::tuple{dec, dec, dec}, cell);
  static_assert(std::tuple_size_v<decltype(dec_outputs)> == 3);
  static_assert(std::is_same_v<tf::shape_of<decltype(mem)>, tf::shape<2, 2>>);
  tf::session sess(std::get<2>(dec_outputs), mem);
  set_all_variables(sess, 0.5);
  auto res = sess.run(std::get<0>(dec_outputs), tf::feed(inp, filled(0.5f)), tf::feed(dec, filled(0.4f)));
  CHECK(res.shape()[0] == 2);
  CHECK(res.shape()[1] == 4);
  auto m = sess.run(mem, tf::feed(inp, filled(0.5f)), tf::feed(dec, filled(0.4f)));
  CHECK(m.shape()[0] == 2);
  CHECK(m.shape()[1] == 2);
  // TensorFlow also creates the encoder's projection (".../rnn/output_projection_wrapper/kernel"),
  // whose outputs nothing reads: a session holds what its roots reach, the state only.
  const std::string enc = "basic_rnn_seq2seq/rnn/output_projection_wrapper/";
  const std::string dcd = "basic_rnn_seq2seq/rnn_decoder/output_projection_wrapper/";
  CHECK(variable_shapes<decltype(sess)>() == shape_map{{enc + "gru_cell/gates/kernel", {4, 4}},
                                                       {enc + "gru_cell/gates/bias", {4}},
                                                       {enc + "gru_cell/candidate/kernel", {4, 2}},
                                                       {enc + "gru_cell/candidate/bias", {2}},
                                                       {dcd + "gru_cell/gates/kernel", {4, 4}},
                                                       {dcd + "gru_cell/gates/bias", {4}},
                                                       {dcd + "gru_cell/candidate/kernel", {4, 2}},
                                                       {dcd + "gru_cell/candidate/bias", {2}},
                                                       {dcd + "kernel", {2, 4}},
                                                       {dcd + "bias", {4}}});
  // The decoder starts from the encoder's final state: the same decoder from zeros differs.
  auto [zero_outputs, zero_mem] = rnn::rnn_decoder<"basic_rnn_seq2seq/rnn_decoder">(
      std::tuple{dec, dec, dec}, rnn::zero_state(cell, dec), cell);
  tf::session both(std::get<0>(dec_outputs), std::get<0>(zero_outputs));
  set_all_variables(both, 0.5);
  auto [from_encoder, from_zeros] = both.run(tf::fetch(std::get<0>(dec_outputs), std::get<0>(zero_outputs)),
                                             tf::feed(inp, filled(0.5f)), tf::feed(dec, filled(0.4f)));
  CHECK(std::abs(from_encoder(0, 0) - from_zeros(0, 0)) > 1e-3f);
}

// feed_previous: from step 1 on the input is loop_function(previous output, i); the decoder
// inputs after the first are not on the path (not fed here: rule 3 would reject them).
TEST_CASE("rnn_decoder: a loop_function feeds the previous output back") {
  auto d0 = tf::placeholder<"d0", float, tf::shape<2, 2>>();
  auto d1 = tf::placeholder<"d1", float, tf::shape<2, 2>>();
  auto d2 = tf::placeholder<"d2", float, tf::shape<2, 2>>();
  auto h = tf::placeholder<"h", float, tf::shape<2, 2>>();
  rnn::gru_cell<2> cell;
  std::vector<std::size_t> steps;
  auto loop = [&](const auto& prev, std::size_t i) {
    steps.push_back(i);
    return tf::constant<2.0f>() * prev;
  };
  auto [outs, fin] = rnn::rnn_decoder(std::tuple{d0, d1, d2}, h, cell, loop);
  CHECK(steps == std::vector<std::size_t>{1, 2});
  // By hand: the same cell in the same scope, each input twice the previous output.
  auto [o0, s0] = cell.call<"rnn_decoder">(d0, h);
  auto [o1, s1] = cell.call<"rnn_decoder">(tf::constant<2.0f>() * o0, s0);
  auto [o2, s2] = cell.call<"rnn_decoder">(tf::constant<2.0f>() * o1, s1);
  static_assert(std::is_same_v<decltype(std::get<2>(outs)), decltype(o2)&>);
  static_assert(std::is_same_v<decltype(fin), decltype(s2)>);
  tf::session sess(std::get<2>(outs), o2);
  sess.run(tf::global_variables_initializer());
  value22 x{{0.3f, -0.7f}, {0.9f, 0.1f}}, h0{{0.2f, 0.4f}, {-0.5f, 0.6f}};
  auto [a, b] = sess.run(tf::fetch(std::get<2>(outs), o2), tf::feed(d0, x), tf::feed(h, h0));
  for (std::size_t i = 0; i < 4; ++i) CHECK(a.flat(i) == b.flat(i));
  // Without the loop function the later inputs are read: fed o0 and o1 they give the same.
  auto [plain, plain_fin] = rnn::rnn_decoder(std::tuple{d0, d1, d2}, h, cell);
  (void)plain_fin;
  tf::session sess2(std::get<2>(plain), o0, o1);
  sess2.run(tf::global_variables_initializer());
  auto [v0, v1] = sess2.run(tf::fetch(o0, o1), tf::feed(d0, x), tf::feed(h, h0));
  value22 twice0 = 2.0f * v0, twice1 = 2.0f * v1;
  auto c = sess2.run(std::get<2>(plain), tf::feed(d0, x), tf::feed(d1, twice0), tf::feed(d2, twice1), tf::feed(h, h0));
  for (std::size_t i = 0; i < 4; ++i) CHECK(c.flat(i) == doctest::Approx(b.flat(i)).epsilon(1e-5));
}
