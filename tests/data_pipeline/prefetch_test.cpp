// prefetch's thread (prefetch_test.py): the order kept, exceptions rethrown in the consumer
// after the elements before them, a clean stop when the iterator goes mid-pass, and saving
// while the thread runs. Label "threads": run under ThreadSanitizer too.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

#include <xtensor/xarray.hpp>

#include <typeflow/data/dataset.hpp>

#include "dataset_testing.hpp"

namespace td = typeflow::data;
using typeflow_test::drain_iterator;
using typeflow_test::iota;
using typeflow_test::scalars;
using i64 = std::int64_t;

TEST_CASE("prefetch keeps the order (prefetch_test.py testBufferSize)") {
  for (i64 n : {1, 2, 5, 200}) CHECK(scalars(td::range(100).prefetch(n)) == iota(0, 100));
  CHECK(scalars(td::range(0).prefetch(2)).empty());
  CHECK(scalars(td::range(30).prefetch(2).map([](const xt::xarray<i64>& x) { return xt::xarray<i64>(x + 1); }).prefetch(3)) ==
        iota(1, 31));
  CHECK(scalars(td::range(4).prefetch(2).repeat(3)).size() == 12);
  CHECK_THROWS_AS(td::range(3).prefetch(0), typeflow::invalid_argument_error);  // testInvalidBufferSize
  CHECK_THROWS_AS(td::range(3).prefetch(-2), typeflow::invalid_argument_error);
}

TEST_CASE("an exception of the input is rethrown in the consumer after the elements before it") {
  const auto ds = td::range(10)
                      .map([](const xt::xarray<i64>& x) {
                        if (x() == 5) throw typeflow::data_loss_error("element 5 is corrupt");
                        return xt::xarray<i64>(x);
                      })
                      .prefetch(3);
  auto it = ds.make_iterator();
  std::tuple<xt::xarray<i64>> out;
  for (i64 i = 0; i < 5; ++i) {
    REQUIRE(it.next(out));
    CHECK(std::get<0>(out)() == i);
  }
  CHECK_THROWS_WITH_AS(it.next(out), "DataLoss: element 5 is corrupt", typeflow::data_loss_error);
  CHECK(!it.next(out));  // the iterator has ended
}

TEST_CASE("destroying the iterator mid-pass stops its thread") {
  const auto slow = td::range(1000).map([](const xt::xarray<i64>& x) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return xt::xarray<i64>(x);
  });
  for (int round = 0; round < 20; ++round) {
    auto it = slow.prefetch(4).make_iterator();
    std::tuple<xt::xarray<i64>> out;
    for (int i = 0; i < round % 5; ++i) REQUIRE(it.next(out));
    if (round % 2) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a full buffer: the thread waits
  }  // each iterator joins its thread here
  auto never_started = td::range(10).prefetch(2).make_iterator();
  (void)never_started;
  CHECK(true);  // reaching here is the test: no hang, no crash (and no race under TSan)
}

TEST_CASE("save and restore while the thread runs") {
  const auto ds = td::range(40).shuffle(8, 3).batch(3).prefetch(2);
  const auto full = typeflow_test::drain(ds);
  REQUIRE(full.size() == 14);
  for (std::size_t k = 0; k <= full.size(); k += 3) {
    auto it = ds.make_iterator();
    std::tuple<xt::xarray<i64>> out;
    for (std::size_t i = 0; i < k; ++i) REQUIRE(it.next(out));
    td::iterator_state state;
    it.save(state);
    auto other = ds.make_iterator();
    REQUIRE(other.next(out));  // its thread is running when it is restored
    other.restore(state);
    const auto rest = drain_iterator(other, out);
    CHECK(rest == std::vector(full.begin() + static_cast<std::ptrdiff_t>(k), full.end()));
    CHECK(drain_iterator(it, out) == rest);
  }
}
