// Saved models as TensorFlow programs use them: load(sess, {serving_tag}, dir) as
// loader.load(sess, [tag_constants.SERVING], dir); layers::dense names its ops as
// tf.layers.dense does, so "dense/BiasAdd:0" is found in an export; a load that fails on a
// node or a signature says what differs on each side; an export whose files are not
// regular files (a directory, a FIFO) is refused at once.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serving_testing.hpp"

using namespace serving_testing;

namespace {

inline auto px = tf::placeholder<"tp_x", float, tf::shape<tf::dyn, 3>>();
inline auto hidden = tf::layers::dense<4>(px, tf::activation::relu, tf::init::glorot_uniform(1));
inline auto out = tf::layers::dense<2, "dense_1">(hidden, tf::activation::linear, tf::init::glorot_uniform(2));
inline auto out_probs = tf::softmax(out);

std::filesystem::path export_dense(const temp_dir& tmp) {
  tf::session sess(out_probs);
  sess.initialize_all();
  return sm::simple_save(sess, tmp.path / "export", sm::inputs<"features">(px), sm::outputs<"probs">(out_probs));
}

}  // namespace

TEST_CASE("parity: load(sess, {serving_tag}, dir) reads as loader.load(sess, [tag_constants.SERVING], dir)") {
  temp_dir tmp;
  const auto dir = export_dense(tmp);
  tf::session serve(out_probs);
  const auto model = sm::load(serve, {sm::serving_tag}, dir);
  CHECK(model.meta_graph().tags == std::vector<std::string>{"serve"});
  static_assert(sm::serving_tag == "serve" && sm::training_tag == "train" && sm::gpu_tag == "gpu" &&
                sm::tpu_tag == "tpu");
  CHECK_THROWS_WITH_AS(sm::load(serve, {sm::serving_tag, sm::gpu_tag}, dir),
                       doctest::Contains("MetaGraphDef associated with tags {serve, gpu} could not be found"),
                       tf::not_found_error);
}

TEST_CASE("parity: layers::dense names its ops as tf.layers.dense: dense/MatMul, dense/BiasAdd, dense/Relu") {
  const auto g = tf::describe_graph(out_probs);
  std::vector<std::string> names;
  for (const auto& n : g.nodes) names.push_back(n.name + " " + n.op);
  CHECK(names == std::vector<std::string>{"tp_x Placeholder", "dense/kernel VariableV2", "dense/MatMul MatMul",
                                          "dense/bias VariableV2", "dense/BiasAdd BiasAdd", "dense/Relu Relu",
                                          "dense_1/kernel VariableV2", "dense_1/MatMul MatMul",
                                          "dense_1/bias VariableV2", "dense_1/BiasAdd BiasAdd", "Softmax Softmax"});
  // The input keeps its names: a layer over an anonymous op does not pull it into its scope.
  auto sum = px + px;
  const auto over_sum = tf::describe_graph(tf::layers::dense<2, "over_sum">(sum));
  CHECK(over_sum.find("add") != nullptr);
  CHECK(over_sum.find("over_sum/add") == nullptr);
  CHECK(over_sum.find("over_sum/BiasAdd") != nullptr);
}

TEST_CASE("parity: get_tensor_by_name(\"dense/BiasAdd:0\") on an exported saved model") {
  temp_dir tmp;
  const auto dir = export_dense(tmp);
  tf::session serve(out_probs);
  const auto model = sm::load(serve, {sm::serving_tag}, dir);
  const auto logits = model.get_tensor_by_name("dense_1/BiasAdd:0");
  CHECK(logits.dtype == tf::dtype::float32);
  CHECK(logits.shape == std::vector<std::int64_t>{-1, 2});
  CHECK(model.get_tensor_by_name("dense/BiasAdd:0").shape == std::vector<std::int64_t>{-1, 4});
  CHECK(model.get_tensor_by_name("dense/MatMul:0").shape == std::vector<std::int64_t>{-1, 4});
  CHECK(model.get_tensor_by_name("dense/Relu:0").shape == std::vector<std::int64_t>{-1, 4});
  CHECK(model.get_tensor_by_name("dense/kernel:0").shape == std::vector<std::int64_t>{3, 4});
  CHECK(model.get_tensor_by_name("dense_1/bias:0").shape == std::vector<std::int64_t>{2});

  const auto got = model.run_by_name({"dense_1/BiasAdd:0", "dense/Relu:0"}, {{"tp_x:0", features()}});
  const auto [expected_logits, expected_hidden] = serve.run(tf::fetch(out, hidden), tf::feed(px, features()));
  CHECK(got[0].as<float>() == xt::xarray<float>(expected_logits));
  CHECK(got[1].as<float>() == xt::xarray<float>(expected_hidden));
}

TEST_CASE("parity: a dense layer's gradient reuses its forward ops (no unscoped copy of dense/Relu)") {
  // An elementwise op's gradient rule names the op itself (relu's gradient is ReluGrad of
  // its output): in a scope, that must be the scoped op, or the backward pass would compute
  // an unscoped Relu again.
  auto loss = tf::reduce_sum(out);
  auto kernel = tf::variable<"dense/kernel", float, tf::shape<3, 4>>(tf::init::glorot_uniform(1));
  const auto g = tf::describe_graph(tf::gradient(loss, kernel));
  int relus = 0;
  for (const auto& n : g.nodes) relus += n.op == "Relu";
  CHECK(relus == 1);
  CHECK(g.find("dense/Relu") != nullptr);
  CHECK(g.find("ReluGrad") != nullptr);
  CHECK(g.find("ReluGrad")->inputs[1] == "dense/Relu");
}

TEST_CASE("parity: a dense layer trains through BiasAdd (its gradient is an add's)") {
  auto labels = tf::placeholder<"tp_labels", float, tf::shape<tf::dyn, 2>>();
  auto loss = tf::reduce_mean(tf::square(out - labels));
  auto train = tf::train::gradient_descent(0.1).minimize(loss);
  tf::session sess(train, loss);
  sess.initialize_all();
  const xt::xtensor<float, 2> y = {{1.0f, 0.0f}, {0.0f, 1.0f}};
  const float before = sess.run(loss, tf::feed(px, features()), tf::feed(labels, y));
  for (int i = 0; i < 50; ++i) sess.run(train, tf::feed(px, features()), tf::feed(labels, y));
  CHECK(sess.run(loss, tf::feed(px, features()), tf::feed(labels, y)) < 0.5f * before);
}

TEST_CASE("parity: a node that differs from the export's node of the same name says what differs") {
  temp_dir tmp;
  auto square = tf::variable<"tp_square", float, tf::shape<2, 2>>(tf::init::constant(1));
  SUBCASE("a constant of another value: named, not shown twice") {
    tf::session sess(out * tf::constant<2.0f>());
    sess.initialize_all();
    const auto dir =
        sm::simple_save(sess, tmp.path / "export", sm::inputs<"x">(px), sm::outputs<"y">(out * tf::constant<2.0f>()));
    tf::session other(out * tf::constant<3.0f>());
    CHECK_THROWS_WITH_AS(sm::load(other, {sm::serving_tag}, dir),
                         "InvalidArgument: The session's graph differs from the SavedModel's meta graph {serve}: node "
                         "mul = mul(dense_1/BiasAdd, Const) : float32 [?, 2] is not in it (nor its input Const); the "
                         "SavedModel's node of that name has the same op, dtype, shape and inputs, but its input "
                         "Const is a constant of another value there",
                         tf::invalid_argument_error);
  }
  SUBCASE("an attribute the description does not show: the fingerprints on each side") {
    auto t = tf::transpose<1, 0>(square);
    tf::session sess(t);
    sess.initialize_all();
    const auto dir = sm::simple_save(sess, tmp.path / "export", sm::inputs(), sm::outputs<"t">(t));
    auto u = tf::transpose<0, 1>(square);
    tf::session other(u);
    const auto ours = sm::fingerprint_string(sm::node_fingerprint<decltype(u)>());
    const auto theirs = sm::fingerprint_string(sm::node_fingerprint<decltype(t)>());
    CHECK_THROWS_WITH_AS(sm::load(other, {sm::serving_tag}, dir),
                         ("InvalidArgument: The session's graph differs from the SavedModel's meta graph {serve}: node "
                          "transpose = transpose(tp_square) : float32 [2, 2] is not in it; the SavedModel's node of "
                          "that name has the same op, dtype, shape and inputs, and differs in an attribute the "
                          "description does not show (an axis, a permutation, a literal value: the node's type); "
                          "fingerprint " +
                          ours + " here, " + theirs + " in the SavedModel")
                             .c_str(),
                         tf::invalid_argument_error);
  }
  SUBCASE("several fields: each with both sides") {
    auto v = tf::variable<"tp_v", float, tf::shape<2>>(tf::init::zeros());
    tf::session sess(v);
    sess.initialize_all();
    const auto dir = sm::simple_save(sess, tmp.path / "export", sm::inputs(), sm::outputs<"v">(v));
    auto v3 = tf::variable<"tp_v", double, tf::shape<3>>(tf::init::zeros());
    tf::session other(v3);
    CHECK_THROWS_WITH_AS(sm::load(other, {sm::serving_tag}, dir),
                         "InvalidArgument: The session's graph differs from the SavedModel's meta graph {serve}: node "
                         "tp_v = VariableV2() : float64 [3] is not in it; the SavedModel's node of that name is "
                         "tp_v = VariableV2() : float32 [2]: they differ in dtype float64 here, float32 in the "
                         "SavedModel; shape [3] here, [2] in the SavedModel",
                         tf::invalid_argument_error);
  }
}

TEST_CASE("parity: a signature that differs says which key differs and how") {
  temp_dir tmp;
  tf::session sess(out_probs, out);
  sess.initialize_all();
  const auto dir = sm::simple_save(sess, tmp.path / "export", sm::inputs<"features">(px),
                                   sm::outputs<"probs", "logits">(out_probs, out));
  tf::session serve(out_probs, out);
  auto renamed = sm::signature<"serving_default">(sm::inputs<"x">(px), sm::outputs<"probs", "logits">(out_probs, out));
  CHECK_THROWS_WITH_AS(sm::load(serve, {sm::serving_tag}, dir, renamed),
                       "InvalidArgument: Signature 'serving_default' differs from the SavedModel's: input 'x' "
                       "(tp_x:0, float32 [?, 3]) is only here; input 'features' (tp_x:0, float32 [?, 3]) is only in "
                       "the SavedModel's",
                       tf::invalid_argument_error);
  auto swapped = sm::signature<"serving_default">(sm::inputs<"features">(px),
                                                  sm::outputs<"probs", "logits">(out_probs, hidden));
  tf::session serve2(out_probs, out);
  CHECK_THROWS_WITH_AS(sm::load(serve2, {sm::serving_tag}, dir, swapped),
                       "InvalidArgument: Signature 'serving_default' differs from the SavedModel's: output 'logits' "
                       "is dense/Relu:0, float32 [?, 4] here, dense_1/BiasAdd:0, float32 [?, 2] in the SavedModel",
                       tf::invalid_argument_error);
  auto reordered = sm::signature<"serving_default">(sm::inputs<"features">(px),
                                                    sm::outputs<"logits", "probs">(out, out_probs));
  CHECK_THROWS_WITH_AS(sm::load(serve2, {sm::serving_tag}, dir, reordered),
                       doctest::Contains("the same keys and tensors, in another order"), tf::invalid_argument_error);
}

TEST_CASE("parity: an export whose variables or description is a directory or a FIFO is refused at once") {
  ::alarm(20);  // a FIFO opened without O_NONBLOCK would block forever: fail instead
  temp_dir tmp;
  const auto dir = export_dense(tmp);
  tf::session serve(out_probs);
  serve.initialize_all();
  const auto variables = dir / "variables" / "variables";
  std::filesystem::remove(variables);
  std::filesystem::create_directory(variables);
  CHECK_THROWS_WITH_AS(sm::load(serve, {sm::serving_tag}, dir),
                       ("FailedPrecondition: Checkpoint " + variables.string() + " is a directory, not a regular file")
                           .c_str(),
                       tf::failed_precondition_error);
  std::filesystem::remove(variables);
  REQUIRE(::mkfifo(variables.c_str(), 0644) == 0);
  CHECK_THROWS_WITH_AS(sm::load(serve, {sm::serving_tag}, dir),
                       ("FailedPrecondition: Checkpoint " + variables.string() + " is a FIFO (named pipe), not a "
                        "regular file")
                           .c_str(),
                       tf::failed_precondition_error);
  const auto description = dir / "saved_model.json";
  std::filesystem::remove(description);
  REQUIRE(::mkfifo(description.c_str(), 0644) == 0);
  CHECK_THROWS_WITH_AS(sm::read_description(dir),
                       ("FailedPrecondition: SavedModel file " + description.string() + " is a FIFO (named pipe), not "
                        "a regular file")
                           .c_str(),
                       tf::failed_precondition_error);
  ::alarm(0);
}
