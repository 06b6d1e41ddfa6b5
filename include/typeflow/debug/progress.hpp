// typeflow/debug/progress.hpp — a progress display for long training loops, as Keras's
// Progbar: steps done of the total, examples per second, the loss and the time left.
//
//   tf::debug::progress bar(total_steps, batch_size);
//   for (...) { ...; bar.update(step, loss); }
//   bar.finish();
//
// On a terminal it redraws one line (at most ten times a second); when the stream is not a
// terminal (a log file, CI) it prints nothing, so logs keep only what the program prints
// itself. `line()` formats the display without printing it.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace typeflow::debug {

class progress {
 public:
  using clock = std::chrono::steady_clock;

  /// A display of `total_steps` steps of `examples_per_step` examples each, on `out`
  /// (stdout by default), drawn only when `out` is a terminal.
  explicit progress(std::int64_t total_steps, std::int64_t examples_per_step = 1, std::FILE* out = stdout)
      : total_(total_steps), per_step_(examples_per_step), out_(out),
        active_(out != nullptr && ::isatty(::fileno(out)) == 1), start_(clock::now()), last_draw_(start_) {}

  /// Whether the display draws (its stream is a terminal).
  bool active() const noexcept { return active_; }

  /// Step `step` (1-based: the number of steps done) finished with `loss`.
  void update(std::int64_t step, double loss) {
    step_ = step;
    loss_ = loss;
    if (!active_) return;
    const auto now = clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(100) && step < total_) return;
    last_draw_ = now;
    std::fprintf(out_, "\r%s", line(step, loss, std::chrono::duration<double>(now - start_).count()).c_str());
    std::fflush(out_);
  }

  /// Ends the display's line (on a terminal).
  void finish() {
    if (!active_) return;
    std::fprintf(out_, "\r%s\n",
                 line(step_, loss_, std::chrono::duration<double>(clock::now() - start_).count()).c_str());
    std::fflush(out_);
  }

  /// "step 400/937 [========>           ] 12,345 examples/s  loss 0.5432  ETA 0:03" after
  /// `elapsed` seconds at step `step`.
  std::string line(std::int64_t step, double loss, double elapsed) const {
    constexpr int width = 20;
    const double done = total_ > 0 ? static_cast<double>(step) / static_cast<double>(total_) : 0.0;
    const int filled = static_cast<int>(std::lround(std::min(1.0, std::max(0.0, done)) * width));
    std::string bar(static_cast<std::size_t>(width), ' ');
    for (int i = 0; i < filled; ++i) bar[static_cast<std::size_t>(i)] = '=';
    if (filled > 0 && filled < width) bar[static_cast<std::size_t>(filled - 1)] = '>';
    const double rate = elapsed > 0 ? static_cast<double>(step * per_step_) / elapsed : 0.0;
    const double left = step > 0 && step < total_ ? elapsed * static_cast<double>(total_ - step) / static_cast<double>(step) : 0.0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "step %lld/%lld [%s] %.0f examples/s  loss %.4f  ETA %s",
                  static_cast<long long>(step), static_cast<long long>(total_), bar.c_str(), rate, loss,
                  duration(left).c_str());
    return buf;
  }

  /// "m:ss", or "h:mm:ss" from an hour on.
  static std::string duration(double seconds) {
    const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    char buf[32];
    if (s >= 3600) {
      std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
    } else {
      std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
    }
    return buf;
  }

 private:
  std::int64_t total_, per_step_;
  std::FILE* out_;
  bool active_;
  clock::time_point start_, last_draw_;
  std::int64_t step_ = 0;
  double loss_ = 0;
};

}  // namespace typeflow::debug
