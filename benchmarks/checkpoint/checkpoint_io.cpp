// Checkpoint speed: saving and restoring 100 MB of float32 variables with train::saver,
// against raw fwrite + fsync and fread of the same bytes, in the same run, on the same file
// system; and in-memory snapshots of a 100k-parameter model.
//
//   bench_checkpoint_io [DIR] [REPETITIONS]     (DIR: the system's temporary directory)
//
// Each figure is the median of REPETITIONS (7) runs, alternating raw and typeflow, so that
// both see the same page-cache and disk conditions. Reads are of files just written (page
// cache), for both. The typeflow save includes everything save() does: CRC32C of every
// tensor and of the header, the temp file, fsync, rename, fsync of the directory, and the
// state file (itself written atomically and durably). Restore includes opening (or
// mapping) and validating the file, CRC32C checks, staging or copying into the session.
// Restore over initialized variables is measured both ways: mapped (the default) and with
// map_file = false (read(2) into a staging buffer, then copied). Every restore of a run is
// timed the same way, so the first one (a cold staging buffer, a first mapping) and the
// later ones alike enter the median; no buffer is kept between restores.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <typeflow/io/crc32c.hpp>
#include <typeflow/ops/state.hpp>
#include <typeflow/ops/variable.hpp>
#include <typeflow/session/session.hpp>
#include <typeflow/train/saver.hpp>

namespace tf = typeflow;
namespace train = typeflow::train;
using clock_type = std::chrono::steady_clock;

namespace {

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void raw_write(const std::string& path, const char* data, std::size_t n) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(data, 1, n, f) != n || std::fflush(f) != 0 || ::fsync(::fileno(f)) != 0) std::abort();
  std::fclose(f);
}

void raw_read(const std::string& path, char* data, std::size_t n) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(data, 1, n, f) != n) std::abort();
  std::fclose(f);
}

// 4 x 25 MB of float32: 100 MB (26,214,400 parameters... 25,000,000 here: 4 x 2500 x 2500).
auto v0() { return tf::variable<"bench/v0", float, tf::shape<2500, 2500>>(tf::init::constant(0.5)); }
auto v1() { return tf::variable<"bench/v1", float, tf::shape<2500, 2500>>(tf::init::constant(1.5)); }
auto v2() { return tf::variable<"bench/v2", float, tf::shape<2500, 2500>>(tf::init::constant(2.5)); }
auto v3() { return tf::variable<"bench/v3", float, tf::shape<2500, 2500>>(tf::init::constant(3.5)); }

// A 784-128-10 MLP: 101,770 parameters.
auto w1() { return tf::variable<"mlp/w1", float, tf::shape<784, 128>>(); }
auto b1() { return tf::variable<"mlp/b1", float, tf::shape<128>>(tf::init::zeros()); }
auto w2() { return tf::variable<"mlp/w2", float, tf::shape<128, 10>>(); }
auto b2() { return tf::variable<"mlp/b2", float, tf::shape<10>>(tf::init::zeros()); }

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path base = argc > 1 ? argv[1] : std::filesystem::temp_directory_path().string();
  const int reps = argc > 2 ? std::atoi(argv[2]) : 7;
  const auto dir = base / ("typeflow-bench-checkpoint-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);

  std::cout << "crc32c: " << (tf::io::crc32c_uses_hardware() ? "SSE4.2 instruction" : "table-driven") << "\n";

  // --- 100 MB save / restore against raw fwrite + fsync / fread -----------------------------
  {
    auto a = v0();
    auto b = v1();
    auto c = v2();
    auto d = v3();
    tf::session sess(tf::group(a, b, c, d));
    sess.initialize_all();
    constexpr std::size_t bytes = 4 * 2500 * 2500 * sizeof(float);
    std::unique_ptr<char[]> buffer(new char[bytes]);
    std::memset(buffer.get(), 1, bytes);
    train::saver saver({.max_to_keep = 2});
    train::saver reading_saver({.map_file = false});  // restores with read(2) and a staging buffer
    const std::string raw_path = (dir / "raw.bin").string();

    using session_t = decltype(sess);
    std::vector<double> raw_w, raw_r, tf_w, tf_r, tf_staged, tf_fresh, crc;
    std::string path;
    for (int i = 0; i < reps; ++i) {
      auto t0 = clock_type::now();
      raw_write(raw_path, buffer.get(), bytes);
      raw_w.push_back(seconds_since(t0));
      t0 = clock_type::now();
      path = saver.save(sess, dir / "model.ckpt", i);
      tf_w.push_back(seconds_since(t0));
      t0 = clock_type::now();
      raw_read(raw_path, buffer.get(), bytes);
      raw_r.push_back(seconds_since(t0));
      t0 = clock_type::now();
      saver.restore(sess, path);
      tf_r.push_back(seconds_since(t0));
      t0 = clock_type::now();
      reading_saver.restore(sess, path);
      tf_staged.push_back(seconds_since(t0));
      {
        // A restarted program: a new session (its storage allocated and zeroed, like the raw
        // read's buffer) whose variables are not initialized yet.
        auto fresh = std::make_unique<session_t>(tf::group(a, b, c, d));
        t0 = clock_type::now();
        saver.restore(*fresh, path);
        tf_fresh.push_back(seconds_since(t0));
      }
      t0 = clock_type::now();
      volatile auto sum = tf::io::crc32c(buffer.get(), bytes);
      (void)sum;
      crc.push_back(seconds_since(t0));
    }
    const double mb = static_cast<double>(bytes) / 1e6;
    const auto gbps = [&](double s) { return mb / 1e3 / s; };
    std::printf("100 MB (%zu bytes of float32 in 4 variables), median of %d, directory %s\n", bytes, reps,
                dir.c_str());
    std::printf("  raw fwrite+fsync   %7.1f ms  %5.2f GB/s\n", 1e3 * median(raw_w), gbps(median(raw_w)));
    std::printf("  saver.save         %7.1f ms  %5.2f GB/s  %5.1f%% of raw\n", 1e3 * median(tf_w), gbps(median(tf_w)),
                100 * median(raw_w) / median(tf_w));
    std::printf("  raw fread          %7.1f ms  %5.2f GB/s\n", 1e3 * median(raw_r), gbps(median(raw_r)));
    std::printf("  saver.restore      %7.1f ms  %5.2f GB/s  %5.1f%% of raw  (into a new session)\n",
                1e3 * median(tf_fresh), gbps(median(tf_fresh)), 100 * median(raw_r) / median(tf_fresh));
    std::printf("  saver.restore      %7.1f ms  %5.2f GB/s  %5.1f%% of raw  (over initialized variables: mapped)\n",
                1e3 * median(tf_r), gbps(median(tf_r)), 100 * median(raw_r) / median(tf_r));
    std::printf("  saver.restore      %7.1f ms  %5.2f GB/s  %5.1f%% of raw  (over initialized variables, map_file = "
                "false: staged)\n",
                1e3 * median(tf_staged), gbps(median(tf_staged)), 100 * median(raw_r) / median(tf_staged));
    std::printf("  (crc32c alone      %7.1f ms  %5.2f GB/s)\n", 1e3 * median(crc), gbps(median(crc)));
  }

  // --- in-memory snapshots of a 100k-parameter model ----------------------------------------
  {
    auto a = w1();
    auto b = b1();
    auto c = w2();
    auto d = b2();
    tf::session sess(tf::group(a, b, c, d));
    sess.initialize_all();
    auto snap = train::snapshot(sess);
    constexpr int n = 2000;
    auto t0 = clock_type::now();
    for (int i = 0; i < n; ++i) snap.take(sess);
    const double take_us = 1e6 * seconds_since(t0) / n;
    t0 = clock_type::now();
    for (int i = 0; i < n; ++i) snap.restore(sess);
    const double restore_us = 1e6 * seconds_since(t0) / n;
    train::saver saver({.max_to_keep = 1});
    std::vector<double> save_s, restore_s;
    for (int i = 0; i < reps; ++i) {
      t0 = clock_type::now();
      const auto path = saver.save(sess, dir / "mlp.ckpt", i);
      save_s.push_back(seconds_since(t0));
      t0 = clock_type::now();
      saver.restore(sess, path);
      restore_s.push_back(seconds_since(t0));
    }
    std::printf("784-128-10 MLP (101,770 float32 parameters, 407 KB)\n");
    std::printf("  snapshot take      %7.1f us\n  snapshot restore   %7.1f us\n", take_us, restore_us);
    std::printf("  saver.save         %7.2f ms (to disk, fsync included)\n  saver.restore      %7.2f ms\n",
                1e3 * median(save_s), 1e3 * median(restore_s));
  }
  std::filesystem::remove_all(dir);
}
