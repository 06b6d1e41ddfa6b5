// docs/reference/checkpoints.md: the saver, renaming, partial restores, errors, the
// manifest, JSON checkpoints and in-memory snapshots.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <typeflow/typeflow.hpp>
#include <typeflow/train/saver.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  const auto tmp = std::filesystem::temp_directory_path() / ("typeflow-saver-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  const std::string dir = tmp.string();

  auto w = tf::variable<"layer1/w", float, tf::shape<2, 3>>(tf::init::random_uniform(-1, 1, 7));
  auto b = tf::variable<"layer1/b", float, tf::shape<3>>(tf::init::constant(0.5));
  auto step = tf::variable<"global_step", std::int64_t>(tf::init::zeros());
  {
    // [snippet save_restore]
    tf::session sess(tf::group(w, b, step));
    sess.run(tf::global_variables_initializer());
    tf::train::saver saver{};  // every variable of the session, under its name
    const std::string path = saver.save(sess, dir + "/model.ckpt", 100);
    EXPECT(path == dir + "/model.ckpt-100");
    EXPECT(tf::train::latest_checkpoint(dir) == path);  // read from the "checkpoint" state file

    tf::session other(tf::group(w, b, step));  // e.g. an evaluation program: nothing initialized
    saver.restore(other, path);
    EXPECT(other.run(w) == sess.run(w));
    // [/snippet save_restore]
  }
  {
    // [snippet list_variables]
    for (const auto& v : tf::train::list_variables(dir + "/model.ckpt-100"))
      std::printf("%s %s %s\n", v.name.c_str(), std::string(tf::dtype_name(v.dtype)).c_str(),
                  v.shape_string().c_str());
    // global_step int64 []      (sorted by name, as tf.train.list_variables)
    // layer1/b float32 [3]
    // layer1/w float32 [2, 3]
    // [/snippet list_variables]
    const auto listed = tf::train::list_variables(dir + "/model.ckpt-100");
    EXPECT(listed.size() == 3 && listed[0].name == "global_step" && listed[1].name == "layer1/b" &&
           listed[2].name == "layer1/w");
  }
  {
    // [snippet var_list]
    // A list saves and restores only these variables; saved_as<"key">(v) renames.
    auto d = tf::variable<"dense/kernel", float, tf::shape<2, 3>>(tf::init::zeros());
    tf::session sess(tf::group(d, b));
    tf::train::saver renamed(tf::train::saved_as<"layer1/w">(d), b);
    renamed.restore(sess, dir + "/model.ckpt-100");  // d from the key "layer1/w"; global_step is ignored
    EXPECT(sess.run(b) == xt::xtensor_fixed<float, xt::xshape<3>>{0.5f, 0.5f, 0.5f});
    // [/snippet var_list]
  }
  {
    // [snippet missing_keys]
    auto extra1 = tf::variable<"layer2/w", float, tf::shape<3, 3>>();
    auto extra2 = tf::variable<"layer2/b", float, tf::shape<3>>(tf::init::zeros());
    tf::session sess(tf::group(w, extra1, extra2));
    sess.run(tf::global_variables_initializer());
    const auto w_before = sess.run(w);
    try {
      tf::train::saver{}.restore(sess, dir + "/model.ckpt-100");
    } catch (const tf::not_found_error& e) {
      // NotFound: Key layer2/w not found in checkpoint <dir>/model.ckpt-100
      // Key layer2/b not found in checkpoint <dir>/model.ckpt-100
      EXPECT(std::string(e.what()) == "NotFound: Key layer2/w not found in checkpoint " + dir +
                                          "/model.ckpt-100\nKey layer2/b not found in checkpoint " + dir +
                                          "/model.ckpt-100");
    }
    EXPECT(sess.run(w) == w_before);  // all or nothing: w was not restored either
    // [/snippet missing_keys]

    // [snippet diff]
    const auto diff = tf::train::diff_checkpoint(sess, dir + "/model.ckpt-100");
    EXPECT(diff.to_string() == "missing layer2/w\nmissing layer2/b\nextra layer1/b\nextra global_step\n");
    // [/snippet diff]
  }
  {
    // [snippet shapes]
    auto wide = tf::variable<"wide", float, tf::shape<3, 2>>(tf::init::zeros());
    tf::session sess(wide);
    try {
      tf::train::saver(tf::train::saved_as<"layer1/w">(wide)).restore(sess, dir + "/model.ckpt-100");
    } catch (const tf::invalid_argument_error& e) {
      // InvalidArgument: Cannot restore variable wide (checkpoint key layer1/w) of shape [3, 2] from
      // a tensor of shape [2, 3] in checkpoint ... (the element counts agree: make the saver with
      // reshape = true to restore it)
      EXPECT(std::string(e.what()).find("of shape [3, 2] from a tensor of shape [2, 3]") != std::string::npos);
    }
    tf::train::saver({.reshape = true}, tf::train::saved_as<"layer1/w">(wide)).restore(sess, dir + "/model.ckpt-100");
    // [/snippet shapes]
    EXPECT(sess.is_initialized(wide));
  }
  {
    // [snippet json]
    tf::session sess(tf::group(w, b, step));
    sess.run(tf::global_variables_initializer());
    tf::train::saver json({.format = tf::train::archive_format::json});
    const auto path = json.save(sess, dir + "/readable.ckpt");  // no step: the path is the prefix
    // {
    //     "magic": "typeflow checkpoint",
    //     ...
    //     "tensors": [
    //         {
    //             "name": "layer1/w",
    //             "dtype": "float32",
    //             "shape": [2, 3],
    //             "crc32c": ...,
    //             "values": [-0.6..., ...],
    // [/snippet json]
    EXPECT(path == dir + "/readable.ckpt");
    tf::train::saver{}.restore(sess, path);  // restore reads both archives
  }
  {
    // [snippet snapshot]
    tf::session sess(tf::group(w, b));
    sess.run(tf::global_variables_initializer());
    auto best = tf::train::snapshot(sess);  // every variable, in memory
    sess.slot<decltype(b)>().value.fill(9);  // ... training makes things worse ...
    best.restore(sess);                      // early stopping: back to the best weights
    EXPECT(sess.run(b) == xt::xtensor_fixed<float, xt::xshape<3>>{0.5f, 0.5f, 0.5f});
    // [/snippet snapshot]
  }
  std::filesystem::remove_all(tmp);
  std::puts("checkpoint_saver: ok");
  return 0;
}
