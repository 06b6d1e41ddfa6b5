// Exporting and loading saved models: builder order and messages, the export directory's
// contents, load by tags with every check before any variable changes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <typeflow/saved_model.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

namespace {

auto x = tf::placeholder<"sm_x", float, tf::shape<tf::dyn, 3>>();
auto w = tf::variable<"sm_w", float, tf::shape<3, 2>>(tf::init::glorot_uniform(3));
auto b = tf::variable<"sm_b", float, tf::shape<2>>(tf::init::constant(0.25));
auto logits = tf::matmul(x, w) + b;
auto probs = tf::softmax(logits);
auto classes = tf::argmax<1>(logits);
auto serving = sm::signature<"serving_default">(sm::inputs<"features">(x), sm::outputs<"probs", "classes">(probs, classes));

struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    path = std::filesystem::temp_directory_path() / ("typeflow_sm_test_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~temp_dir() { std::filesystem::remove_all(path); }
};

xt::xtensor<float, 2> features() { return {{1.0f, 2.0f, 3.0f}, {-1.0f, 0.5f, 0.0f}}; }

}  // namespace

TEST_CASE("simple_save, then load into a fresh session, gives the same outputs bit for bit") {
  temp_dir tmp;
  tf::session train(probs, classes);
  train.initialize_all();
  const auto dir = sm::simple_save(train, tmp.path / "export", sm::inputs<"features">(x), sm::outputs<"probs", "classes">(probs, classes));
  CHECK(sm::contains_saved_model(dir));
  CHECK(std::filesystem::is_regular_file(dir / "variables/variables"));
  CHECK(std::filesystem::is_regular_file(dir / "graphs/meta_graph_0.dot"));

  tf::session serve(probs, classes);
  auto model = sm::load(serve, {"serve"}, dir, serving);
  CHECK(model.meta_graph().tags == std::vector<std::string>{"serve"});
  const xt::xtensor<float, 2> expected = train.run(probs, tf::feed(x, features()));
  const auto out = model.run("serving_default", {{"features", features()}});
  REQUIRE(out.size() == 2);
  CHECK(out.at("probs").as<float>() == xt::xarray<float>(expected));
  CHECK(out.at("classes").dtype() == tf::dtype::int64);
}
