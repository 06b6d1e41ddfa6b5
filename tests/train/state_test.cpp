// The "checkpoint" state file and rotation: latest_checkpoint, max_to_keep (0 keeps all),
// checkpoints of a previous run, keep_checkpoint_every_n_hours, hostile state files.
#include <doctest/doctest.h>

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
auto counter() { return tf::variable<"state/counter", std::int64_t>(tf::init::constant(0)); }
}  // namespace

TEST_CASE("state: latest_checkpoint is nothing without a state file, the newest checkpoint after saves") {
  temp_dir dir;
  CHECK_FALSE(train::latest_checkpoint(dir.path).has_value());
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  train::saver saver{};
  saver.save(sess, dir / "model.ckpt", 1);
  const auto p2 = saver.save(sess, dir / "model.ckpt", 2);
  CHECK(train::latest_checkpoint(dir.path) == p2);
  const auto state = train::get_checkpoint_state(dir.path);
  REQUIRE(state.has_value());
  CHECK(state->model_checkpoint_path == "model.ckpt-2");
  CHECK(state->all_model_checkpoint_paths == files{"model.ckpt-1", "model.ckpt-2"});
  CHECK(state->all_model_checkpoint_timestamps.size() == 2);
  CHECK(ckpt_testing::read_file(dir / "checkpoint").find("model_checkpoint_path: \"model.ckpt-2\"\n") == 0);
  // The newest checkpoint removed by hand: nothing (as TensorFlow).
  std::filesystem::remove(p2);
  CHECK_FALSE(train::latest_checkpoint(dir.path).has_value());
}

TEST_CASE("state: max_to_keep keeps the newest N and deletes the older ones, oldest first") {
  temp_dir dir;
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  train::saver saver({.max_to_keep = 2});
  for (int step = 1; step <= 5; ++step) saver.save(sess, dir / "m", step);
  CHECK(dir.files() == files{"checkpoint", "m-4", "m-5"});
  CHECK(saver.last_checkpoints() == files{dir / "m-4", dir / "m-5"});
  CHECK(train::get_checkpoint_state(dir.path)->all_model_checkpoint_paths == files{"m-4", "m-5"});
}

TEST_CASE("state: the default max_to_keep is 5") {
  temp_dir dir;
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  train::saver saver{};
  CHECK(saver.options().max_to_keep == 5);
  for (int step = 0; step < 7; ++step) saver.save(sess, dir / "m", step);
  CHECK(dir.files() == files{"checkpoint", "m-2", "m-3", "m-4", "m-5", "m-6"});
}

TEST_CASE("state: max_to_keep 0 keeps every file; the state file lists the latest (as TensorFlow)") {
  temp_dir dir;
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  train::saver saver({.max_to_keep = 0});
  for (int step = 0; step < 7; ++step) saver.save(sess, dir / "m", step);
  CHECK(dir.files().size() == 8);
  CHECK(train::get_checkpoint_state(dir.path)->all_model_checkpoint_paths == files{"m-6"});
}

TEST_CASE("state: a new saver (a restarted program) takes over the previous run's checkpoints") {
  temp_dir dir;
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  {
    train::saver first_run({.max_to_keep = 3});
    for (int step = 1; step <= 3; ++step) first_run.save(sess, dir / "m", step);
  }
  // A file of an older run that the state file does not list (e.g. killed before the state
  // file was written), and another prefix's checkpoint, which is not ours to delete.
  ckpt_testing::write_file(dir / "m-0", "old");
  std::filesystem::last_write_time(dir / "m-0", std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  ckpt_testing::write_file(dir / "other-1", "not ours");
  train::saver second_run({.max_to_keep = 3});
  second_run.save(sess, dir / "m", 4);
  CHECK(dir.files() == files{"checkpoint", "m-2", "m-3", "m-4", "other-1"});
  second_run.save(sess, dir / "m", 5);
  CHECK(dir.files() == files{"checkpoint", "m-3", "m-4", "m-5", "other-1"});
}

TEST_CASE("state: stale temporary files of a killed save are removed by the next saver") {
  temp_dir dir;
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  ckpt_testing::write_file(dir / "m-3.tmp.0123456789abcdef", "partial");
  ckpt_testing::write_file(dir / "checkpoint.tmp.fedcba9876543210", "partial");
  ckpt_testing::write_file(dir / "m-3.tmp.notours", "kept: not a name a save writes");
  train::saver saver{};
  saver.save(sess, dir / "m", 4);
  CHECK(dir.files() == files{"checkpoint", "m-3.tmp.notours", "m-4"});
}

TEST_CASE("state: keep_checkpoint_every_n_hours keeps one checkpoint per period besides the newest") {
  temp_dir dir;
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  double now = 1'000'000;
  // one save every 20 minutes, keep 2, and one per hour
  train::saver saver({.max_to_keep = 2, .keep_checkpoint_every_n_hours = 1.0, .clock = [&] { return now; }});
  for (int step = 0; step < 10; ++step, now += 1200) saver.save(sess, dir / "m", step);
  // saved at t0 + 20 min * step; the first one after t0 + 1 h (step 4: 80 min) is preserved,
  // then the first after the next hour mark (step 7: 140 min).
  CHECK(dir.files() == files{"checkpoint", "m-4", "m-7", "m-8", "m-9"});
  CHECK(train::get_checkpoint_state(dir.path)->all_model_checkpoint_paths == files{"m-8", "m-9"});
}

TEST_CASE("state: the state file round-trips and refuses paths outside its directory") {
  train::checkpoint_state s;
  s.model_checkpoint_path = "m-2";
  s.all_model_checkpoint_paths = {"m-1", "m-2"};
  s.all_model_checkpoint_timestamps = {1.5, 1700000000.25};
  s.last_preserved_timestamp = 3;
  CHECK(train::parse_checkpoint_state(train::format_checkpoint_state(s), "x") == s);

  for (const char* text : {
           "model_checkpoint_path: \"/etc/passwd\"\n",
           "model_checkpoint_path: \"../m-1\"\n",
           "model_checkpoint_path: \"sub/m-1\"\n",
           "model_checkpoint_path: \"..\"\n",
           "model_checkpoint_path: \"\"\n",
           "model_checkpoint_path: m-1\n",
           "all_model_checkpoint_paths: \"m-1\"\n",  // no model_checkpoint_path
           "model_checkpoint_path: \"m-1\"\nmodel_checkpoint_path: \"m-2\"\n",
           "model_checkpoint_path: \"m-1\"\nall_model_checkpoint_timestamps: abc\n",
           "model_checkpoint_path: \"m-1\"\nall_model_checkpoint_timestamps: 1\n",  // 1 stamp, 0 paths
           "model_checkpoint_path: \"m-1\"\nunknown_field: 1\n",
           "garbage",
       }) {
    CAPTURE(text);
    CHECK_THROWS_AS(train::parse_checkpoint_state(text, "state"), tf::data_loss_error);
  }
  CHECK_THROWS_WITH_AS(train::parse_checkpoint_state("model_checkpoint_path: \"/etc/passwd\"\n", "dir/checkpoint"),
                       "DataLoss: Checkpoint state file dir/checkpoint is corrupt: line 1: '/etc/passwd' is not a "
                       "plain file name in the state file's directory",
                       tf::data_loss_error);
  CHECK_THROWS_AS(train::parse_checkpoint_state(std::string(train::max_checkpoint_state_bytes + 1, ' '), "big"),
                  tf::data_loss_error);
}

TEST_CASE("state: a corrupt state file makes latest_checkpoint fail with DataLoss; the next save replaces it") {
  temp_dir dir;
  ckpt_testing::write_file(dir / "checkpoint", "model_checkpoint_path: \"../../etc/passwd\"\n");
  CHECK_THROWS_AS(train::latest_checkpoint(dir.path), tf::data_loss_error);
  auto c = counter();
  tf::session sess(c);
  sess.initialize_all();
  train::saver saver{};
  const auto p = saver.save(sess, dir / "m", 1);
  CHECK(train::latest_checkpoint(dir.path) == p);
}
