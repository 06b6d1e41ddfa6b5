// Exporting and loading saved models: the builder's order and messages, the export
// directory, load by tags, and every check a load makes before any variable changes.
#include <doctest/doctest.h>

#include "serving_testing.hpp"

using namespace serving_testing;

namespace {

/// Exports a trained-looking session: two meta graphs ({serve}, {serve, gpu}), an asset.
std::filesystem::path export_model(const temp_dir& tmp, tf::session<decltype(probs), decltype(classes), decltype(scaled)>& sess) {
  sess.initialize_all();
  sess.run(tf::assign(w, w * tf::constant<2.0f>()));  // values that differ from the initializer's
  const auto vocab = tmp.path / "vocab.txt";
  write_file(vocab, "cat\ndog\n");
  sm::builder builder(tmp.path / "export");
  builder.add_meta_graph_and_variables(sess, {"serve"}, sm::signature_map(serving, scaling), {vocab});
  builder.add_meta_graph({"serve", "gpu"}, sm::signature_map(serving));
  return builder.save();
}

template <class S>
std::vector<float> weights(const S& sess) {
  const auto& v = sess.template slot<std::remove_const_t<decltype(w)>>().value;
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("simple_save, then load into a fresh session, gives the same outputs bit for bit") {
  temp_dir tmp;
  tf::session train(probs, classes);
  train.initialize_all();
  const auto dir =
      sm::simple_save(train, tmp.path / "export", sm::inputs<"features">(x), sm::outputs<"probs", "classes">(probs, classes));
  CHECK(sm::contains_saved_model(dir));
  CHECK(std::filesystem::is_regular_file(dir / "variables/variables"));
  CHECK(std::filesystem::is_regular_file(dir / "graphs/meta_graph_0.dot"));
  CHECK(read_file(dir / "graphs/meta_graph_0.dot").find("digraph") != std::string::npos);

  tf::session serve(probs, classes);
  auto model = sm::load(serve, {"serve"}, dir, serving);
  CHECK(model.meta_graph().tags == std::vector<std::string>{"serve"});
  const auto [p, c] = train.run(tf::fetch(probs, classes), tf::feed(x, features()));
  const auto out = model.run("serving_default", {{"features", features()}});
  REQUIRE(out.size() == 2);
  CHECK(out.at("probs").as<float>() == xt::xarray<float>(p));
  CHECK(out.at("classes").as<std::int64_t>() == xt::xarray<std::int64_t>(c));
}

TEST_CASE("the description names tags, signatures, tensors, dtypes, shapes and the variables") {
  temp_dir tmp;
  tf::session<decltype(probs), decltype(classes), decltype(scaled)> sess(probs, classes, scaled);
  const auto dir = export_model(tmp, sess);
  const auto d = sm::read_description(dir);
  CHECK(d.format_major == 1);
  REQUIRE(d.meta_graphs.size() == 2);
  const auto& serve = d.meta_graphs[0];
  CHECK(serve.tags_string() == "{serve}");
  CHECK(d.meta_graphs[1].tags_string() == "{serve, gpu}");
  CHECK(serve.assets == std::vector<std::string>{"vocab.txt"});
  REQUIRE(serve.signatures.size() == 2);
  const auto& sig = serve.signatures[0];
  CHECK(sig.name == "serving_default");
  CHECK(sig.method_name == "tensorflow/serving/predict");
  REQUIRE(sig.inputs.size() == 1);
  CHECK(sig.inputs[0].key == "features");
  CHECK(sig.inputs[0].name == "sv_x:0");
  CHECK(sig.inputs[0].description() == "float32 [?, 3]");
  REQUIRE(sig.outputs.size() == 2);
  CHECK(sig.outputs[0].name == "Softmax:0");
  CHECK(sig.outputs[1].description() == "int64 [?]");
  CHECK(serve.signatures[1].inputs[1].description() == "float32 []");
  REQUIRE(d.variables.size() == 2);
  CHECK(d.variables[0].name == "sv_w");
  CHECK(d.variables[0].shape == std::vector<std::uint64_t>{3, 2});
  // Both meta graphs describe the same graph.
  CHECK(serve.graph_fingerprint == d.meta_graphs[1].graph_fingerprint);
  CHECK(serve.graph_fingerprint.size() == 16);
}

TEST_CASE("the builder's calls in TensorFlow's order, with TensorFlow's messages") {
  temp_dir tmp;
  tf::session sess(probs, classes);
  sess.initialize_all();
  {
    sm::builder builder(tmp.path / "a");
    CHECK_THROWS_WITH_AS(builder.add_meta_graph({"serve"}),
                         "FailedPrecondition: Graph state including variables and assets has not been saved yet. "
                         "Please invoke `add_meta_graph_and_variables()` first.",
                         tf::failed_precondition_error);
    CHECK_THROWS_AS(builder.save(), tf::failed_precondition_error);
    builder.add_meta_graph_and_variables(sess, {"serve"});
    CHECK_THROWS_WITH_AS(builder.add_meta_graph_and_variables(sess, {"train"}),
                         "FailedPrecondition: Graph state including variables and assets has already been saved. "
                         "Please invoke `add_meta_graph()` instead.",
                         tf::failed_precondition_error);
    CHECK_THROWS_WITH_AS(builder.add_meta_graph({"serve"}),
                         "AlreadyExists: A meta graph with tags {serve} has been added already",
                         tf::already_exists_error);
    // Destroyed without save(): no export, and no temporary directory left behind.
  }
  CHECK(!std::filesystem::exists(tmp.path / "a"));
  CHECK(tmp.files().empty());

  std::filesystem::create_directories(tmp.path / "b");
  write_file(tmp.path / "b" / "f", "x");
  CHECK_THROWS_WITH_AS(sm::builder(tmp.path / "b"),
                       ("AlreadyExists: Export directory already exists, and isn't empty. Please choose a different "
                        "export directory, or delete all the contents of the specified directory: " +
                        (tmp.path / "b").string())
                           .c_str(),
                       tf::already_exists_error);
  // An empty directory is fine, as in TensorFlow.
  std::filesystem::create_directories(tmp.path / "c");
  sm::builder c(tmp.path / "c");
  c.add_meta_graph_and_variables(sess, {"serve"});
  CHECK(c.save() == tmp.path / "c");
  CHECK(sm::contains_saved_model(tmp.path / "c"));
}

TEST_CASE("exporting uninitialized variables fails and leaves nothing behind") {
  temp_dir tmp;
  tf::session sess(probs, classes);
  sm::builder builder(tmp.path / "export");
  CHECK_THROWS_WITH_AS(builder.add_meta_graph_and_variables(sess, {"serve"}),
                       "FailedPrecondition: Attempting to use uninitialized value sv_w, sv_b (exporting a SavedModel)",
                       tf::failed_precondition_error);
  CHECK_THROWS_AS(builder.save(), tf::failed_precondition_error);
}

TEST_CASE("load by tags: another tag set, the assets, a missing tag set") {
  temp_dir tmp;
  tf::session<decltype(probs), decltype(classes), decltype(scaled)> sess(probs, classes, scaled);
  const auto dir = export_model(tmp, sess);
  tf::session serve(probs, classes);
  auto gpu = sm::load(serve, {"gpu", "serve"}, dir, serving);  // a tag set: order does not matter
  CHECK(gpu.meta_graph().tags_string() == "{serve, gpu}");
  CHECK(weights(serve) == weights(sess));
  const auto assets = sm::load(serve, {"serve"}, dir).asset_paths();
  REQUIRE(assets.size() == 1);
  CHECK(read_file(assets[0]) == "cat\ndog\n");
  CHECK_THROWS_WITH_AS(sm::load(serve, {"train"}, dir),
                       ("NotFound: MetaGraphDef associated with tags {train} could not be found in SavedModel " +
                        dir.string() + "; available tag-sets: {serve}, {serve, gpu}")
                           .c_str(),
                       tf::not_found_error);
  CHECK_THROWS_WITH_AS(sm::load(serve, {"serve"}, tmp.path / "nothing"),
                       ("NotFound: SavedModel file does not exist at: " + (tmp.path / "nothing" / "saved_model.json").string()).c_str(),
                       tf::not_found_error);
}

TEST_CASE("a failed load names what differs and changes nothing") {
  temp_dir tmp;
  tf::session<decltype(probs), decltype(classes), decltype(scaled)> sess(probs, classes, scaled);
  const auto dir = export_model(tmp, sess);

  SUBCASE("a graph with another node") {
    auto doubled = tf::softmax(logits * tf::constant<2.0f>());
    tf::session other(doubled);
    other.initialize_all();
    const auto before = weights(other);
    CHECK_THROWS_WITH_AS(sm::load(other, {"serve"}, dir),
                         "InvalidArgument: The session's graph differs from the SavedModel's meta graph {serve}: "
                         "node mul = mul(add, Const) : float32 [?, 2] is not in it (nor its input Const); the "
                         "SavedModel's node of that name is mul = mul(add, sv_scale) : float32 [?, 2]: they differ in inputs "
                         "(add, Const) here, (add, sv_scale) in the SavedModel",
                         tf::invalid_argument_error);
    CHECK(weights(other) == before);
  }
  SUBCASE("a node of the same name that differs is shown next to the export's") {
    auto w3 = tf::variable<"sv_w", float, tf::shape<3, 3>>(tf::init::glorot_uniform(3));
    tf::session other(tf::matmul(x, w3));
    CHECK_THROWS_WITH_AS(sm::load(other, {"serve"}, dir),
                         "InvalidArgument: The session's graph differs from the SavedModel's meta graph {serve}: "
                         "node sv_w = VariableV2() : float32 [3, 3] is not in it; the SavedModel's node of that "
                         "name is sv_w = VariableV2() : float32 [3, 2]: they differ in shape [3, 3] here, [3, 2] in the "
                         "SavedModel",
                         tf::invalid_argument_error);
  }
  SUBCASE("a signature the export does not have") {
    auto other_sig = sm::signature<"classify">(sm::inputs<"features">(x), sm::outputs<"classes">(classes));
    tf::session serve(probs, classes);
    serve.initialize_all();
    const auto before = weights(serve);
    CHECK_THROWS_WITH_AS(sm::load(serve, {"serve", "gpu"}, dir, other_sig),
                         "NotFound: Signature 'classify' not found in the SavedModel's meta graph {serve, gpu}; its "
                         "signatures are: serving_default",
                         tf::not_found_error);
    CHECK(weights(serve) == before);
  }
  SUBCASE("a signature of the same name that differs") {
    auto fewer = sm::signature<"serving_default">(sm::inputs<"features">(x), sm::outputs<"probs">(probs));
    tf::session serve(probs, classes);
    CHECK_THROWS_WITH_AS(sm::load(serve, {"serve"}, dir, fewer),
                         "InvalidArgument: Signature 'serving_default' differs from the SavedModel's: output "
                         "'classes' (ArgMax:0, int64 [?]) is only in the SavedModel's",
                         tf::invalid_argument_error);
  }
  SUBCASE("a newer major format version") {
    edit_file(dir / "saved_model.json", "\"version\": [1, 0]", "\"version\": [2, 0]");
    tf::session serve(probs, classes);
    CHECK_THROWS_AS(sm::load(serve, {"serve"}, dir), tf::failed_precondition_error);
  }
  SUBCASE("a description whose variables disagree with the variables file") {
    // The variables section comes last (keys are sorted).
    edit_file(dir / "saved_model.json", "\"name\": \"sv_w\"", "\"name\": \"sv_v\"", true);
    tf::session serve(probs, classes);
    CHECK_THROWS_AS(sm::load(serve, {"serve"}, dir), tf::data_loss_error);
  }
  SUBCASE("a corrupt variables file") {
    auto bytes = read_file(dir / "variables/variables");
    bytes[bytes.size() - 9] ^= 0x01;
    write_file(dir / "variables/variables", bytes);
    tf::session serve(probs, classes);
    serve.initialize_all();
    const auto before = weights(serve);
    CHECK_THROWS_AS(sm::load(serve, {"serve"}, dir, serving), tf::data_loss_error);
    CHECK(weights(serve) == before);
  }
  SUBCASE("a missing asset") {
    std::filesystem::remove(dir / "assets" / "vocab.txt");
    tf::session serve(probs, classes);
    CHECK_THROWS_WITH_AS(sm::load(serve, {"serve"}, dir),
                         ("NotFound: Asset vocab.txt of the SavedModel " + dir.string() + " is missing").c_str(),
                         tf::not_found_error);
  }
}

TEST_CASE("variables that differ from the session's, in a consistent export, are named") {
  // Reachable only by editing an export (the graph check sees a changed variable first):
  // the variables file and the description both say sv_b has shape [3].
  temp_dir tmp;
  tf::session sess(probs, classes);
  sess.initialize_all();
  const auto dir = sm::simple_save(sess, tmp.path / "export", sm::inputs<"features">(x), sm::outputs<"probs">(probs));
  auto b3 = tf::variable<"sv_b", float, tf::shape<3>>(tf::init::constant(0.25));
  tf::session other(tf::matmul(x, w), b3);
  other.initialize_all();
  tf::train::saver<>{}.save(other, dir / "variables/variables");
  edit_file(dir / "saved_model.json", "\"shape\": [2]", "\"shape\": [3]", true);

  tf::session serve(probs, classes);
  serve.initialize_all();
  const auto before = serve.run(b);
  CHECK_THROWS_WITH_AS(sm::load(serve, {"serve"}, dir),
                       ("InvalidArgument: The session's variables differ from the SavedModel's " + dir.string() +
                        "; shape of sv_b: expected [2], checkpoint [3]")
                           .c_str(),
                       tf::invalid_argument_error);
  CHECK(serve.run(b) == before);
}
