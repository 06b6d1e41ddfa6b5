// rnn::attention_decoder (rnn/seq2seq.hpp): TensorFlow's seq2seq_test.py
// testAttentionDecoder1 and testAttentionDecoder2 (the outputs' and the state's shapes), the
// variables' names and shapes, two decoders' values against an independent reference
// (benchmarks/rnn/reference_attention_decoder.py: two heads; an LSTM with
// initial_state_attention), feed_previous, and a dyn batch.
// typeflow local to this unit (<typeflow/tu_local.hpp>): this test's unrolled graphs compile
// in a sixth to a third less time; built without the tests' precompiled header (CMakeLists.txt).
#include <typeflow/tu_local.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/rnn/seq2seq.hpp>
#include <typeflow/typeflow.hpp>

#include "attention_reference.hpp"
#include "rnn_testing.hpp"
#include "seq2seq_testing.hpp"

namespace tf = typeflow;
namespace rnn = typeflow::rnn;
namespace ref = attention_reference;
using namespace seq2seq_testing;

namespace {
using value22 = xt::xtensor_fixed<float, xt::xshape<2, 2>>;
value22 filled(float v) {
  value22 out{};
  out.fill(v);
  return out;
}
using shape_map = std::map<std::string, std::vector<std::ptrdiff_t>>;

// seq2seq_test.py's testAttentionDecoder1 (NumHeads 1) and testAttentionDecoder2 (2): a
// GRUCell(2) encoder over two steps, its outputs stacked as the attention states [2, 2, 2],
// a new GRUCell(2) attention decoder over three steps, output_size 4; variables 0.5.
template <std::size_t NumHeads>
void tf_attention_decoder_test() {
  auto inp = tf::placeholder<"inp", float, tf::shape<2, 2>>();
  auto dec = tf::placeholder<"dec", float, tf::shape<2, 2>>();
  auto [enc_outputs, enc_state] = rnn::static_rnn(rnn::gru_cell<2>{}, std::tuple{inp, inp});
  auto attn_states = tf::concat<1>(tf::reshape<tf::shape<tf::dyn, 1, 2>>(std::get<0>(enc_outputs)),
                                   tf::reshape<tf::shape<tf::dyn, 1, 2>>(std::get<1>(enc_outputs)));
  auto [outs, mem] =
      rnn::attention_decoder<4, NumHeads>(std::tuple{dec, dec, dec}, enc_state, attn_states, rnn::gru_cell<2>{});
  static_assert(std::tuple_size_v<decltype(outs)> == 3);
  tf::session sess(std::get<0>(outs), std::get<1>(outs), std::get<2>(outs), mem);
  set_all_variables(sess, 0.5);
  auto res = sess.run(std::get<0>(outs), tf::feed(inp, filled(0.5f)), tf::feed(dec, filled(0.4f)));
  CHECK(res.shape()[0] == 2);
  CHECK(res.shape()[1] == 4);
  auto m = sess.run(mem, tf::feed(inp, filled(0.5f)), tf::feed(dec, filled(0.4f)));
  CHECK(m.shape()[0] == 2);
  CHECK(m.shape()[1] == 2);

  shape_map expected{{"rnn/gru_cell/gates/kernel", {4, 4}},
                     {"rnn/gru_cell/gates/bias", {4}},
                     {"rnn/gru_cell/candidate/kernel", {4, 2}},
                     {"rnn/gru_cell/candidate/bias", {2}},
                     {"attention_decoder/kernel", {2 + 2 * std::ptrdiff_t(NumHeads), 2}},
                     {"attention_decoder/bias", {2}},
                     {"attention_decoder/gru_cell/gates/kernel", {4, 4}},
                     {"attention_decoder/gru_cell/gates/bias", {4}},
                     {"attention_decoder/gru_cell/candidate/kernel", {4, 2}},
                     {"attention_decoder/gru_cell/candidate/bias", {2}},
                     {"attention_decoder/AttnOutputProjection/kernel", {2 + 2 * std::ptrdiff_t(NumHeads), 4}},
                     {"attention_decoder/AttnOutputProjection/bias", {4}}};
  for (std::size_t a = 0; a < NumHeads; ++a) {
    const std::string i = std::to_string(a);
    expected["attention_decoder/AttnW_" + i] = {1, 1, 2, 2};
    expected["attention_decoder/AttnV_" + i] = {2};
    expected["attention_decoder/Attention_" + i + "/kernel"] = {2, 2};
    expected["attention_decoder/Attention_" + i + "/bias"] = {2};
  }
  CHECK(variable_shapes<decltype(sess)>() == expected);
}
}  // namespace

TEST_CASE("attention_decoder: TensorFlow's testAttentionDecoder1") { tf_attention_decoder_test<1>(); }

TEST_CASE("attention_decoder: TensorFlow's testAttentionDecoder2 (two heads)") { tf_attention_decoder_test<2>(); }

namespace {
using namespace rnn_testing;
using att_value = xt::xtensor_fixed<double, xt::xshape<2, 3, 5>>;
att_value attention_states_value() {
  att_value v{};
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t l = 0; l < 3; ++l)
      for (std::size_t a = 0; a < 5; ++a) v(b, l, a) = 0.7 * std::cos(0.5 * double(b * 15 + l * 5 + a) + 0.3);
  return v;
}
auto x0 = tf::placeholder<"x0", double, tf::shape<2, 3>>();
auto x1 = tf::placeholder<"x1", double, tf::shape<2, 3>>();
auto att = tf::placeholder<"att", double, tf::shape<2, 3, 5>>();
auto h = tf::placeholder<"h", double, tf::shape<2, 4>>();
auto c = tf::placeholder<"c", double, tf::shape<2, 4>>();
}  // namespace

TEST_CASE("attention_decoder: two heads, output_size 6, against the reference") {
  auto [outs, fin] = rnn::attention_decoder<6, 2>(std::tuple{x0, x1}, h, att, rnn::gru_cell<4>{});
  tf::session sess(std::get<1>(outs), fin);
  set_reference_weights(sess);
  auto [o0, o1, s] = sess.run(tf::fetch(std::get<0>(outs), std::get<1>(outs), fin), tf::feed(x0, input(0)),
                              tf::feed(x1, input(1)), tf::feed(att, attention_states_value()), tf::feed(h, h0()));
  check_close(o0, ref::gru2_outputs, 0, 1e-12);
  check_close(o1, ref::gru2_outputs, 12, 1e-12);
  check_close(s, ref::gru2_state, 0, 1e-12);
}

TEST_CASE("attention_decoder: an LSTM, initial_state_attention, against the reference") {
  rnn::basic_lstm_cell<4> cell;
  auto [outs, fin] = rnn::attention_decoder<rnn::cell_output_size, 1, true>(
      std::tuple{x0, x1}, rnn::lstm_state_tuple{c, h}, att, cell);
  static_assert(std::is_same_v<tf::shape_of<std::remove_cvref_t<decltype(std::get<0>(outs))>>, tf::shape<2, 4>>);
  tf::session sess(std::get<1>(outs), fin.c, fin.h);
  set_reference_weights(sess);
  auto [o0, o1, sc, sh] =
      sess.run(tf::fetch(std::get<0>(outs), std::get<1>(outs), fin.c, fin.h), tf::feed(x0, input(0)),
               tf::feed(x1, input(1)), tf::feed(att, attention_states_value()), tf::feed(h, h0()), tf::feed(c, c0()));
  check_close(o0, ref::lstm1_outputs, 0, 1e-12);
  check_close(o1, ref::lstm1_outputs, 8, 1e-12);
  check_close(sc, ref::lstm1_state, 0, 1e-12);
  check_close(sh, ref::lstm1_state, 8, 1e-12);
}

// feed_previous: from step 1 on the input is loop_function(previous output, i), here the
// output itself (output_size 3 = the input depth); only the first decoder input is fed.
TEST_CASE("attention_decoder: a loop_function feeds the previous output back") {
  auto x2 = tf::placeholder<"x2", double, tf::shape<2, 3>>();
  std::vector<std::size_t> steps;
  auto loop = [&](const auto& prev, auto i) {
    static_assert(std::is_same_v<decltype(i), std::integral_constant<std::size_t, decltype(i)::value>>);
    steps.push_back(i);
    return prev;
  };
  rnn::gru_cell<4> cell;
  auto [outs, fin] = rnn::attention_decoder<3>(std::tuple{x0, x1, x2}, h, att, cell, loop);
  CHECK(steps == std::vector<std::size_t>{1, 2});
  auto [plain, plain_fin] = rnn::attention_decoder<3>(std::tuple{x0, x1, x2}, h, att, cell);
  tf::session sess(std::get<2>(outs), fin, std::get<2>(plain), plain_fin);
  sess.run(tf::global_variables_initializer());
  const auto a = attention_states_value();
  auto [f0, f1, f2, ff] = sess.run(tf::fetch(std::get<0>(outs), std::get<1>(outs), std::get<2>(outs), fin),
                                   tf::feed(x0, input(0)), tf::feed(att, a), tf::feed(h, h0()));
  // The decoder without a loop function, fed the outputs as its later inputs, agrees.
  auto [p2, pf] = sess.run(tf::fetch(std::get<2>(plain), plain_fin), tf::feed(x0, input(0)), tf::feed(x1, f0),
                           tf::feed(x2, f1), tf::feed(att, a), tf::feed(h, h0()));
  for (std::size_t i = 0; i < f2.size(); ++i) CHECK(p2.flat(i) == doctest::Approx(f2.flat(i)).epsilon(1e-12));
  for (std::size_t i = 0; i < ff.size(); ++i) CHECK(pf.flat(i) == doctest::Approx(ff.flat(i)).epsilon(1e-12));
  // And differs from it fed other inputs (the loop's outputs are not the decoder inputs).
  auto p2x = sess.run(std::get<2>(plain), tf::feed(x0, input(0)), tf::feed(x1, input(1)), tf::feed(x2, input(2)),
                      tf::feed(att, a), tf::feed(h, h0()));
  CHECK(std::abs(p2x(0, 0) - f2(0, 0)) > 1e-6);
}

TEST_CASE("attention_decoder: a dyn batch") {
  auto d0 = tf::placeholder<"d0", double, tf::shape<tf::dyn, 3>>();
  auto datt = tf::placeholder<"datt", double, tf::shape<tf::dyn, 3, 5>>();
  auto dh = tf::placeholder<"dh", double, tf::shape<tf::dyn, 4>>();
  auto [outs, fin] = rnn::attention_decoder<6, 2>(std::tuple{d0, d0}, dh, datt, rnn::gru_cell<4>{});
  static_assert(std::is_same_v<tf::shape_of<std::remove_cvref_t<decltype(std::get<1>(outs))>>, tf::shape<tf::dyn, 6>>);
  tf::session sess(std::get<1>(outs), fin);
  set_reference_weights(sess);
  xt::xtensor<double, 2> x = input(0), hv = h0();
  xt::xtensor<double, 3> a = attention_states_value();
  auto [o1, s] = sess.run(tf::fetch(std::get<1>(outs), fin), tf::feed(d0, x), tf::feed(datt, a), tf::feed(dh, hv));
  CHECK(o1.shape()[0] == 2);
  CHECK(o1.shape()[1] == 6);
  CHECK(s.shape()[0] == 2);
}

namespace {
template <class N>
struct is_loop : std::false_type {};
template <class... A>
struct is_loop<tf::control::detail::loop_node<A...>> : std::true_type {};
// The loop nodes among the nodes N depends on.
template <class N>
using loops_of = boost::mp11::mp_copy_if<tf::graph::graph_order<N>, is_loop>;
}  // namespace

// Without a loop_function the decoder is one loop in the graph: its step is one body type,
// the same for two decoder steps and for three, so its compile cost does not grow with them.
TEST_CASE("attention_decoder: one loop whose body does not depend on the number of steps") {
  auto x2 = tf::placeholder<"x2", double, tf::shape<2, 3>>();
  auto [two, two_fin] = rnn::attention_decoder<6, 2>(std::tuple{x0, x1}, h, att, rnn::gru_cell<4>{});
  auto [three, three_fin] = rnn::attention_decoder<6, 2>(std::tuple{x0, x1, x2}, h, att, rnn::gru_cell<4>{});
  using L2 = loops_of<std::remove_cvref_t<decltype(std::get<1>(two))>>;
  using L3 = loops_of<std::remove_cvref_t<decltype(std::get<2>(three))>>;
  static_assert(boost::mp11::mp_size<L2>::value == 1 && boost::mp11::mp_size<L3>::value == 1);
  static_assert(std::is_same_v<typename boost::mp11::mp_front<L2>::body_type, typename boost::mp11::mp_front<L3>::body_type>);
  // With a loop_function the steps are unrolled.
  auto [fed, fed_fin] = rnn::attention_decoder<3>(std::tuple{x0, x1}, h, att, rnn::gru_cell<4>{},
                                                  [](const auto& prev, auto) { return prev; });
  static_assert(boost::mp11::mp_empty<loops_of<std::remove_cvref_t<decltype(std::get<1>(fed))>>>::value);
  // Two steps and three agree on the first two outputs.
  tf::session sess(std::get<1>(two), std::get<1>(three), three_fin, two_fin);
  set_reference_weights(sess);
  const auto a = attention_states_value();
  auto [o2, o3] = sess.run(tf::fetch(std::get<1>(two), std::get<1>(three)), tf::feed(x0, input(0)), tf::feed(x1, input(1)),
                           tf::feed(x2, input(2)), tf::feed(att, a), tf::feed(h, h0()));
  check_close(o2, ref::gru2_outputs, 12, 1e-12);
  check_close(o3, ref::gru2_outputs, 12, 1e-12);
}

// A loop_function of the previous output alone (TensorFlow's feed_previous, as
// embedding_attention_decoder's) runs in a loop in the graph: step 0 built as the unrolled
// decoder builds it, steps 1 on one loop whose body is the same type for four steps and for
// five. Its values are the unrolled decoder's (a loop_function(prev, i) of the same
// function), and the decoder inputs after the first stay off the path: only x0 is fed.
TEST_CASE("attention_decoder: a loop_function of the previous output runs in a loop in the graph") {
  auto x2 = tf::placeholder<"x2", double, tf::shape<2, 3>>();
  auto x3 = tf::placeholder<"x3", double, tf::shape<2, 3>>();
  auto x4 = tf::placeholder<"x4", double, tf::shape<2, 3>>();
  auto back = [](const auto& prev) { return tf::tanh(prev); };
  auto back_at = [](const auto& prev, auto) { return tf::tanh(prev); };
  rnn::gru_cell<4> cell;
  auto [looped, looped_fin] = rnn::attention_decoder<3, 2>(std::tuple{x0, x1, x2, x3}, h, att, cell, back);
  auto [five, five_fin] = rnn::attention_decoder<3, 2>(std::tuple{x0, x1, x2, x3, x4}, h, att, cell, back);
  auto [unrolled, unrolled_fin] = rnn::attention_decoder<3, 2>(std::tuple{x0, x1, x2, x3}, h, att, cell, back_at);
  using L4 = loops_of<std::remove_cvref_t<decltype(std::get<3>(looped))>>;
  using L5 = loops_of<std::remove_cvref_t<decltype(std::get<4>(five))>>;
  static_assert(boost::mp11::mp_size<L4>::value == 1 && boost::mp11::mp_size<L5>::value == 1);
  static_assert(
      std::is_same_v<typename boost::mp11::mp_front<L4>::body_type, typename boost::mp11::mp_front<L5>::body_type>);
  static_assert(boost::mp11::mp_empty<loops_of<std::remove_cvref_t<decltype(std::get<3>(unrolled))>>>::value);
  static_assert(std::is_same_v<tf::shape_of<std::remove_cvref_t<decltype(std::get<3>(looped))>>, tf::shape<2, 3>>);

  tf::session sess(std::get<0>(looped), std::get<3>(looped), looped_fin, std::get<4>(five), five_fin,
                   std::get<3>(unrolled), unrolled_fin);
  set_reference_weights(sess);
  const auto a = attention_states_value();
  auto [l0, l3, lf, f4, ff] =
      sess.run(tf::fetch(std::get<0>(looped), std::get<3>(looped), looped_fin, std::get<4>(five), five_fin),
               tf::feed(x0, input(0)), tf::feed(att, a), tf::feed(h, h0()));
  auto [u0, u3, uf] = sess.run(tf::fetch(std::get<0>(unrolled), std::get<3>(unrolled), unrolled_fin),
                               tf::feed(x0, input(0)), tf::feed(att, a), tf::feed(h, h0()));
  for (std::size_t i = 0; i < u0.size(); ++i) CHECK(l0.flat(i) == doctest::Approx(u0.flat(i)).epsilon(1e-12));
  for (std::size_t i = 0; i < u3.size(); ++i) CHECK(l3.flat(i) == doctest::Approx(u3.flat(i)).epsilon(1e-12));
  for (std::size_t i = 0; i < uf.size(); ++i) CHECK(lf.flat(i) == doctest::Approx(uf.flat(i)).epsilon(1e-12));
  // The fifth step moves on from the fourth: its output and state are not the fourth's.
  CHECK(std::abs(f4(0, 0) - l3(0, 0)) > 1e-9);
  CHECK(std::abs(ff(0, 0) - lf(0, 0)) > 1e-9);
}
