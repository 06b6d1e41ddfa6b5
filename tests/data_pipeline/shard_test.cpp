// Dataset.shard on the host datasets, ported from TensorFlow's shard_test.py (the same
// inputs, the same elements, InvalidArgument where TensorFlow raises it) and
// shard_dataset_serialization_test.py (a position saved anywhere resumes exactly).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include <typeflow/data/dataset.hpp>

#include "dataset_testing.hpp"

namespace td = typeflow::data;
using typeflow_test::drain;
using typeflow_test::drain_iterator;
using typeflow_test::scalars;
using i64 = std::int64_t;

static_assert(td::dataset<decltype(td::range(10).shard(5, 2))>);
static_assert(!td::row_indexed<decltype(td::range(10).shard(5, 2))>);
static_assert(td::row_indexed<decltype(td::from_tensor_slices(xt::xarray<i64>{1, 2}).shuffle(2, 1).shard(2, 0))>);

namespace {
xt::xarray<float> features(std::size_t n) {
  xt::xarray<float> x = xt::arange<float>(static_cast<float>(n * 3));
  x.reshape({n, 3});
  return x;
}
}  // namespace

TEST_CASE("shard keeps the elements i with i % num_shards == index (shard_test.py)") {
  CHECK(scalars(td::range(10).shard(5, 2)) == std::vector<i64>{2, 7});  // testSimpleCase
  CHECK(scalars(td::range(10).shard(5, 0)) == std::vector<i64>{0, 5});  // testOffsetZero
  CHECK(scalars(td::range(1).shard(5, 2)).empty());                     // testIteratorEndsBeforeFirstElem
  CHECK(scalars(td::range(10).shard(7, 5)) == std::vector<i64>{5});     // testLargerWorkerPool
  CHECK(scalars(td::range(10).shard(5, 4)) == std::vector<i64>{4, 9});  // testIndexEqualsNumShards
  CHECK(scalars(td::range(10).shard(4, 3)) == std::vector<i64>{3, 7});  // testIndexEqualsNumShards2
  CHECK(scalars(td::range(10).shard(20, 5)) == std::vector<i64>{5});    // testNumShardsLargerThanDataset
  CHECK(scalars(td::range(10).shard(1, 0)) == typeflow_test::iota(0, 10));

  // testNestedData: every component of an element goes with it.
  const auto nested = drain(td::zip(td::range(10), td::range(10, 0, -1)).shard(5, 2));
  REQUIRE(nested.size() == 2);
  CHECK(std::get<0>(nested[0])() == 2);
  CHECK(std::get<1>(nested[0])() == 8);
  CHECK(std::get<0>(nested[1])() == 7);
  CHECK(std::get<1>(nested[1])() == 3);
}

TEST_CASE("shard's arguments are checked as TensorFlow checks them, the message naming the values") {
  // testOffsetGreaterNumShards, testNegativeOffset, testNegativeNumShards, testZeroNumShards
  CHECK_THROWS_WITH_AS(td::range(10).shard(5, 7),
                       "InvalidArgument: shard: Index must be between 0 and 4 (currently index = 7)",
                       typeflow::invalid_argument_error);
  CHECK_THROWS_WITH_AS(td::range(10).shard(5, -3),
                       "InvalidArgument: shard: Index must be between 0 and 4 (currently index = -3)",
                       typeflow::invalid_argument_error);
  CHECK_THROWS_WITH_AS(td::range(10).shard(-3, 1),
                       "InvalidArgument: shard: Number of shards must be greater than zero (currently num_shards = -3)",
                       typeflow::invalid_argument_error);
  CHECK_THROWS_WITH_AS(td::range(10).shard(0, 1),
                       "InvalidArgument: shard: Number of shards must be greater than zero (currently num_shards = 0)",
                       typeflow::invalid_argument_error);
  CHECK_THROWS_AS(td::range(10).shard(5, 5), typeflow::invalid_argument_error);
}

TEST_CASE("the shards of a shuffled, repeated dataset partition each epoch, reshuffled alike in every shard") {
  // What each worker of a data-parallel job reads: the same seed everywhere, its own index.
  constexpr i64 n = 10, k = 3;
  const auto whole = td::range(n).shuffle(n, 17).repeat(2);
  const auto all = scalars(whole);
  REQUIRE(all.size() == 2 * n);
  for (i64 r = 0; r < k; ++r) {
    const auto mine = scalars(td::range(n).shuffle(n, 17).repeat(2).shard(k, r));
    std::vector<i64> expected;
    for (std::size_t j = static_cast<std::size_t>(r); j < all.size(); j += k) expected.push_back(all[j]);
    CHECK(mine == expected);
  }
}

TEST_CASE("take(n / k) after shard: every worker reads n / k elements, the epoch's last n % k dropped") {
  constexpr i64 n = 11, k = 4;  // shards of 3, 3, 3 and 2
  const auto order = scalars(td::range(n).shuffle(n, 3));
  std::vector<i64> read;
  for (i64 r = 0; r < k; ++r) {
    const auto mine = scalars(td::range(n).shuffle(n, 3).shard(k, r).take(n / k));
    REQUIRE(mine.size() == static_cast<std::size_t>(n / k));
    read.insert(read.end(), mine.begin(), mine.end());
  }
  // Workers 0 to k-1 each read positions r, r + k, ...: together the first (n / k) * k
  // positions of the shuffled epoch, the same on every worker.
  std::vector<i64> first(order.begin(), order.begin() + (n / k) * k);
  std::sort(read.begin(), read.end());
  std::sort(first.begin(), first.end());
  CHECK(read == first);
}

TEST_CASE("over from_tensor_slices, shard passes row indices: the elements of the element path, batched by row") {
  constexpr std::size_t n = 11, k = 3, r = 1;
  const auto shuffled = td::from_tensor_slices(features(n), xt::xarray<i64>(xt::arange<i64>(i64{n}))).shuffle(4, 5);
  const auto all = drain(shuffled);
  REQUIRE(all.size() == n);
  const auto mine = drain(shuffled.shard(k, r));  // next(): a row index, then that row copied
  REQUIRE(mine.size() == 4);                      // rows 1, 4, 7, 10 of the shuffled order
  for (std::size_t j = 0; j < mine.size(); ++j) CHECK(mine[j] == all[r + j * k]);
  const auto batches = drain(shuffled.shard(k, r).batch(3));  // batch() gathers the rows
  REQUIRE(batches.size() == 2);
  for (std::size_t j = 0; j < mine.size(); ++j) {
    const auto& b = batches[j / 3];
    CHECK(xt::xarray<float>(xt::view(std::get<0>(b), j % 3)) == std::get<0>(mine[j]));
    CHECK(std::get<1>(b)(j % 3) == std::get<1>(mine[j])());
  }
  CHECK(std::get<1>(batches[1]).size() == 1);
}

TEST_CASE("a shard resumes at every position; another shard's state is rejected") {
  const auto check = [](const auto& ds) {
    using E = typename std::decay_t<decltype(ds)>::element_type;
    const auto full = drain(ds);
    for (std::size_t at = 0; at <= full.size(); ++at) {
      CAPTURE(at);
      auto it = ds.make_iterator();
      E e;
      for (std::size_t i = 0; i < at; ++i) REQUIRE(it.next(e));
      td::iterator_state state;
      it.save(state);
      auto fresh = ds.make_iterator();
      fresh.restore(state);
      CHECK(drain_iterator(fresh, E{}) == std::vector<E>(full.begin() + static_cast<std::ptrdiff_t>(at), full.end()));
    }
  };
  check(td::range(10).shard(3, 1));
  check(td::range(7).shuffle(4, 1).shard(2, 1).repeat(3));  // shard's position reset per epoch
  check(td::range(7).shuffle(4, 1).repeat(3).shard(2, 0).batch(2));
  check(td::from_tensor_slices(features(7), xt::xarray<i64>(xt::arange<i64>(7))).shuffle(4, 1).shard(3, 2).batch(2).repeat(2));

  auto rank1 = td::range(10).shard(2, 1).make_iterator();
  std::tuple<xt::xarray<i64>> e;
  REQUIRE(rank1.next(e));
  td::iterator_state state;
  rank1.save(state);
  CHECK(state.at("iterator/shard/next_index").as<i64>()() == 2);

  auto rank0 = td::range(10).shard(2, 0).make_iterator();
  REQUIRE(rank0.next(e));
  CHECK_THROWS_WITH_AS(rank0.restore(state),
                       "InvalidArgument: The iterator state's entries 'iterator/shard/num_shards' and 'iterator/shard/index' are 2 and "
                       "1: it was saved by shard 1 of 2, and this iterator reads shard 0 of 2 (each worker restores "
                       "its own position)",
                       typeflow::invalid_argument_error);
  REQUIRE(rank0.next(e));  // left as it was
  CHECK(std::get<0>(e)() == 2);

  auto three = td::range(10).shard(3, 1).make_iterator();
  CHECK_THROWS_AS(three.restore(state), typeflow::invalid_argument_error);
  auto unsharded = td::range(10).take(5).make_iterator();
  CHECK_THROWS_WITH_AS(unsharded.restore(state), doctest::Contains("has no entry 'iterator/take/taken'"),
                       typeflow::not_found_error);
}
