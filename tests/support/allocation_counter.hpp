// tests/support/allocation_counter.hpp — replaces the global operator new/delete to count
// heap allocations. Include it in exactly one TU of a test executable (the replacement is
// program-wide), then compare allocation_count() before and after the code under test.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

// None of them inlined: where g++ inlines one side of a new/delete pair into a caller, it
// sees malloc() matched with operator delete, or operator new with free(), and
// -Wmismatched-new-delete reports a false positive that comes and goes with inlining.

namespace typeflow_test {
inline std::atomic<long> allocations{0};
inline long allocation_count() { return allocations.load(); }
}  // namespace typeflow_test

[[gnu::noinline]] void* operator new(std::size_t n) {
  ++typeflow_test::allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new[](std::size_t n) { return operator new(n); }
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
