// examples/expect.hpp — EXPECT(condition): an example ends with exit code 1, naming the
// condition and its line, when the library disagrees with the docs it is shown in. Every
// example is a ctest test (examples/CMakeLists.txt), so a page cannot claim what the
// library does not do.
#pragma once

#include <cstdio>
#include <cstdlib>

#define EXPECT(...)                                                                    \
  ((__VA_ARGS__) ? void()                                                              \
                 : (std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, \
                                 #__VA_ARGS__),                                        \
                    std::exit(1)))
