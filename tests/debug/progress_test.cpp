// debug/progress.hpp: the display's line, and silence off a terminal.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include <typeflow/debug/progress.hpp>

namespace tf = typeflow;

TEST_CASE("The line shows steps, a bar, examples per second, the loss and the time left") {
  tf::debug::progress bar(1000, 64, nullptr);
  // 250 of 1000 steps in 10 s: 1600 examples/s, 30 s left.
  CHECK(bar.line(250, 0.54321, 10.0) ==
        "step 250/1000 [====>               ] 1600 examples/s  loss 0.5432  ETA 0:30");
  CHECK(bar.line(1000, 0.1, 40.0) == "step 1000/1000 [====================] 1600 examples/s  loss 0.1000  ETA 0:00");
  CHECK(bar.line(0, 0.0, 0.0) == "step 0/1000 [                    ] 0 examples/s  loss 0.0000  ETA 0:00");
}

TEST_CASE("Durations: m:ss, then h:mm:ss") {
  CHECK(tf::debug::progress::duration(0) == "0:00");
  CHECK(tf::debug::progress::duration(59.6) == "1:00");
  CHECK(tf::debug::progress::duration(754) == "12:34");
  CHECK(tf::debug::progress::duration(3600 + 62) == "1:01:02");
}

TEST_CASE("Off a terminal the display prints nothing") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  tf::debug::progress bar(10, 1, f);
  CHECK_FALSE(bar.active());
  for (int i = 1; i <= 10; ++i) bar.update(i, 1.0 / i);
  bar.finish();
  CHECK(std::ftell(f) == 0);
  std::fclose(f);
}
