// bigru_serve: the loading program of the TensorFlow 1.x save/restore question, compiled
// apart from the trainer. Loads the export by its tags, finds the inputs and the logits by
// tensor name ("x:0", "seq_len:0", "dense/BiasAdd:0", as graph.get_tensor_by_name), runs
// them on the probe sequences and checks that the logits are the trainer's, bit for bit.
//
//   bigru_serve DIR [--varying-lengths]     (DIR and the flag as given to bigru_train)
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>

#include <xtensor/xview.hpp>

#include <typeflow/saved_model.hpp>

#include "model.hpp"

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main(int argc, char** argv) {
  const auto args = bigru::parse_arguments(argc, argv);
  if (!args) return 2;
  const std::filesystem::path dir = args->dir;
  const bigru::dataset data = bigru::make_dataset(args->varying);
  const xt::xtensor<float, 3> probe = xt::view(data.features, xt::range(0, 8), xt::all(), xt::all());
  const xt::xtensor<std::int32_t, 1> probe_len = xt::view(data.lengths, xt::range(0, 8));
  try {
    const auto expected = bigru::read_bytes(dir / "expected_logits.bin");
    // [snippet serve]
    // tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
    tf::session sess(bigru::logits);
    auto model = sm::load(sess, {"serve"}, dir / "export", bigru::serving);
    // graph.get_tensor_by_name(...), then sess.run(logits, feed_dict={x: ..., seq_len: ...})
    const auto logits_handle = model.get_tensor_by_name("dense/BiasAdd:0");
    const auto values = model.run_by_name({"dense/BiasAdd:0"}, {{"x:0", probe}, {"seq_len:0", probe_len}});
    const auto& logits = values.at(0).as<float>();  // [8, 5]
    // [/snippet serve]
    const auto got = bigru::bytes_of(logits);
    const bool same = got.size() == expected.size() && std::memcmp(got.data(), expected.data(), got.size()) == 0;
    std::printf("loaded %s; %s is a %s tensor of rank %zu; on 8 probe sequences the logits are %s\n",
                (dir / "export").c_str(), logits_handle.name.c_str(), std::string(tf::dtype_name(logits_handle.dtype)).c_str(),
                logits_handle.shape.size(), same ? "bit for bit the trainer's" : "NOT the trainer's");
    return same ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
