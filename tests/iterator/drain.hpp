// tests/iterator/drain.hpp — runs a fetch until the iterator's end (OutOfRange), collecting
// each run's value: what a TensorFlow 1.x test's `while True: try: sess.run(...) except
// OutOfRangeError: break` collects.
#pragma once

#include <vector>

#include <typeflow/core/errors.hpp>

namespace iterator_testing {

template <class S, class F>
auto drain(S& sess, const F& fetch) {
  std::vector<decltype(sess.run(fetch))> out;
  for (;;) {
    try {
      out.push_back(sess.run(fetch));
    } catch (const typeflow::out_of_range_error&) {
      return out;
    }
  }
}

}  // namespace iterator_testing
