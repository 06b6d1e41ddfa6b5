// The type-erased door: signatures run with run-time keys and tensors, nodes fetched and
// fed by tensor name; every name, dtype and shape checked, with an error naming it.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../support/counting.hpp"
#include "serving_testing.hpp"

using namespace serving_testing;

namespace {

struct fixture {
  tf::session<decltype(probs), decltype(classes), decltype(scaled)> sess{probs, classes, scaled};
  fixture() { sess.initialize_all(); }
  sm::servable<decltype(sess), decltype(serving), decltype(scaling)> model{sess, serving, scaling};
};

}  // namespace

TEST_CASE("a signature run by name gives what a typed run gives") {
  fixture f;
  const auto out = f.model.run("scaled", {{"features", features()}, {"scale", 3.0f}});
  REQUIRE(out.size() == 1);
  const xt::xtensor<float, 2> expected = f.sess.run(scaled, tf::feed(x, features()), tf::feed(scale, 3.0f));
  CHECK(out.at("scaled").as<float>() == xt::xarray<float>(expected));
  CHECK(out.at("scaled").shape() == std::vector<std::size_t>{2, 2});

  const auto descriptions = f.model.signature_descriptions();
  REQUIRE(descriptions.size() == 2);
  CHECK(descriptions[1].name == "scaled");
  CHECK(descriptions[1].inputs[1].name == "sv_scale:0");
}

TEST_CASE("a signature run checks names, dtypes and shapes before it runs") {
  fixture f;
  CHECK_THROWS_WITH_AS(f.model.run("predict", {}),
                       "NotFound: Signature 'predict' not found; the model's signatures are: serving_default, scaled",
                       tf::not_found_error);
  CHECK_THROWS_WITH_AS(f.model.run("serving_default", {{"feature", features()}}),
                       "InvalidArgument: The signature 'serving_default' has no input 'feature'; its inputs are: features",
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(f.model.run("scaled", {{"features", features()}}),
                       "InvalidArgument: Missing input 'scale' of signature 'scaled' (float32 [])",
                       tf::invalid_argument_error);
  const xt::xarray<double> doubles = {{1.0, 2.0, 3.0}};
  CHECK_THROWS_WITH_AS(f.model.run("serving_default", {{"features", doubles}}),
                       "InvalidArgument: Cannot feed a value of dtype float64 to input 'features' of signature "
                       "'serving_default', which has dtype float32",
                       tf::invalid_argument_error);
  const xt::xarray<float> wide = xt::zeros<float>({2, 4});
  CHECK_THROWS_WITH_AS(f.model.run("serving_default", {{"features", wide}}),
                       "InvalidArgument: Cannot feed value of shape [2, 4] to input 'features' of signature "
                       "'serving_default', which has shape [?, 3]",
                       tf::invalid_argument_error);
  const xt::xarray<float> vector = {1.0f, 2.0f};
  CHECK_THROWS_WITH_AS(f.model.run("scaled", {{"features", features()}, {"scale", vector}}),
                       "InvalidArgument: Cannot feed value of shape [2] to input 'scale' of signature 'scaled', "
                       "which has shape []",
                       tf::invalid_argument_error);
}

TEST_CASE("get_tensor_by_name finds nodes by TensorFlow's tensor names") {
  fixture f;
  const auto h = f.model.get_tensor_by_name("sv_x:0");
  CHECK(h.name == "sv_x:0");
  CHECK(h.dtype == tf::dtype::float32);
  CHECK(h.shape == std::vector<std::int64_t>{-1, 3});
  CHECK(f.model.get_tensor_by_name("ArgMax:0").dtype == tf::dtype::int64);
  CHECK(f.model.get_tensor_by_name("MatMul:0").shape == std::vector<std::int64_t>{-1, 2});
  CHECK_THROWS_WITH_AS(f.model.get_tensor_by_name("logits:0"),
                       "NotFound: The name 'logits:0' refers to a Tensor which does not exist. The operation, "
                       "'logits', does not exist in the graph.",
                       tf::not_found_error);
  CHECK_THROWS_WITH_AS(f.model.get_tensor_by_name("sv_x:1"),
                       "NotFound: The name 'sv_x:1' refers to a Tensor which does not exist. The operation, 'sv_x', "
                       "exists but only has 1 outputs.",
                       tf::not_found_error);
  CHECK_THROWS_WITH_AS(f.model.get_tensor_by_name("sv_x"),
                       "InvalidArgument: The name 'sv_x' looks like an (invalid) Operation name, not a Tensor. Tensor "
                       "names must be of the form \"<op_name>:<output_index>\".",
                       tf::invalid_argument_error);
  // Every node with a value can be fetched: placeholders, variables, ops.
  const auto all = f.model.tensors();
  // sv_x, sv_w, MatMul, sv_b, add, Softmax, ArgMax, sv_scale, mul
  CHECK(all.size() == 9);
  CHECK(std::any_of(all.begin(), all.end(), [](const auto& t) { return t.name == "sv_w:0"; }));
}

TEST_CASE("run_by_name fetches nodes with the placeholders of their paths fed by name") {
  fixture f;
  const auto out = f.model.run_by_name({"Softmax:0", "sv_w:0", "mul:0"},
                                       {{"sv_x:0", features()}, {"sv_scale:0", 0.5f}});
  REQUIRE(out.size() == 3);
  const auto [p, wv, s] =
      f.sess.run(tf::fetch(probs, w, scaled), tf::feed(x, features()), tf::feed(scale, 0.5f));
  CHECK(out[0].as<float>() == xt::xarray<float>(p));
  CHECK(out[1].as<float>() == xt::xarray<float>(wv));
  CHECK(out[2].as<float>() == xt::xarray<float>(s));
  // A variable needs no feed; a placeholder not on the path may be fed anyway.
  CHECK(f.model.run_by_name({"sv_b:0"}, {{"sv_scale:0", 1.0f}})[0].as<float>() == xt::xarray<float>{0.25f, 0.25f});
}

TEST_CASE("run_by_name checks every feed before anything runs") {
  fixture f;
  CHECK_THROWS_WITH_AS(f.model.run_by_name({"Softmax:0"}, {}),
                       "InvalidArgument: You must feed a value for placeholder tensor 'sv_x' with dtype float32 and "
                       "shape [?, 3]",
                       tf::invalid_argument_error);
  CHECK_THROWS_WITH_AS(f.model.run_by_name({"Softmax:0"}, {{"MatMul:0", features()}}),
                       "InvalidArgument: Cannot feed 'MatMul:0' by name: by-name feeds go to placeholders, and "
                       "'MatMul:0' is a MatMul",
                       tf::invalid_argument_error);
  const xt::xarray<std::int32_t> ints = {{1, 2, 3}};
  CHECK_THROWS_WITH_AS(f.model.run_by_name({"Softmax:0"}, {{"sv_x:0", ints}}),
                       "InvalidArgument: Cannot feed a value of dtype int32 to placeholder 'sv_x', which has dtype float32",
                       tf::invalid_argument_error);
  CHECK_THROWS_AS(f.model.run_by_name({"Softmax:0", "nothing:0"}, {{"sv_x:0", features()}}), tf::not_found_error);
}

TEST_CASE("a tensor holds one dtype and says so") {
  const tf::tensor t = xt::xarray<float>{{1.0f, 2.0f}};
  CHECK(t.dtype() == tf::dtype::float32);
  CHECK(t.description() == "float32 [1, 2]");
  CHECK(t.holds<float>());
  CHECK_THROWS_WITH_AS(t.as<double>(), "InvalidArgument: The tensor holds float32 values, not float64",
                       tf::invalid_argument_error);
  const tf::tensor s = std::int64_t{7};
  CHECK(s.rank() == 0);
  CHECK(s.as<std::int64_t>()() == 7);
  const tf::tensor lazy = xt::xarray<double>{1.0, 2.0} * 2.0;  // an expression is evaluated into the tensor
  CHECK(lazy.as<double>() == xt::xarray<double>{2.0, 4.0});
}

TEST_CASE("a signature run evaluates each node once; several by-name fetches, each path on its own") {
  using typeflow_test::counted;
  using typeflow_test::evaluations;
  auto shared = counted<41>(tf::matmul(x, w));
  auto first = tf::relu(shared);
  auto second = tf::tanh(shared);
  auto sig = sm::signature<"both">(sm::inputs<"features">(x), sm::outputs<"first", "second">(first, second));
  tf::session sess(first, second);
  sess.initialize_all();
  const sm::servable model(sess, sig);

  evaluations<41> = 0;
  (void)model.run("both", {{"features", features()}});
  CHECK(evaluations<41> == 1);  // one run: the shared node once
  evaluations<41> = 0;
  (void)model.run_by_name({"Relu:0", "Tanh:0"}, {{"sv_x:0", features()}});
  CHECK(evaluations<41> == 2);  // two fetches by name: two runs
}

TEST_CASE("a servable follows its session when the session is moved, alone or with the servable") {
  // A struct holding a session and a servable over it, moved as a whole: the struct's
  // implicit move moves the session and copies the servable. Growing the vector moves each
  // element and frees the old storage, so a servable still pointing there would read freed
  // memory (what AddressSanitizer reports on a servable that holds the session's address).
  std::vector<fixture> models;
  for (int i = 0; i < 4; ++i) models.emplace_back();
  for (auto& f : models) {
    CHECK(&f.model.session() == &f.sess);
    const auto out = f.model.run("scaled", {{"features", features()}, {"scale", 2.0f}});
    const xt::xtensor<float, 2> expected = f.sess.run(scaled, tf::feed(x, features()), tf::feed(scale, 2.0f));
    CHECK(out.at("scaled").as<float>() == xt::xarray<float>(expected));
  }

  // The session alone moved into another: the servable made before the move runs through it.
  tf::session<decltype(probs), decltype(classes), decltype(scaled)> first{probs, classes, scaled};
  first.initialize_all();
  const sm::servable model(first, serving, scaling);
  const auto second = std::move(first);
  CHECK(&model.session() == &second);
  CHECK(model.run("scaled", {{"features", features()}, {"scale", 1.0f}}).at("scaled").as<float>() ==
        xt::xarray<float>(second.run(scaled, tf::feed(x, features()), tf::feed(scale, 1.0f))));
}

TEST_CASE("a servable whose session was destroyed or assigned over throws, as a closed session does") {
  // What a servable outliving its session gets: TensorFlow's closed-session error, not a read
  // of freed memory (AddressSanitizer's heap-use-after-free with a ref to the freed anchor).
  const std::string gone =
      "Cancelled: Attempted to use a closed Session. The session this refers to was destroyed, or another session "
      "was assigned over it.";
  using session_type = tf::session<decltype(probs), decltype(classes), decltype(scaled)>;
  const auto run_scaled = [](const auto& model) {
    return model.run("scaled", {{"features", features()}, {"scale", 1.0f}}).at("scaled").template as<float>();
  };

  auto held = std::make_unique<session_type>(probs, classes, scaled);
  held->initialize_all();
  const sm::servable model(*held, serving, scaling);
  const xt::xarray<float> before = run_scaled(model);
  held.reset();
  CHECK_THROWS_WITH_AS(run_scaled(model), gone.c_str(), tf::cancelled_error);
  CHECK_THROWS_WITH_AS(model.session(), gone.c_str(), tf::cancelled_error);

  // Assigned over: the servable of the old state is closed, one made after runs the new one.
  session_type first{probs, classes, scaled};
  first.initialize_all();
  const sm::servable over_first(first, serving, scaling);
  session_type second{probs, classes, scaled};
  second.initialize_all();
  const sm::servable over_second(second, serving, scaling);
  first = std::move(second);
  CHECK_THROWS_WITH_AS(run_scaled(over_first), gone.c_str(), tf::cancelled_error);
  CHECK(&over_second.session() == &first);  // second's state moved into first
  CHECK(run_scaled(over_second) == before);
  sm::servable over_now(first, serving, scaling);
  CHECK(run_scaled(over_now) == before);
  // A servable's ref is copied when the servable moves: the moved-from one still runs.
  const auto taken = std::move(over_now);
  CHECK(run_scaled(taken) == before);
  CHECK(run_scaled(over_now) == before);  // NOLINT(bugprone-use-after-move): what is tested
}
