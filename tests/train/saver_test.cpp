// train::saver: save and restore, renaming, subsets, and every way a restore can fail,
// which must leave the session unchanged.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
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
auto w_var() { return tf::variable<"saver/w", float, tf::shape<2, 3>>(tf::init::random_uniform(-1, 1, 7)); }
auto b_var() { return tf::variable<"saver/b", double, tf::shape<3>>(tf::init::constant(0.5)); }
auto n_var() { return tf::variable<"saver/n", std::int64_t>(tf::init::constant(3)); }
auto f_var() { return tf::variable<"saver/flag", bool, tf::shape<2>>(tf::init::ones()); }
}  // namespace

TEST_CASE("saver: save then restore every variable of a session, both archives") {
  auto w = w_var();
  auto b = b_var();
  auto n = n_var();
  auto f = f_var();
  tf::session sess(tf::group(w, b, n, f));
  for (auto format : {train::archive_format::portable_binary, train::archive_format::json}) {
    temp_dir dir;
    sess.initialize_all();
    const auto w0 = sess.run(w);
    train::saver saver({.format = format});
    const auto path = saver.save(sess, dir / "model.ckpt", 10);
    CHECK(path == dir / "model.ckpt-10");
    CHECK(dir.files() == std::vector<std::string>{"checkpoint", "model.ckpt-10"});

    sess.slot<decltype(w)>().value.fill(0);
    sess.slot<decltype(b)>().value.fill(0);
    sess.slot<decltype(n)>().value = 0;
    sess.slot<decltype(f)>().initialized = false;
    saver.restore(sess, path);
    CHECK(sess.run(w) == w0);
    CHECK(sess.run(b) == xt::xtensor_fixed<double, xt::xshape<3>>{0.5, 0.5, 0.5});
    CHECK(sess.run(n) == 3);
    CHECK(sess.run(f) == xt::xtensor_fixed<bool, xt::xshape<2>>{true, true});
    CHECK(train::latest_checkpoint(dir.path) == path);
  }
}

TEST_CASE("saver: list_variables gives name, shape and dtype of every tensor, sorted by name") {
  auto w = w_var();
  auto n = n_var();
  tf::session sess(tf::group(w, n));
  sess.initialize_all();
  temp_dir dir;
  train::saver saver{};
  const auto vars = train::list_variables(saver.save(sess, dir / "m"));
  REQUIRE(vars.size() == 2);
  CHECK(vars[0] == train::variable_info{"saver/n", tf::dtype::int64, {}});
  CHECK(vars[1] == train::variable_info{"saver/w", tf::dtype::float32, {2, 3}});
  CHECK(dir.files() == std::vector<std::string>{"checkpoint", "m"});
}

TEST_CASE("saver: a map of checkpoint keys renames variables (restore d from key a)") {
  auto a = tf::variable<"rename/a", float, tf::shape<3>>(tf::init::constant(1));
  auto d = tf::variable<"rename/d", float, tf::shape<3>>(tf::init::constant(2));
  tf::session writer(a);
  writer.initialize_all();
  temp_dir dir;
  const auto path = train::saver(a).save(writer, dir / "m", 1);

  tf::session reader(d);
  reader.initialize_all();
  train::saver renamed(train::saved_as<"rename/a">(d));
  renamed.restore(reader, path);
  CHECK(reader.run(d) == xt::xtensor_fixed<float, xt::xshape<3>>{1, 1, 1});
  // Saving under a key writes the key.
  const auto vars = train::list_variables(renamed.save(reader, dir / "renamed"));
  CHECK(vars[0].name == "rename/a");
}

TEST_CASE("saver: restoring a subset of a checkpoint ignores its other tensors") {
  auto w = w_var();
  auto b = b_var();
  auto n = n_var();
  tf::session full(tf::group(w, b, n));
  full.initialize_all();
  temp_dir dir;
  const auto path = train::saver{}.save(full, dir / "m", 0);

  tf::session part(b);
  train::saver(b).restore(part, path);
  CHECK(part.run(b) == xt::xtensor_fixed<double, xt::xshape<3>>{0.5, 0.5, 0.5});
}

TEST_CASE("saver: every missing key is listed, \"Key NAME not found in checkpoint PATH\", and nothing changes") {
  auto w = w_var();
  auto b = b_var();
  auto n = n_var();
  tf::session small(w);
  small.initialize_all();
  temp_dir dir;
  const auto path = train::saver{}.save(small, dir / "m", 0);

  tf::session big(tf::group(w, b, n));
  big.initialize_all();
  big.slot<decltype(w)>().value.fill(9);
  CHECK_THROWS_WITH_AS(train::saver{}.restore(big, path),
                       ("NotFound: Key saver/b not found in checkpoint " + path + "\nKey saver/n not found in checkpoint " +
                        path).c_str(),
                       tf::not_found_error);
  // w is in the checkpoint but must not have been restored: all or nothing.
  CHECK(big.run(w) == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{9, 9, 9}, {9, 9, 9}});
}

TEST_CASE("saver: a shape mismatch names the variable and both shapes; reshape=true restores equal counts") {
  auto src = tf::variable<"shape/v", float, tf::shape<2, 3>>(tf::init::constant(4));
  auto dst = tf::variable<"shape/u", float, tf::shape<3, 2>>(tf::init::constant(0));
  auto bad = tf::variable<"shape/x", float, tf::shape<5>>(tf::init::constant(0));
  tf::session s1(src);
  s1.initialize_all();
  temp_dir dir;
  const auto path = train::saver(train::saved_as<"v">(src)).save(s1, dir / "m");

  tf::session s2(tf::group(dst, bad));
  s2.initialize_all();
  CHECK_THROWS_WITH_AS(train::saver(train::saved_as<"v">(dst)).restore(s2, path),
                       ("InvalidArgument: Cannot restore variable shape/u (checkpoint key v) of shape [3, 2] from a "
                        "tensor of shape [2, 3] in checkpoint " +
                        path + " (the element counts agree: make the saver with reshape = true to restore it)")
                           .c_str(),
                       tf::invalid_argument_error);
  CHECK(s2.run(dst) == xt::xtensor_fixed<float, xt::xshape<3, 2>>{{0, 0}, {0, 0}, {0, 0}});
  train::saver({.reshape = true}, train::saved_as<"v">(dst)).restore(s2, path);
  CHECK(s2.run(dst) == xt::xtensor_fixed<float, xt::xshape<3, 2>>{{4, 4}, {4, 4}, {4, 4}});
  CHECK_THROWS_WITH_AS(train::saver({.reshape = true}, train::saved_as<"v">(bad)).restore(s2, path),
                       doctest::Contains("of shape [5] from a tensor of shape [2, 3]"), tf::invalid_argument_error);
}

TEST_CASE("saver: a dtype mismatch names both dtypes; every mismatch is listed at once") {
  auto f = tf::variable<"dtype/x", float, tf::shape<2>>(tf::init::constant(1));
  auto g = tf::variable<"dtype/y", float, tf::shape<2>>(tf::init::constant(1));
  auto i = tf::variable<"dtype/i", std::int32_t, tf::shape<2>>(tf::init::constant(0));
  auto k = tf::variable<"dtype/k", float, tf::shape<3>>(tf::init::constant(0));
  tf::session s1(tf::group(f, g));
  s1.initialize_all();
  temp_dir dir;
  const auto path = train::saver(train::saved_as<"x">(f), train::saved_as<"y">(g)).save(s1, dir / "m");
  tf::session s2(tf::group(i, k));
  s2.initialize_all();
  try {
    train::saver(train::saved_as<"x">(i), train::saved_as<"y">(k)).restore(s2, path);
    FAIL("restore should have thrown");
  } catch (const tf::invalid_argument_error& e) {
    const std::string m = e.message();
    CHECK(m.find("Cannot restore variable dtype/i (checkpoint key x) of dtype int32 from a tensor of dtype float32") !=
          std::string::npos);
    CHECK(m.find("Cannot restore variable dtype/k (checkpoint key y) of shape [3] from a tensor of shape [2]") !=
          std::string::npos);
  }
}

TEST_CASE("saver: a corrupt tensor fails the restore with DataLoss naming it, and nothing changes") {
  auto w = w_var();
  auto b = b_var();
  tf::session sess(tf::group(w, b));
  sess.initialize_all();
  temp_dir dir;
  train::saver saver{};
  const auto path = saver.save(sess, dir / "m", 1);
  auto bytes = ckpt_testing::read_file(path);
  bytes[bytes.size() - 6] ^= 0x10;  // inside the last tensor's data (saver/b)
  ckpt_testing::write_file(path, bytes);
  sess.slot<decltype(w)>().value.fill(-1);
  CHECK_THROWS_WITH_AS(saver.restore(sess, path), doctest::Contains("Checksum does not match for tensor saver/b"),
                       tf::data_loss_error);
  CHECK(sess.run(w) == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{-1, -1, -1}, {-1, -1, -1}});
}

TEST_CASE("saver: saving an uninitialized variable fails, naming it, and writes nothing") {
  auto w = w_var();
  tf::session sess(w);
  temp_dir dir;
  CHECK_THROWS_WITH_AS(train::saver{}.save(sess, dir / "m", 1),
                       ("FailedPrecondition: Attempting to use uninitialized value saver/w (saving checkpoint " +
                        (dir / "m-1") + ")").c_str(),
                       tf::failed_precondition_error);
  CHECK(dir.files().empty());
  CHECK_THROWS_AS(train::saver{}.save(sess, dir / "missing/m", 1), tf::error);
}

TEST_CASE("saver: the global step can be read from the session's global_step variable") {
  auto step = tf::variable<"global_step", std::int64_t>(tf::init::constant(1234));
  tf::session sess(step);
  sess.initialize_all();
  temp_dir dir;
  train::saver saver{};
  CHECK(saver.save(sess, dir / "model.ckpt", step) == dir / "model.ckpt-1234");
  tf::io::checkpoint_reader r(dir / "model.ckpt-1234");
  CHECK(r.header().global_step == 1234);
}

TEST_CASE("saver: diff says how a checkpoint differs from a session's variables") {
  auto w = w_var();
  auto b = b_var();
  auto other_w = tf::variable<"diff/w", float, tf::shape<4>>(tf::init::zeros());
  tf::session s1(tf::group(w, b));
  s1.initialize_all();
  temp_dir dir;
  const auto path = train::saver{}.save(s1, dir / "m");
  tf::session s2(tf::group(w, other_w));
  CHECK(train::diff_checkpoint(s1, path).empty());
  const auto d = train::diff_checkpoint(s2, path);
  CHECK(d.missing == std::vector<std::string>{"diff/w"});
  CHECK(d.extra == std::vector<std::string>{"saver/b"});
  auto typed = tf::variable<"saver/b", float, tf::shape<4>>(tf::init::zeros());
  tf::session s3(typed);
  const auto d3 = train::saver{}.diff(s3, path);
  CHECK(d3.shape_mismatches == std::vector<std::string>{"saver/b: expected [4], checkpoint [3]"});
  CHECK(d3.dtype_mismatches == std::vector<std::string>{"saver/b: expected float32, checkpoint float64"});
  CHECK(d3.extra == std::vector<std::string>{"saver/w"});
  CHECK(d3.to_string() ==
        "extra saver/w\nshape saver/b: expected [4], checkpoint [3]\ndtype saver/b: expected float32, checkpoint float64\n");
}

TEST_CASE("saver: duplicate keys known at compile time do not compile; keys are per saver") {
  auto a = tf::variable<"dup/a", float>(tf::init::zeros());
  auto b = tf::variable<"dup/b", float>(tf::init::zeros());
  using ok = decltype(train::saver(a, train::saved_as<"x">(b)));
  static_assert(std::is_same_v<ok, train::saver<tf::mp::mp_list<train::saved_as_t<"dup/a", decltype(a)>,
                                                                    train::saved_as_t<"x", decltype(b)>>>>);
  static_assert(train::detail::first_duplicate_key<tf::mp::mp_list<train::saved_as_t<"k", decltype(a)>,
                                                                   train::saved_as_t<"k", decltype(b)>>> == 1);
  // the same variable under two keys is allowed (it is written twice)
  tf::session sess(a);
  sess.initialize_all();
  temp_dir dir;
  train::saver twice(a, train::saved_as<"copy">(a));
  const auto path = twice.save(sess, dir / "m");
  CHECK(train::list_variables(path).size() == 2);
  tf::session fresh(a);
  twice.restore(fresh, path);  // staged, not read in place twice
  CHECK(fresh.run(a) == 0.0f);
}

TEST_CASE("saver: a failed restore into a new session leaves every variable uninitialized") {
  auto w = w_var();
  auto b = b_var();
  tf::session sess(tf::group(w, b));
  sess.initialize_all();
  temp_dir dir;
  const auto path = train::saver{}.save(sess, dir / "m", 1);
  auto bytes = ckpt_testing::read_file(path);
  bytes[bytes.size() - 6] ^= 0x01;  // saver/b's data: saver/w (read in place first) is fine
  ckpt_testing::write_file(path, bytes);
  tf::session fresh(tf::group(w, b));
  CHECK_THROWS_AS(train::saver{}.restore(fresh, path), tf::data_loss_error);
  CHECK_FALSE(fresh.is_initialized(w));
  CHECK_FALSE(fresh.is_initialized(b));
  CHECK_THROWS_AS(fresh.run(w), tf::failed_precondition_error);
}

TEST_CASE("saver: restoring over initialized variables, mapped (map_file) or read, is all or nothing and bit-exact") {
  auto w = w_var();
  auto b = b_var();
  auto n = n_var();
  for (bool map_file : {true, false}) {
    CAPTURE(map_file);
    tf::session sess(tf::group(w, b, n));
    sess.initialize_all();
    // NaN payloads, signs, infinities and -0 come back bit for bit.
    const std::uint32_t bits[6] = {0x7fc00001u, 0xffc00000u, 0x7f800001u, 0xff800000u, 0x80000000u, 0x3f800000u};
    std::memcpy(sess.slot<decltype(w)>().value.data(), bits, sizeof bits);
    temp_dir dir;
    train::saver saver({.map_file = map_file});
    const auto path = saver.save(sess, dir / "m", 1);
    sess.slot<decltype(w)>().value.fill(0);
    sess.slot<decltype(b)>().value.fill(0);
    saver.restore(sess, path);
    CHECK(std::memcmp(sess.slot<decltype(w)>().value.data(), bits, sizeof bits) == 0);
    CHECK(sess.run(b) == xt::xtensor_fixed<double, xt::xshape<3>>{0.5, 0.5, 0.5});

    // A mixed session: w initialized, b and n not. A corrupt last tensor changes nothing.
    auto bytes = ckpt_testing::read_file(path);
    auto corrupt = bytes;
    corrupt[corrupt.size() - 6] ^= 0x04;  // inside the last tensor's data (saver/n)
    ckpt_testing::write_file(path, corrupt);
    sess.slot<decltype(w)>().value.fill(-1);
    sess.slot<decltype(b)>().initialized = false;
    sess.slot<decltype(n)>().initialized = false;
    CHECK_THROWS_WITH_AS(saver.restore(sess, path), doctest::Contains("Checksum does not match for tensor saver/n"),
                         tf::data_loss_error);
    CHECK(sess.run(w) == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{-1, -1, -1}, {-1, -1, -1}});
    CHECK_FALSE(sess.is_initialized(b));
    CHECK_FALSE(sess.is_initialized(n));

    // Truncated anywhere in the data, or one byte longer: DataLoss, nothing changes.
    for (std::size_t cut : {bytes.size() - 1, bytes.size() - 20, bytes.size() / 2}) {
      ckpt_testing::write_file(path, bytes.substr(0, cut));
      CHECK_THROWS_AS(saver.restore(sess, path), tf::data_loss_error);
    }
    ckpt_testing::write_file(path, bytes + "x");
    CHECK_THROWS_AS(saver.restore(sess, path), tf::data_loss_error);
    ckpt_testing::write_file(path, "");
    CHECK_THROWS_AS(saver.restore(sess, path), tf::data_loss_error);
    CHECK(sess.run(w) == xt::xtensor_fixed<float, xt::xshape<2, 3>>{{-1, -1, -1}, {-1, -1, -1}});
    CHECK_FALSE(sess.is_initialized(b));

    // A missing file is NotFound either way.
    CHECK_THROWS_AS(saver.restore(sess, dir / "missing"), tf::not_found_error);
  }
}

namespace {
// What saver{}.restore(sess, path) does, with `after_verify` called between verifying the
// mapped checkpoint and copying it into the variables: the restore transaction's observer,
// which only tests pass (io/detail/restore.hpp).
template <class Session>
void restore_observed(Session& sess, const std::string& path, const std::function<void()>& after_verify) {
  using entries = train::saver_entries_t<train::all_variables, Session>;
  const auto vars = train::detail::restored_variables<entries>(sess);
  tf::io::detail::restore_variables(vars, path, {}, after_verify);
}
std::string hooked_path;
}  // namespace

TEST_CASE("saver: a write into the checkpoint during a mapped restore is detected; the variables become uninitialized") {
  auto w = w_var();
  auto b = b_var();
  tf::session sess(tf::group(w, b));
  sess.initialize_all();
  temp_dir dir;
  train::saver saver{};
  hooked_path = saver.save(sess, dir / "m", 1);
  // An old modification time, so that the write below changes it whatever the clock's grain.
  const timespec old_times[2] = {{1000000000, 0}, {1000000000, 0}};
  REQUIRE(::utimensat(AT_FDCWD, hooked_path.c_str(), old_times, 0) == 0);
  const auto write_into_file = [] {
    // After verification, before the copy: another process writes into the file in place.
    const int fd = ::open(hooked_path.c_str(), O_WRONLY);
    REQUIRE(fd >= 0);
    const char byte = 0x55;
    REQUIRE(::pwrite(fd, &byte, 1, static_cast<off_t>(std::filesystem::file_size(hooked_path) - 6)) == 1);
    ::close(fd);
  };
  CHECK_THROWS_WITH_AS(restore_observed(sess, hooked_path, write_into_file),
                       doctest::Contains("changed while it was being restored (another process wrote into it)"),
                       tf::data_loss_error);
  CHECK_FALSE(sess.is_initialized(w));
  CHECK_FALSE(sess.is_initialized(b));
}

TEST_CASE("saver: deleting or renaming the checkpoint during a mapped restore (rotation) does not disturb it") {
  auto w = w_var();
  auto b = b_var();
  tf::session sess(tf::group(w, b));
  sess.initialize_all();
  const auto w0 = sess.run(w);
  temp_dir dir;
  train::saver saver{};
  for (bool rename : {false, true}) {
    CAPTURE(rename);
    hooked_path = saver.save(sess, dir / "m", 1);
    sess.slot<decltype(w)>().value.fill(0);
    if (rename) {
      restore_observed(sess, hooked_path, [] { std::filesystem::rename(hooked_path, hooked_path + ".old"); });
    } else {
      restore_observed(sess, hooked_path, [] { std::filesystem::remove(hooked_path); });
    }
    CHECK(sess.run(w) == w0);
  }
}

TEST_CASE("saver: truncating the checkpoint during a mapped restore raises SIGBUS (the documented risk of map_file)") {
  auto w = w_var();
  tf::session sess(w);
  sess.initialize_all();
  temp_dir dir;
  hooked_path = train::saver{}.save(sess, dir / "m", 1);
  std::fflush(nullptr);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::signal(SIGBUS, SIG_DFL);  // no test framework or sanitizer report: the plain signal
    try {
      restore_observed(sess, hooked_path, [] { (void)::truncate(hooked_path.c_str(), 0); });
      ::_exit(0);
    } catch (...) {
      ::_exit(3);
    }
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == SIGBUS);

  // With map_file = false the file is read: the truncated file is DataLoss, nothing changes.
  const auto w0 = sess.run(w);
  CHECK_THROWS_AS(train::saver({.map_file = false}).restore(sess, hooked_path), tf::data_loss_error);
  CHECK(sess.run(w) == w0);
}

TEST_CASE("snapshot: an in-memory copy of every variable restores values and initialized flags") {
  auto w = w_var();
  auto n = n_var();
  tf::session sess(tf::group(w, n));
  sess.initialize_all();
  const auto w0 = sess.run(w);
  auto best = train::snapshot(sess);
  sess.slot<decltype(w)>().value.fill(5);
  sess.slot<decltype(n)>().initialized = false;
  best.restore(sess);
  CHECK(sess.run(w) == w0);
  CHECK(sess.run(n) == 3);
  sess.slot<decltype(n)>().value = 8;
  best.take(sess);
  sess.slot<decltype(n)>().value = 9;
  best.restore(sess);
  CHECK(sess.run(n) == 8);
}
