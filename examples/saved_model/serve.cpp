// saved_model_serve: "how to restore a model" in a serving program. Compiled apart from
// the exporter, from the same model header: builds an inference-only session, loads the
// export that saved_model_export wrote, runs its signature by name on the probe batch,
// and checks that the outputs are the exporter's own, bit for bit.
//
//   saved_model_serve DIR        (DIR as given to saved_model_export)
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>

#include <typeflow/saved_model.hpp>

#include "classifier.hpp"

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR (reads DIR/export and DIR/expected_outputs.bin)\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  classifier::outputs_file expected;
  if (!expected.read(dir / "expected_outputs.bin")) {
    std::fprintf(stderr, "%s: no outputs file; run saved_model_export first\n", (dir / "expected_outputs.bin").c_str());
    return 1;
  }
  try {
    // [snippet serve]
    // The serving program: a session made from the outputs holds only the inference graph
    // (no labels, loss or Adam slots); load checks it against the export and restores it.
    tf::session serve(classifier::probs, classifier::classes);
    auto model = sm::load(serve, {"serve"}, dir / "export", classifier::serving);

    const sm::tensor_map_t out = model.run("serving_default", {{"features", classifier::probe_batch()}});
    const auto& probs = out.at("probs").as<float>();           // [8, 3]
    const auto& classes = out.at("classes").as<std::int64_t>();  // [8]
    // [/snippet serve]

    const auto got_probs = classifier::bytes_of(probs);
    const auto got_classes = classifier::bytes_of(classes);
    const bool same_probs = got_probs.size() == expected.probs.size() &&
                            std::memcmp(got_probs.data(), expected.probs.data(), got_probs.size()) == 0;
    const bool same_classes = got_classes.size() == expected.classes.size() &&
                              std::memcmp(got_classes.data(), expected.classes.data(), got_classes.size()) == 0;
    std::printf("loaded %s, meta graph %s; on %zu probe rows, probs are %s and classes are %s\n",
                (dir / "export").c_str(), model.meta_graph().tags_string().c_str(), probs.shape()[0],
                same_probs ? "bit for bit the exporter's," : "NOT the exporter's",
                same_classes ? "the exporter's" : "NOT the exporter's");
    if (!same_probs || !same_classes) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
