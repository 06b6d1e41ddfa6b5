// tests/support/allocation_counter.hpp — replaces the global operator new/delete to count
// heap allocations. Include it in exactly one TU of a test executable (the replacement is
// program-wide), then compare allocation_count() before and after the code under test.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace typeflow_test {
inline std::atomic<long> allocations{0};
inline long allocation_count() { return allocations.load(); }
}  // namespace typeflow_test

void* operator new(std::size_t n) {
  ++typeflow_test::allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
