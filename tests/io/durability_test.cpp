// Saving is atomic and durable: a saving process killed (SIGKILL) at random moments, many
// times, always leaves the previous checkpoint and the state file loadable; a full disk
// (RLIMIT_FSIZE) fails the save with an error and leaves no partial file behind.
//
// TYPEFLOW_KILL_ITERATIONS sets the number of kills (200 by default).
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include <typeflow/ops/state.hpp>
#include <typeflow/ops/variable.hpp>
#include <typeflow/session/session.hpp>
#include <typeflow/train/saver.hpp>

#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;
using ckpt_testing::temp_dir;

namespace {

// 1 MiB of float32, so that a save takes long enough to be killed in the middle.
auto big() { return tf::variable<"durable/weights", float, tf::shape<256, 1024>>(tf::init::zeros()); }
using big_t = decltype(big());

template <class Session>
std::int64_t step_in(Session& sess) {
  return static_cast<std::int64_t>(sess.template slot<big_t>().value(0, 0));
}

/// Restores `path` and checks that it is a whole checkpoint of step `step`: every element
/// of the weights equals the step at which they were saved.
template <class Session>
void check_checkpoint(Session& sess, const std::string& path, std::int64_t step) {
  train::saver{}.restore(sess, path);
  const auto& w = sess.template slot<big_t>().value;
  CHECK(std::all_of(w.begin(), w.end(), [&](float x) { return x == static_cast<float>(step); }));
}

std::int64_t step_of(const std::string& path) {
  return std::stoll(path.substr(path.rfind('-') + 1));
}

}  // namespace

TEST_CASE("durability: SIGKILL at random moments of saving never breaks the previous checkpoint or the state file") {
  const char* env = std::getenv("TYPEFLOW_KILL_ITERATIONS");
  const int iterations = env ? std::atoi(env) : 200;
  temp_dir dir;
  auto w = big();
  tf::session sess(w);
  sess.initialize_all();

  // Kill moments spread over about three saves, so that kills land while writing, syncing,
  // renaming, writing the state file and deleting old checkpoints.
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 1; i <= 3; ++i) train::saver({.max_to_keep = 2}).save(sess, dir / "probe", i);
  const auto save_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count() / 3;
  for (int i = 1; i <= 3; ++i) std::filesystem::remove(dir / ("probe-" + std::to_string(i)));
  train::saver({.max_to_keep = 2}).save(sess, dir / "model.ckpt", 0);
  MESSAGE("one save takes about " << save_us << " us");
  std::mt19937 rng(20261129);
  int killed_mid_write = 0, saves_completed = 0;
  std::int64_t last_step = 0;
  for (int it = 0; it < iterations; ++it) {
    CAPTURE(it);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // The child: a restarted training program that resumes from the latest checkpoint
      // and saves, again and again, until it is killed.
      try {
        train::saver saver({.max_to_keep = 2});
        const auto latest = train::latest_checkpoint(dir.path);
        if (!latest) ::_exit(2);
        saver.restore(sess, *latest);
        for (std::int64_t step = step_in(sess) + 1;; ++step) {
          sess.slot<big_t>().value.fill(static_cast<float>(step));
          saver.save(sess, dir / "model.ckpt", step);
        }
      } catch (...) {
        ::_exit(3);
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(std::uniform_int_distribution<long>(0, 3 * save_us + 2000)(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE_MESSAGE(WIFSIGNALED(status), "the saving child exited with status " << WEXITSTATUS(status));

    for (const auto& f : dir.files())
      if (f.find(".tmp.") != std::string::npos) {
        ++killed_mid_write;
        break;
      }
    // The state file parses, its latest checkpoint exists and is whole, and so is every
    // checkpoint it lists.
    const auto state = train::get_checkpoint_state(dir.path);
    REQUIRE(state.has_value());
    const auto latest = train::latest_checkpoint(dir.path);
    REQUIRE(latest.has_value());
    const auto step = step_of(*latest);
    CHECK(step >= last_step);
    saves_completed += static_cast<int>(step - last_step);
    last_step = step;
    for (const auto& name : state->all_model_checkpoint_paths) check_checkpoint(sess, dir / name, step_of(name));
    check_checkpoint(sess, *latest, step);
  }
  MESSAGE(iterations << " kills; " << killed_mid_write << " left a temporary file (killed while writing); "
                     << saves_completed << " saves completed in all");
  // The next save cleans up what the kills left.
  train::saver({.max_to_keep = 2}).save(sess, dir / "model.ckpt", last_step + 1);
  for (const auto& f : dir.files()) CHECK(f.find(".tmp.") == std::string::npos);
}

TEST_CASE("durability: a full disk (RLIMIT_FSIZE) fails the save with an error and leaves no partial file") {
  temp_dir dir;
  auto w = big();
  tf::session sess(w);
  sess.initialize_all();
  sess.slot<big_t>().value.fill(1);
  train::saver({.max_to_keep = 2}).save(sess, dir / "m", 1);
  const auto before = dir.files();
  const auto state_before = ckpt_testing::read_file(dir / "checkpoint");

  for (auto format : {train::archive_format::portable_binary, train::archive_format::json}) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Files may not grow beyond 64 KiB; writes past it fail with EFBIG instead of
      // killing the process with SIGXFSZ.
      ::signal(SIGXFSZ, SIG_IGN);
      rlimit limit{64 * 1024, 64 * 1024};
      ::setrlimit(RLIMIT_FSIZE, &limit);
      try {
        sess.slot<big_t>().value.fill(2);
        train::saver({.max_to_keep = 2, .format = format}).save(sess, dir / "m", 2);
      } catch (const tf::error& e) {
        const std::string what = e.what();
        ::_exit(what.find("File too large") != std::string::npos && what.find("m-2") != std::string::npos ? 0 : 4);
      } catch (...) {
        ::_exit(5);
      }
      ::_exit(6);  // the save did not fail
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(dir.files() == before);  // no m-2, no temporary file
    CHECK(ckpt_testing::read_file(dir / "checkpoint") == state_before);
    check_checkpoint(sess, *train::latest_checkpoint(dir.path), 1);
  }
}
