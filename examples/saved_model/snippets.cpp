// docs/reference/saved-models.md: exporting with the builder (tags, signatures, assets),
// the export directory, loading and its checks, running by name, const sessions and threads.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

#include "../expect.hpp"

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

namespace {

// The message of the exception `f` throws ("" when it throws none).
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

xt::xtensor<float, 2> batch() { return {{1.0f, 2.0f, 3.0f}, {-1.0f, 0.5f, 0.0f}}; }

}  // namespace

int main() {
  const auto dir = std::filesystem::temp_directory_path() / ("typeflow-saved-model-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "vocab.txt") << "cat\ndog\n";

  // [snippet graph]
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto scale = tf::placeholder<"scale", float, tf::shape<>>();
  auto logits = tf::layers::dense<2>(x, tf::activation::linear, tf::init::glorot_uniform(3));
  auto probs = tf::softmax(logits);
  auto classes = tf::argmax<1>(logits);
  auto scaled = logits * scale;

  // Signatures: the keys callers use, the nodes they stand for (SignatureDef).
  auto serving = sm::signature<"serving_default">(sm::inputs<"features">(x),
                                                  sm::outputs<"probs", "classes">(probs, classes));
  auto scaling = sm::signature<"scaled">(sm::inputs<"features", "scale">(x, scale), sm::outputs<"scaled">(scaled));
  // [/snippet graph]

  EXPECT(sm::serving_tag == "serve" && sm::training_tag == "train");
  EXPECT(sm::default_serving_signature_def_key == "serving_default");
  EXPECT(sm::predict_method_name == "tensorflow/serving/predict");

  tf::session sess(probs, classes, scaled);
  sess.initialize_all();
  {
    // [snippet builder]
    sm::builder builder(dir / "export");
    builder.add_meta_graph_and_variables(sess, {"serve"}, sm::signature_map(serving, scaling),
                                         {dir / "vocab.txt"});      // assets, copied into the export
    builder.add_meta_graph({"serve", "gpu"}, sm::signature_map(serving));  // the same graph, other tags
    builder.save();                                                  // written, synced, renamed into place
    // [/snippet builder]
  }
  {
    // [snippet simple_save]
    // One meta graph tagged "serve", one signature "serving_default", every variable.
    sm::simple_save(sess, dir / "simple", sm::inputs<"features">(x), sm::outputs<"probs", "classes">(probs, classes));
    // [/snippet simple_save]
    EXPECT(error_of([&] { sm::simple_save(sess, dir / "simple", sm::inputs<"features">(x), sm::outputs<"probs">(probs)); }) ==
           "AlreadyExists: Export directory already exists, and isn't empty. Please choose a different export "
           "directory, or delete all the contents of the specified directory: " + (dir / "simple").string());
  }
  {
    // What the reference says of tags and assets.
    sm::builder builder(dir / "refused");
    EXPECT(error_of([&] { builder.add_meta_graph_and_variables(sess, {""}); }) ==
           "InvalidArgument: Bad tag '': a tag is a non-empty string of at most 1024 bytes without control "
           "characters");
    builder.add_meta_graph_and_variables(sess, {"serve"}, sm::signature_map(serving), {dir / "vocab.txt"});
    EXPECT(error_of([&] { builder.add_meta_graph({"serve"}); }) ==
           "AlreadyExists: A meta graph with tags {serve} has been added already");
    std::filesystem::create_directories(dir / "other");
    std::ofstream(dir / "other" / "vocab.txt") << "bird\n";
    EXPECT(error_of([&] { builder.add_meta_graph({"gpu"}, sm::signature_map(serving), {dir / "other" / "vocab.txt"}); }) ==
           "AlreadyExists: Two different assets are named vocab.txt");
    // Destroyed without save(): nothing under the export's name.
  }
  EXPECT(!std::filesystem::exists(dir / "refused"));
  EXPECT(std::filesystem::is_regular_file(dir / "export" / "saved_model.json"));
  EXPECT(std::filesystem::is_regular_file(dir / "export" / "variables" / "variables"));
  EXPECT(std::filesystem::is_regular_file(dir / "export" / "graphs" / "meta_graph_0.dot"));
  EXPECT(std::filesystem::is_regular_file(dir / "export" / "graphs" / "meta_graph_1.dot"));
  EXPECT(std::filesystem::is_regular_file(dir / "export" / "assets" / "vocab.txt"));
  {
    // [snippet description]
    const sm::saved_model_description d = sm::read_description(dir / "export");
    for (const auto& m : d.meta_graphs) {
      std::printf("meta graph %s:", m.tags_string().c_str());
      for (const auto& s : m.signatures) std::printf(" %s", s.name.c_str());
      std::printf("\n");
    }
    // meta graph {serve}: serving_default scaled
    // meta graph {serve, gpu}: serving_default
    const sm::tensor_spec& in = d.meta_graphs[0].signatures[0].inputs[0];
    EXPECT(in.key == "features" && in.name == "x:0" && in.description() == "float32 [?, 3]");
    // [/snippet description]
    EXPECT(d.meta_graphs.size() == 2);
    EXPECT(d.meta_graphs[1].tags_string() == "{serve, gpu}");
    EXPECT(d.meta_graphs[0].signatures[0].outputs[0].name == "Softmax:0");
    EXPECT(d.meta_graphs[0].signatures[0].outputs[1].description() == "int64 [?]");
    EXPECT(d.meta_graphs[0].signatures[0].method_name == sm::predict_method_name);
    EXPECT(sm::contains_saved_model(dir / "export") && !sm::contains_saved_model(dir));
    EXPECT(tf::train::list_variables(dir / "export" / "variables" / "variables").size() == 2);
    EXPECT(d.variables.size() == 2 && d.variables[0].name == "dense/kernel");
  }

  // --- loading ---------------------------------------------------------------------------
  {
    // [snippet load]
    tf::session serve(probs, classes);  // the serving program's session: only what serving needs
    // loader.load(sess, [tag_constants.SERVING], export_dir): {sm::serving_tag} is {"serve"}
    auto model = sm::load(serve, {sm::serving_tag}, dir / "export", serving);
    EXPECT(model.meta_graph().tags_string() == "{serve}");
    EXPECT(model.asset_paths() == std::vector<std::filesystem::path>{dir / "export" / "assets" / "vocab.txt"});

    const sm::tensor_map_t out = model.run("serving_default", {{"features", batch()}});
    const xt::xarray<float>& p = out.at("probs").as<float>();
    const xt::xarray<std::int64_t>& c = out.at("classes").as<std::int64_t>();
    // [/snippet load]
    const auto [ep, ec] = sess.run(tf::fetch(probs, classes), tf::feed(x, batch()));
    EXPECT(p == xt::xarray<float>(ep));
    EXPECT(c == xt::xarray<std::int64_t>(ec));
  }
  {
    // [snippet load_errors]
    tf::session serve(probs, classes);
    EXPECT(error_of([&] { sm::load(serve, {"train"}, dir / "export"); }) ==
           "NotFound: MetaGraphDef associated with tags {train} could not be found in SavedModel " +
               (dir / "export").string() + "; available tag-sets: {serve}, {serve, gpu}");

    auto classify = sm::signature<"classify">(sm::inputs<"features">(x), sm::outputs<"classes">(classes));
    EXPECT(error_of([&] { sm::load(serve, {"serve", "gpu"}, dir / "export", classify); }) ==
           "NotFound: Signature 'classify' not found in the SavedModel's meta graph {serve, gpu}; its signatures "
           "are: serving_default");

    // A program whose model code changed: its graph is not the export's.
    auto wider = tf::variable<"dense/kernel", float, tf::shape<3, 4>>(tf::init::zeros());
    tf::session changed(tf::matmul(x, wider));
    EXPECT(error_of([&] { sm::load(changed, {"serve"}, dir / "export"); }) ==
           "InvalidArgument: The session's graph differs from the SavedModel's meta graph {serve}: node "
           "dense/kernel = VariableV2() : float32 [3, 4] is not in it; the SavedModel's node of that name is "
           "dense/kernel = VariableV2() : float32 [3, 2]: they differ in shape [3, 4] here, [3, 2] in the "
           "SavedModel");
    // [/snippet load_errors]
  }
  {
    // [snippet load_changes_nothing]
    tf::session serve(probs, classes);
    serve.initialize_all();  // values of its own
    const xt::xtensor<float, 2> before = serve.run(probs, tf::feed(x, batch()));
    std::filesystem::remove(dir / "export" / "assets" / "vocab.txt");
    EXPECT(error_of([&] { sm::load(serve, {"serve"}, dir / "export", serving); }) ==
           "NotFound: Asset vocab.txt of the SavedModel " + (dir / "export").string() + " is missing");
    EXPECT(serve.run(probs, tf::feed(x, batch())) == before);  // the failed load changed nothing
    // [/snippet load_changes_nothing]
    std::ofstream(dir / "export" / "assets" / "vocab.txt") << "cat\ndog\n";
  }

  // --- running by name -------------------------------------------------------------------
  {
    tf::session serve(probs, classes, scaled);
    auto model = sm::load(serve, {"serve"}, dir / "export", serving, scaling);
    // [snippet by_name]
    const sm::tensor_handle h = model.get_tensor_by_name("x:0");
    EXPECT(h.dtype == tf::dtype::float32 && h.shape == std::vector<std::int64_t>{-1, 3});

    // sess.run(["Softmax:0", "dense/kernel:0"], feed_dict={"x:0": ...})
    const std::vector<tf::tensor> got = model.run_by_name({"Softmax:0", "dense/kernel:0"}, {{"x:0", batch()}});
    EXPECT(got[0].shape() == std::vector<std::size_t>{2, 2} && got[1].description() == "float32 [3, 2]");

    // layers::dense names its ops as tf.layers.dense: "dense/BiasAdd:0" is the logits.
    EXPECT(model.get_tensor_by_name("dense/BiasAdd:0").shape == std::vector<std::int64_t>{-1, 2});

    // Every node with a value can be fetched: placeholders, variables, ops.
    for (const sm::tensor_handle& t : model.tensors()) std::printf("%s ", t.name.c_str());
    // x:0 dense/kernel:0 dense/MatMul:0 dense/bias:0 dense/BiasAdd:0 Softmax:0 ArgMax:0 scale:0 mul:0
    // [/snippet by_name]
    std::printf("\n");
    EXPECT(model.tensors().size() == 9);
    EXPECT(model.tensors()[2].name == "dense/MatMul:0" && model.tensors()[4].name == "dense/BiasAdd:0");
    // [snippet by_name_errors]
    EXPECT(error_of([&] { model.run("scaled", {{"features", batch()}}); }) ==
           "InvalidArgument: Missing input 'scale' of signature 'scaled' (float32 [])");
    EXPECT(error_of([&] { model.run("serving_default", {{"features", xt::xarray<double>{{1, 2, 3}}}}); }) ==
           "InvalidArgument: Cannot feed a value of dtype float64 to input 'features' of signature "
           "'serving_default', which has dtype float32");
    EXPECT(error_of([&] {
             model.run_by_name({"Softmax:0"}, {{"dense/MatMul:0", xt::xarray<float>::from_shape({2, 2})}});
           }) == "InvalidArgument: Cannot feed 'dense/MatMul:0' by name: by-name feeds go to placeholders, and "
                 "'dense/MatMul:0' is a MatMul");
    EXPECT(error_of([&] { model.get_tensor_by_name("logits:0"); }) ==
           "NotFound: The name 'logits:0' refers to a Tensor which does not exist. The operation, 'logits', does "
           "not exist in the graph.");
    // [/snippet by_name_errors]
    // The typed door is still there: a typed feed of the scaled signature's inputs.
    const auto typed = model.run("scaled", {{"features", batch()}, {"scale", 2.0f}});
    EXPECT(typed.at("scaled").as<float>() ==
           xt::xarray<float>(serve.run(scaled, tf::feed(x, batch()), tf::feed(scale, 2.0f))));
  }

  // --- const sessions and threads ----------------------------------------------------------
  {
    // A fetch whose path changes state is not run by name.
    auto kernel = tf::variable<"dense/kernel", float, tf::shape<3, 2>>(tf::init::glorot_uniform(3));
    auto decay = tf::assign_sub(kernel, kernel * tf::constant<0.5f>());
    tf::session training(probs, classes, decay);
    training.initialize_all();
    const sm::servable model(training, serving);
    EXPECT(error_of([&] { model.run_by_name({"AssignSub:0"}, {}); }) ==
           "InvalidArgument: Cannot fetch 'AssignSub:0' through a const session: its path changes state (an "
           "assign, an optimizer update, print); run it through the session");
    EXPECT(model.run_by_name({"Softmax:0"}, {{"x:0", batch()}}).size() == 1);  // the rest runs
  }
  {
    tf::session serve(probs, classes);
    auto model = sm::load(serve, {"serve"}, dir / "export", serving);
    const xt::xtensor<float, 2> expected = serve.run(probs, tf::feed(x, batch()));
    // [snippet threads]
    const auto& csess = serve;  // run() on a const session: paths that change nothing
    std::vector<std::thread> workers;
    std::vector<int> wrong(4, 0);
    for (int t = 0; t < 4; ++t)
      workers.emplace_back([&, t] {
        for (int i = 0; i < 50; ++i) {
          if (csess.run(probs, tf::feed(x, batch())) != expected) ++wrong[t];
          if (model.run("serving_default", {{"features", batch()}}).at("probs") != tf::tensor(expected)) ++wrong[t];
        }
      });
    for (auto& w : workers) w.join();
    EXPECT(wrong == std::vector<int>(4, 0));
    // [/snippet threads]
  }

  std::filesystem::remove_all(dir);
  return 0;
}
