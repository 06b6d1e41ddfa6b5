// Hostile inputs found by testing the checkpoint reader as an attacker would: paths that are
// not regular files (a directory, a FIFO) are refused at once with a typed error naming the
// path and what it is, and every byte before a checkpoint's data is covered by a check, so
// that no flipped header byte is ever accepted.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

#include <typeflow/ops/state.hpp>
#include <typeflow/ops/variable.hpp>
#include <typeflow/session/session.hpp>
#include <typeflow/train/saver.hpp>

#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
namespace train = typeflow::train;
using ckpt_testing::temp_dir;

namespace {

auto w_var() { return tf::variable<"hostile/w", float, tf::shape<2, 3>>(tf::init::constant(1.5)); }
auto n_var() { return tf::variable<"hostile/n", std::int64_t>(tf::init::constant(7)); }

/// A FIFO that no process writes: opening it for reading without O_NONBLOCK blocks forever.
std::string make_fifo(const temp_dir& dir, const std::string& name) {
  const auto path = dir / name;
  REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
  return path;
}

/// A test that would block forever on a FIFO is killed (and fails) after 20 s instead.
struct watchdog {
  watchdog() { ::alarm(20); }
  ~watchdog() { ::alarm(0); }
};

}  // namespace

TEST_CASE("hostile: a directory or a FIFO as a checkpoint path is FailedPrecondition at once, naming it") {
  watchdog guard;
  temp_dir dir;
  std::filesystem::create_directory(dir / "model.ckpt-1");
  const auto fifo = make_fifo(dir, "model.ckpt-2");
  const auto directory = dir / "model.ckpt-1";

  CHECK_THROWS_WITH_AS(train::list_variables(directory),
                       ("FailedPrecondition: Checkpoint " + directory + " is a directory, not a regular file").c_str(),
                       tf::failed_precondition_error);
  CHECK_THROWS_WITH_AS(train::list_variables(fifo),
                       ("FailedPrecondition: Checkpoint " + fifo + " is a FIFO (named pipe), not a regular file").c_str(),
                       tf::failed_precondition_error);
  CHECK_THROWS_AS(tf::io::checkpoint_reader{fifo}, tf::failed_precondition_error);

  // restore: over initialized variables (the mapped path) and into uninitialized ones (the
  // read path); nothing changes.
  auto w = w_var();
  auto n = n_var();
  tf::session sess(tf::group(w, n));
  for (bool map_file : {true, false}) {
    CAPTURE(map_file);
    train::saver saver({.map_file = map_file});
    CHECK_THROWS_AS(saver.restore(sess, fifo), tf::failed_precondition_error);
    CHECK_THROWS_AS(saver.restore(sess, directory), tf::failed_precondition_error);
    CHECK_FALSE(sess.slot<decltype(w)>().initialized);
    sess.initialize_all();
    sess.slot<decltype(w)>().value.fill(4);
    CHECK_THROWS_WITH_AS(saver.restore(sess, fifo), doctest::Contains("is a FIFO (named pipe)"),
                         tf::failed_precondition_error);
    CHECK_THROWS_WITH_AS(saver.restore(sess, directory), doctest::Contains("is a directory"),
                         tf::failed_precondition_error);
    CHECK(sess.run(w) == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{4, 4, 4}, {4, 4, 4}});
    sess.slot<decltype(w)>().initialized = false;
    sess.slot<decltype(n)>().initialized = false;
  }
  // A missing file is still NotFound.
  CHECK_THROWS_WITH_AS(train::list_variables(dir / "missing"),
                       ("NotFound: Checkpoint " + (dir / "missing") + " not found").c_str(), tf::not_found_error);
}

TEST_CASE("hostile: a state file that is a directory or a FIFO is FailedPrecondition, naming it") {
  watchdog guard;
  temp_dir dir;
  std::filesystem::create_directory(dir / "checkpoint");
  CHECK_THROWS_WITH_AS(train::latest_checkpoint(dir.path),
                       ("FailedPrecondition: Checkpoint state file " + (dir / "checkpoint") +
                        " is a directory, not a regular file")
                           .c_str(),
                       tf::failed_precondition_error);
  temp_dir other;
  make_fifo(other, "checkpoint");
  CHECK_THROWS_WITH_AS(train::get_checkpoint_state(other.path), doctest::Contains("is a FIFO (named pipe)"),
                       tf::failed_precondition_error);
}

namespace {

/// The bytes of a binary checkpoint before its data section: endianness flag, magic,
/// version, its CRC, the header and the header's CRC.
std::size_t header_bytes(const tf::io::checkpoint_header& h) {
  std::size_t n = 1 + 8 + 4 + 4 + 4 + 1 + 8 + 8;
  for (const auto& t : h.tensors) n += 8 + t.name.size() + 1 + 8 + 8 * t.shape.size();
  return n + 4;
}

/// Flips each bit of every header byte of the checkpoint at `path` in turn and restores it
/// into `sess`, whose variables hold other values: every flip must fail with a typeflow
/// error, and no variable may change.
template <class Session, class W, class N>
void every_header_flip_is_refused(Session& sess, W w, N n, const std::string& path) {
  const auto original = ckpt_testing::read_file(path);
  const auto header = tf::io::checkpoint_reader(path).header();
  const auto end = header_bytes(header);
  REQUIRE(end < original.size());
  int refused = 0, flips = 0;
  for (bool map_file : {true, false}) {
    train::saver saver({.map_file = map_file});
    for (std::size_t at = 0; at < end; ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        CAPTURE(at);
        CAPTURE(bit);
        auto bytes = original;
        bytes[at] = static_cast<char>(bytes[at] ^ (1 << bit));
        ckpt_testing::write_file(path, bytes);
        sess.initialize_all();
        sess.template slot<W>().value.fill(-2);
        sess.template slot<N>().value = -3;
        ++flips;
        try {
          saver.restore(sess, path);
          FAIL("a flipped header byte was accepted");
        } catch (const tf::error&) {
          ++refused;
        }
        CHECK(sess.run(w) == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{-2, -2, -2}, {-2, -2, -2}});
        CHECK(sess.run(n) == -3);
      }
    }
  }
  CHECK(refused == flips);
  ckpt_testing::write_file(path, original);
  train::saver{}.restore(sess, path);  // the unflipped file restores
  CHECK(sess.run(n) == 7);
}

}  // namespace

TEST_CASE("hostile: every flipped bit of a checkpoint's header is refused, also the unused global step's") {
  auto w = w_var();
  auto n = n_var();
  tf::session sess(tf::group(w, n));
  sess.initialize_all();
  temp_dir dir;
  SUBCASE("saved without a global step: its 8 bytes hold 0, and are covered too") {
    const auto path = train::saver{}.save(sess, dir / "m");
    CHECK_FALSE(tf::io::checkpoint_reader(path).header().global_step.has_value());
    every_header_flip_is_refused(sess, w, n, path);
  }
  SUBCASE("saved with a global step") {
    const auto path = train::saver{}.save(sess, dir / "m", 123456);
    every_header_flip_is_refused(sess, w, n, path);
  }
}

TEST_CASE("hostile: a checkpoint whose unused global step is not 0 is corrupt (its CRC no longer matches)") {
  auto w = w_var();
  tf::session sess(w);
  sess.initialize_all();
  temp_dir dir;
  const auto path = train::saver{}.save(sess, dir / "m");
  auto bytes = ckpt_testing::read_file(path);
  // flag (1), magic (8), version (8), its CRC (4), has_global_step (1): the step follows.
  REQUIRE(bytes[21] == 0);
  bytes[22] = 1;
  ckpt_testing::write_file(path, bytes);
  CHECK_THROWS_WITH_AS(train::list_variables(path), doctest::Contains("header checksum does not match"),
                       tf::data_loss_error);
}

TEST_CASE("hostile: a JSON checkpoint whose unused global step is not 0 is corrupt too") {
  auto w = w_var();
  tf::session sess(w);
  sess.initialize_all();
  temp_dir dir;
  const auto path = train::saver({.format = train::archive_format::json}).save(sess, dir / "m");
  auto text = ckpt_testing::read_file(path);
  const auto at = text.find("\"global_step\": 0");
  REQUIRE(at != std::string::npos);
  text.replace(at, 16, "\"global_step\": 5");
  ckpt_testing::write_file(path, text);
  CHECK_THROWS_WITH_AS(train::list_variables(path), doctest::Contains("header checksum does not match"),
                       tf::data_loss_error);
}
