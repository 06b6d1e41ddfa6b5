// Rotation of kept checkpoints, ported from TensorFlow's own tests
// (tensorflow/python/training/saver_test.py: MaxToKeepTest, KeepCheckpointEveryNHoursTest,
// RecoverLastCheckpointsTest; checkpoint_management_test.py), with their observable results:
// last_checkpoints, the files on disk and the state file. Each case names the TF test it
// comes from. TensorFlow's saver_def copies (Saver(saver_def=...)) are savers with the same
// options here.
//
// And what TensorFlow's Saver does when the state file cannot be written: the checkpoints
// rotation takes off the list stay pending and are deleted after the next successful
// state write, and the error says that the checkpoint was written but is not listed.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <typeflow/ops/state.hpp>
#include <typeflow/ops/variable.hpp>
#include <typeflow/session/session.hpp>
#include <typeflow/train/saver.hpp>

#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;
using ckpt_testing::temp_dir;
using files = std::vector<std::string>;

namespace {

auto v_var() { return tf::variable<"rotation/v", float>(tf::init::constant(10)); }

bool exists(const std::string& p) { return std::filesystem::is_regular_file(p); }

/// TF's assertCheckpointState: the state file's latest and listed checkpoints (as paths).
void check_state(const temp_dir& dir, const std::string& latest, const files& all) {
  const auto state = train::get_checkpoint_state(dir.path);
  REQUIRE(state.has_value());
  CHECK(dir / state->model_checkpoint_path == latest);
  files listed;
  for (const auto& p : state->all_model_checkpoint_paths) listed.push_back(dir / p);
  CHECK(listed == all);
}

}  // namespace

TEST_CASE("rotation: MaxToKeepTest.testNonSharded") {
  temp_dir dir;
  auto v = v_var();
  tf::session sess(v);
  sess.initialize_all();
  train::saver save(train::saver_options{.max_to_keep = 2}, v);
  CHECK(save.last_checkpoints().empty());

  auto s1 = save.save(sess, dir / "s1");
  CHECK(save.last_checkpoints() == files{s1});
  CHECK(exists(s1));
  check_state(dir, s1, {s1});

  auto s2 = save.save(sess, dir / "s2");
  CHECK(save.last_checkpoints() == files{s1, s2});
  CHECK(exists(s1));
  CHECK(exists(s2));
  check_state(dir, s2, {s1, s2});

  auto s3 = save.save(sess, dir / "s3");
  CHECK(save.last_checkpoints() == files{s2, s3});
  CHECK_FALSE(exists(s1));
  CHECK(exists(s2));
  CHECK(exists(s3));
  check_state(dir, s3, {s2, s3});

  // A second helper, identical to the first, told the first's list.
  train::saver save2(train::saver_options{.max_to_keep = 2}, v);
  save2.set_last_checkpoints(save.last_checkpoints());
  // A third helper, with the same configuration but no knowledge of previous checkpoints.
  train::saver save3(train::saver_options{.max_to_keep = 2}, v);

  // Exercise the first helper. Adding s2 again (old s2 is removed first, then new s2 appended).
  s2 = save.save(sess, dir / "s2");
  CHECK(save.last_checkpoints() == files{s3, s2});
  CHECK_FALSE(exists(s1));
  CHECK(exists(s3));
  CHECK(exists(s2));
  check_state(dir, s2, {s3, s2});

  // Adding s1 (s3 should now be deleted as oldest in list).
  s1 = save.save(sess, dir / "s1");
  CHECK(save.last_checkpoints() == files{s2, s1});
  CHECK_FALSE(exists(s3));
  CHECK(exists(s2));
  CHECK(exists(s1));
  check_state(dir, s1, {s2, s1});

  // Exercise the second helper. Adding s2 again (old s2 is removed first, then new s2 appended).
  s2 = save2.save(sess, dir / "s2");
  CHECK(save2.last_checkpoints() == files{s3, s2});
  CHECK(exists(s1));        // created by the first helper
  CHECK_FALSE(exists(s3));  // deleted by the first helper
  CHECK(exists(s2));
  check_state(dir, s2, {s3, s2});

  // Adding s1 (s3 should now be deleted as oldest in list).
  s1 = save2.save(sess, dir / "s1");
  CHECK(save2.last_checkpoints() == files{s2, s1});
  CHECK_FALSE(exists(s3));
  CHECK(exists(s2));
  CHECK(exists(s1));
  check_state(dir, s1, {s2, s1});

  // Exercise the third helper. Adding s2 again (but the helper is unaware of the previous
  // s2). typeflow's saver takes over the state file's checkpoints of its own prefix on its
  // first save into a directory (a restarted program); the state lists [s2, s1], and of
  // those only s2 is a checkpoint of the prefix "s2", so the result is TensorFlow's.
  s2 = save3.save(sess, dir / "s2");
  CHECK(save3.last_checkpoints() == files{s2});
  CHECK(exists(s1));        // created by the first helper
  CHECK_FALSE(exists(s3));  // deleted by the first helper
  CHECK(exists(s2));
  // Even though the file for s1 exists, this saver isn't aware of it, which is why it
  // doesn't end up in the checkpoint state.
  check_state(dir, s2, {s2});

  // Adding s1 (s3 should not be deleted because the helper is unaware of it).
  s1 = save3.save(sess, dir / "s1");
  CHECK(save3.last_checkpoints() == files{s2, s1});
  CHECK_FALSE(exists(s3));
  CHECK(exists(s2));
  CHECK(exists(s1));
  check_state(dir, s1, {s2, s1});
}

TEST_CASE("rotation: MaxToKeepTest.testNoMaxToKeep (max_to_keep nullopt, TF's None, and 0)") {
  auto v = v_var();
  tf::session sess(v);
  sess.initialize_all();
  for (const std::optional<std::size_t> max_to_keep : {std::optional<std::size_t>{}, std::optional<std::size_t>{0}}) {
    CAPTURE(max_to_keep.has_value());
    temp_dir dir;
    train::saver save(train::saver_options{.max_to_keep = max_to_keep}, v);
    CHECK(save.last_checkpoints().empty());
    const auto s1 = save.save(sess, dir / "s1");
    CHECK(save.last_checkpoints().empty());
    CHECK(exists(s1));
    const auto s2 = save.save(sess, dir / "s2");
    CHECK(save.last_checkpoints().empty());
    CHECK(exists(s2));
    // The state file lists the latest only (TF's generate_checkpoint_state_proto adds the
    // latest to an empty list); every file stays.
    check_state(dir, s2, {s2});
    for (int step = 0; step < 7; ++step) save.save(sess, dir / "m", step);
    CHECK(dir.files().size() == 2 + 7 + 1);
    check_state(dir, dir / "m-6", {dir / "m-6"});
  }
}

TEST_CASE("rotation: KeepCheckpointEveryNHoursTest.testNonSharded, with a mocked clock") {
  temp_dir dir;
  auto v = tf::variable<"rotation/vector", float, tf::shape<1>>(tf::init::constant(10));
  tf::session sess(v);
  sess.initialize_all();
  // A saver that keeps the last 2 checkpoints plus one every 0.7 seconds
  // (mock.patch.object(time, "time") in TensorFlow's test: the saver's clock here).
  const double start_time = 1'700'000'000.0;
  double mock_time = start_time;
  train::saver save({.max_to_keep = 2, .keep_checkpoint_every_n_hours = 0.7 / 3600, .clock = [&] { return mock_time; }},
                    v);
  CHECK(save.last_checkpoints().empty());

  // 1 second later, so that s1 is old enough to keep.
  mock_time = start_time + 1.0;
  const auto s1 = save.save(sess, dir / "s1");
  CHECK(save.last_checkpoints() == files{s1});

  const auto s2 = save.save(sess, dir / "s2");
  CHECK(save.last_checkpoints() == files{s1, s2});

  // We now have 2 'last_checkpoints': [s1, s2]. The next save would normally delete s1,
  // because max_to_keep is 2. However, s1 is older than 0.7 s, so it is kept.
  const auto s3 = save.save(sess, dir / "s3");
  CHECK(save.last_checkpoints() == files{s2, s3});

  // [s2, s3], and s1 on disk. The next save deletes s2, because max_to_keep is 2 and the
  // old s1 was kept already: s2 is very close in time to s1.
  const auto s4 = save.save(sess, dir / "s4");
  CHECK(save.last_checkpoints() == files{s3, s4});

  CHECK(exists(s1));
  CHECK_FALSE(exists(s2));
  CHECK(exists(s3));
  CHECK(exists(s4));
}

TEST_CASE("rotation: MaxToKeepTest.testRecoverLastCheckpoints (saver_test.py), missing files left out") {
  temp_dir dir;
  auto v = v_var();
  tf::session sess(v);
  sess.initialize_all();
  train::saver save(train::saver_options{.max_to_keep = 10}, v);
  CHECK(save.last_checkpoints().empty());
  const auto s1 = save.save(sess, dir / "ckpt-1");
  const auto s2 = save.save(sess, dir / "ckpt-2");
  const auto s3 = save.save(sess, dir / "ckpt-3");
  CHECK(save.last_checkpoints() == files{s1, s2, s3});
  CHECK(exists(s1));
  CHECK(exists(s2));
  CHECK(exists(s3));
  check_state(dir, s3, {s1, s2, s3});

  // Another saver recovers the last checkpoints.
  train::saver save2(train::saver_options{.max_to_keep = 10}, v);
  CHECK(save2.last_checkpoints().empty());
  save2.recover_last_checkpoints({s1, s2, s3});
  CHECK(save2.last_checkpoints() == files{s1, s2, s3});

  // A checkpoint removed: the last checkpoints are recovered without it.
  std::filesystem::remove(s1);
  CHECK_FALSE(exists(s1));
  train::saver save3(train::saver_options{.max_to_keep = 10}, v);
  CHECK(save3.last_checkpoints().empty());
  save3.recover_last_checkpoints({s1, s2, s3});
  CHECK(save3.last_checkpoints() == files{s2, s3});
  const auto s4 = save3.save(sess, dir / "ckpt-4");
  check_state(dir, s4, {s2, s3, s4});
  // Their timestamps are the files' modification times.
  const auto with_time = save3.last_checkpoints_with_time();
  REQUIRE(with_time.size() == 3);
  CHECK(with_time[0].second > 1e9);
}

TEST_CASE("rotation: set_last_checkpoints gives +inf timestamps; set_last_checkpoints_with_time keeps the given ones") {
  temp_dir dir;
  auto v = v_var();
  tf::session sess(v);
  sess.initialize_all();
  double now = 1000;
  const auto opts = train::saver_options{.max_to_keep = 1, .keep_checkpoint_every_n_hours = 1.0, .clock = [&] { return now; }};

  train::saver first(opts, v);
  const auto a = first.save(sess, dir / "a");
  const auto b = first.save(sess, dir / "b");
  CHECK_FALSE(exists(a));  // rotated out and deleted: saved before the first hour

  // TF: "a timestamp of +inf so that this checkpoint will never be deleted".
  train::saver given(opts, v);
  given.set_last_checkpoints({b});
  CHECK(std::isinf(given.last_checkpoints_with_time()[0].second));
  const auto c = given.save(sess, dir / "c");
  CHECK(given.last_checkpoints() == files{c});
  CHECK(exists(b));  // preserved, not deleted

  train::saver timed(opts, v);
  timed.set_last_checkpoints_with_time({{c, 1000.0}});
  CHECK(timed.last_checkpoints_with_time() == std::vector<std::pair<std::string, double>>{{c, 1000.0}});
  const auto d = timed.save(sess, dir / "d");
  CHECK(timed.last_checkpoints() == files{d});
  CHECK_FALSE(exists(c));  // within the first hour: deleted
  // The given lists were taken as they are: b is on disk but in no saver's list.
  check_state(dir, d, {d});
  CHECK(exists(b));
}

TEST_CASE("rotation: list_variables is sorted by name, as tf.train.list_variables") {
  auto z = tf::variable<"rotation/z", float>(tf::init::zeros());
  auto a = tf::variable<"rotation/a", float, tf::shape<2>>(tf::init::zeros());
  auto m = tf::variable<"rotation/m", double>(tf::init::zeros());
  tf::session sess(tf::group(z, a, m));
  sess.initialize_all();
  temp_dir dir;
  const auto path = train::saver(z, a, m).save(sess, dir / "m");
  files names;
  for (const auto& t : train::list_variables(path)) names.push_back(t.name);
  CHECK(names == files{"rotation/a", "rotation/m", "rotation/z"});
  // The file keeps the saver's order (io::list_tensors).
  files in_file;
  for (const auto& t : tf::io::list_tensors(path)) in_file.push_back(t.name);
  CHECK(in_file == files{"rotation/z", "rotation/a", "rotation/m"});
}

TEST_CASE("rotation: a failed state write says the checkpoint is not listed; rotated files stay pending, then go") {
  temp_dir dir;
  auto v = v_var();
  tf::session sess(v);
  sess.initialize_all();
  train::saver save(train::saver_options{.max_to_keep = 2}, v);
  save.save(sess, dir / "m", 1);
  save.save(sess, dir / "m", 2);

  // The state file cannot be written: a directory stands where it is renamed to (root
  // ignores permission bits; this fails for every user).
  std::filesystem::remove(dir / "checkpoint");
  std::filesystem::create_directory(dir / "checkpoint");
  try {
    save.save(sess, dir / "m", 3);
    FAIL("the save should have thrown");
  } catch (const tf::error& e) {
    const std::string m = e.what();
    CHECK(m.find("Checkpoint " + (dir / "m-3") + " was written, but it is not listed in the state file " +
                 (dir / "checkpoint") + " (latest_checkpoint does not return it), which could not be written: ") !=
          std::string::npos);
    CHECK(m.find("The checkpoints that rotation removes from the list (" + (dir / "m-1") +
                 ") are deleted after the next state file is written") != std::string::npos);
  }
  // The checkpoint is complete; m-1, off the list, is not deleted yet; no temporary file.
  CHECK(dir.files() == files{"checkpoint", "m-1", "m-2", "m-3"});
  CHECK(save.last_checkpoints() == files{dir / "m-2", dir / "m-3"});
  CHECK(save.pending_deletions() == files{dir / "m-1"});
  train::saver{}.restore(sess, dir / "m-3");

  // Still failing: m-2 joins the pending deletions.
  CHECK_THROWS_AS(save.save(sess, dir / "m", 4), tf::error);
  CHECK(save.pending_deletions() == files{dir / "m-1", dir / "m-2"});
  CHECK(dir.files() == files{"checkpoint", "m-1", "m-2", "m-3", "m-4"});

  // The next successful state write deletes them, after listing the kept ones.
  std::filesystem::remove(dir / "checkpoint");
  const auto p5 = save.save(sess, dir / "m", 5);
  CHECK(save.pending_deletions().empty());
  CHECK(dir.files() == files{"checkpoint", "m-4", "m-5"});
  check_state(dir, p5, {dir / "m-4", p5});
  CHECK(train::latest_checkpoint(dir.path) == p5);
}

TEST_CASE("rotation: a checkpoint saved again under a name pending deletion is not deleted") {
  temp_dir dir;
  auto v = v_var();
  tf::session sess(v);
  sess.initialize_all();
  train::saver save(train::saver_options{.max_to_keep = 1}, v);
  save.save(sess, dir / "m", 1);
  std::filesystem::remove(dir / "checkpoint");
  std::filesystem::create_directory(dir / "checkpoint");
  CHECK_THROWS_AS(save.save(sess, dir / "m", 2), tf::error);
  CHECK(save.pending_deletions() == files{dir / "m-1"});
  std::filesystem::remove(dir / "checkpoint");
  // m-1 saved again: it leaves the pending deletions (and m-2 rotates out).
  save.save(sess, dir / "m", 1);
  CHECK(dir.files() == files{"checkpoint", "m-1"});
}

TEST_CASE("rotation: checkpoint_management_test.py CheckpointStateTest, as typeflow's state file differs") {
  temp_dir dir;
  // testCheckPointStateFailsWhenIncomplete: an empty state file is an error (TF: ValueError).
  ckpt_testing::write_file(dir / "checkpoint", "");
  CHECK_THROWS_WITH_AS(train::get_checkpoint_state(dir.path),
                       ("DataLoss: Checkpoint state file " + (dir / "checkpoint") + " is corrupt: no model_checkpoint_path")
                           .c_str(),
                       tf::data_loss_error);
  // testCheckPointCompletesRelativePaths: TF joins "./model.ckpt-687529" to the directory;
  // typeflow accepts plain file names only (docs/reference/checkpoints.md), so it is DataLoss.
  ckpt_testing::write_file(dir / "checkpoint", "model_checkpoint_path: \"./model.ckpt-687529\"\n"
                                               "all_model_checkpoint_paths: \"./model.ckpt-687500\"\n");
  CHECK_THROWS_AS(train::get_checkpoint_state(dir.path), tf::data_loss_error);
  // testAllModelCheckpointPaths: the latest is always the last of all_model_checkpoint_paths
  // (TF's generate_checkpoint_state_proto adds it), also for a saver that lists none.
  auto v = v_var();
  tf::session sess(v);
  sess.initialize_all();
  std::filesystem::remove(dir / "checkpoint");
  train::saver none(train::saver_options{.max_to_keep = 0}, v);
  const auto p = none.save(sess, dir / "model", 0);
  check_state(dir, p, {p});
  train::saver two(train::saver_options{.max_to_keep = 2}, v);
  two.set_last_checkpoints({dir / "model-2"});
  const auto p0 = two.save(sess, dir / "model", 0);
  check_state(dir, p0, {dir / "model-2", p0});
}
