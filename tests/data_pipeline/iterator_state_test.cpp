// Iterator state (make_saveable_from_iterator), ported from TensorFlow's checkpoint tests
// of kernel_tests/data (*_serialization_test.py, checkpoint_test_base.py's
// verify_run_with_breaks): break an iterator at every position, save it, restore into a
// fresh iterator, and compare what follows with the uninterrupted pass.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>

#include <typeflow/data/dataset.hpp>

#include "dataset_testing.hpp"

namespace td = typeflow::data;
using typeflow_test::drain;
using typeflow_test::drain_iterator;
using i64 = std::int64_t;

namespace {

// The state after k elements of `saved_from`, restored into a fresh iterator of
// `restored_to` (the same dataset, or one built again from the same definition).
template <class D>
void check_breaks(const D& saved_from, const D& restored_to, std::size_t limit = 200) {
  using E = typename D::element_type;
  const auto full = drain(saved_from, limit);
  REQUIRE(!full.empty());
  for (std::size_t k = 0; k <= full.size(); ++k) {
    CAPTURE(k);
    auto it = saved_from.make_iterator();
    E e;
    for (std::size_t i = 0; i < k; ++i) REQUIRE(it.next(e));
    td::iterator_state state;
    it.save(state);
    auto fresh = restored_to.make_iterator();
    fresh.restore(state);
    const auto rest = drain_iterator(fresh, E{}, limit - k);
    CHECK(rest == std::vector<E>(full.begin() + static_cast<std::ptrdiff_t>(k), full.end()));
    // The saved iterator itself goes on as if nothing happened.
    CHECK(drain_iterator(it, E{}, limit - k) == rest);
  }
}
template <class D>
void check_breaks(const D& ds, std::size_t limit = 200) {
  check_breaks(ds, ds, limit);
}

xt::xarray<float> features(std::size_t n) {
  xt::xarray<float> x = xt::arange<float>(static_cast<float>(n * 3));
  x.reshape({n, 3});
  return x;
}

}  // namespace

TEST_CASE("sources resume at every position (range_dataset_serialization_test.py and friends)") {
  check_breaks(td::range(10));
  check_breaks(td::range(20, 2, -3));
  check_breaks(td::from_tensor_slices(features(6), xt::xarray<i64>(xt::arange<i64>(6))));
  check_breaks(td::from_tensors(xt::xarray<i64>{1, 2, 3}));
  check_breaks(td::zip(td::range(5), td::from_tensor_slices(features(7))));
}

TEST_CASE("transformations resume at every position") {
  check_breaks(td::range(10).batch(3));
  check_breaks(td::range(10).batch(3, true));
  check_breaks(td::range(10).skip(2).take(5));
  check_breaks(td::range(10).repeat(3));
  check_breaks(td::range(3).repeat(), 20);  // an endless repeat, broken anywhere in 20
  const double half = 0.5, skipped = 1.5;  // functions that capture
  check_breaks(td::range(10).map([half](const xt::xarray<i64>& x) { return xt::xarray<double>(x * half); })
                   .filter([&skipped](const xt::xarray<double>& x) { return x() != skipped; }));
  check_breaks(td::from_tensor_slices(xt::xarray<i64>{3, 0, 5, 1, 4, 2})
                   .map([](const xt::xarray<i64>& x) { return xt::xarray<i64>(xt::ones<i64>({static_cast<std::size_t>(x())}) * x()); })
                   .padded_batch(4, {{-1}}));
}

TEST_CASE("shuffle resumes with its buffer and generator (shuffle_dataset_serialization_test.py)") {
  for (bool reshuffle : {true, false}) {
    check_breaks(td::range(20).shuffle(5, 3, reshuffle));
    check_breaks(td::range(7).shuffle(4, 1, reshuffle).repeat(3));
    // A dataset built again from the same definition: the state carries everything.
    check_breaks(td::from_tensor_slices(features(10), xt::xarray<std::int32_t>(xt::arange<std::int32_t>(10))).shuffle(10, 5, reshuffle).batch(3),
                 td::from_tensor_slices(features(10), xt::xarray<std::int32_t>(xt::arange<std::int32_t>(10))).shuffle(10, 5, reshuffle).batch(3));
  }
  check_breaks(td::range(30).shuffle(100, 9).repeat(2).batch(4));  // a buffer larger than the input
}

TEST_CASE("a shuffle over from_tensor_slices saves its buffer as row indices") {
  const auto ds = td::from_tensor_slices(features(10), xt::xarray<i64>(xt::arange<i64>(10))).shuffle(4, 1).batch(2);
  check_breaks(ds.repeat(2));
  auto it = ds.make_iterator();
  std::tuple<xt::xarray<float>, xt::xarray<i64>> out;
  REQUIRE(it.next(out));
  const auto expected = drain_iterator(it, out);
  REQUIRE(expected.size() == 4);
  it = ds.make_iterator();
  REQUIRE(it.next(out));
  td::iterator_state good;
  it.save(good);
  REQUIRE(good.count("iterator/batch/shuffle/buffer_rows") == 1);
  const auto& rows = good.at("iterator/batch/shuffle/buffer_rows").as<i64>();
  REQUIRE(rows.size() == 4);  // a full buffer: two rows out, two in
  for (auto r : rows) CHECK((r >= 0 && r < 10));
  CHECK(good.count("iterator/batch/shuffle/buffer/count") == 0);
  auto expect_unchanged = [&](const td::iterator_state& bad, const char* needle) {
    auto probe = ds.make_iterator();
    REQUIRE(probe.next(out));
    try {
      probe.restore(bad);
      FAIL("expected an error");
    } catch (const typeflow::invalid_argument_error& e) {
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
    }
    CHECK(drain_iterator(probe, out) == expected);
  };
  {
    auto bad = good;
    bad["iterator/batch/shuffle/buffer_rows"] = typeflow::tensor(xt::xarray<i64>{1, 10});
    expect_unchanged(bad, "holds the row 10, outside [0, 10)");
  }
  {
    auto bad = good;
    bad["iterator/batch/shuffle/buffer_rows"] = typeflow::tensor(xt::xarray<i64>{1, 2, 3, 4, 5});
    expect_unchanged(bad, "holds 5 rows, more than the buffer's 4");
  }
  {
    auto bad = good;
    bad["iterator/batch/shuffle/buffer_rows"] = typeflow::tensor(xt::xarray<float>{1, 2});
    expect_unchanged(bad, "not int64 [n] (row indices)");
  }
  auto restored = ds.make_iterator();
  restored.restore(good);
  CHECK(drain_iterator(restored, out) == expected);
}

TEST_CASE("cache resumes while filling and while reading, into a dataset built again (cache_dataset_serialization_test.py)") {
  auto build = [] {
    return td::range(6).map([](const xt::xarray<i64>& x) { return xt::xarray<i64>(x * x); }).cache().repeat(3);
  };
  check_breaks(build(), build());
  const auto ds = build();
  check_breaks(ds);  // the saved iterator fills the cache that the restored one reads
}

TEST_CASE("prefetch resumes with the elements it had ready (prefetch_dataset_serialization_test.py)") {
  check_breaks(td::range(20).prefetch(3));
  check_breaks(td::range(20).shuffle(6, 2).batch(3).prefetch(2).repeat(2));
}

TEST_CASE("a state is written under the stages' names and an optional prefix") {
  auto it = td::range(20).shuffle(5, 3).batch(2).make_iterator();
  std::tuple<xt::xarray<i64>> out;
  REQUIRE(it.next(out));
  td::iterator_state state;
  it.save(state);
  CHECK(state.count("iterator/batch/shuffle/rng") == 1);
  CHECK(state.count("iterator/batch/shuffle/range/next") == 1);
  CHECK(state.at("iterator/batch/shuffle/buffer/count").as<i64>()() == 5);
  td::iterator_state mine;
  it.save(mine, "input/train");
  CHECK(mine.count("input/train/batch/shuffle/rng") == 1);
  auto other = td::range(20).shuffle(5, 3).batch(2).make_iterator();
  CHECK_THROWS_AS(other.restore(mine), typeflow::not_found_error);
  other.restore(mine, "input/train");
  std::tuple<xt::xarray<i64>> a, b;
  REQUIRE(it.next(a));
  REQUIRE(other.next(b));
  CHECK(a == b);
}

TEST_CASE("a bad state throws naming the entry and leaves the iterator as it was") {
  const auto ds = td::range(10).shuffle(4, 1).batch(2);
  auto it = ds.make_iterator();
  std::tuple<xt::xarray<i64>> out;
  REQUIRE(it.next(out));
  const auto expected = drain_iterator(it, out);  // what follows the first batch
  REQUIRE(expected.size() == 4);
  it = ds.make_iterator();
  REQUIRE(it.next(out));
  td::iterator_state good;
  it.save(good);

  auto expect_unchanged = [&](const td::iterator_state& bad, const char* needle) {
    auto probe = ds.make_iterator();
    REQUIRE(probe.next(out));
    try {
      probe.restore(bad);
      FAIL("expected an error");
    } catch (const typeflow::error& e) {
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
    }
    CHECK(drain_iterator(probe, out) == expected);
  };
  {
    auto bad = good;
    bad.erase("iterator/batch/shuffle/rng");
    expect_unchanged(bad, "NotFound: The iterator state has no entry 'iterator/batch/shuffle/rng'");
  }
  {
    auto bad = good;
    bad["iterator/batch/shuffle/range/next"] = typeflow::tensor(xt::xarray<i64>{1, 2});
    expect_unchanged(bad, "'iterator/batch/shuffle/range/next' is int64 [2], not an int64 scalar");
  }
  {
    auto bad = good;
    bad["iterator/batch/shuffle/filled"] = typeflow::tensor(2.5f);
    expect_unchanged(bad, "InvalidArgument: The iterator state's entry 'iterator/batch/shuffle/filled' is float32");
  }
  {
    auto bad = good;
    bad["iterator/batch/shuffle/buffer/count"] = typeflow::tensor(i64{9});  // more than the buffer holds
    expect_unchanged(bad, "is 9, outside [0, 4]");
  }
  {
    auto bad = good;
    bad["iterator/batch/shuffle/buffer/c0_values"] = typeflow::tensor(xt::xarray<i64>{1, 2});  // too few values
    expect_unchanged(bad, "buffer/c0_values");
  }
  {
    auto bad = good;
    bad["iterator/batch/shuffle/buffer/c0_values"] = typeflow::tensor(xt::xarray<float>{1, 2, 3, 4});
    expect_unchanged(bad, "not int64 [n]");
  }
  // A state of another pipeline.
  td::iterator_state foreign;
  auto other = td::range(10).batch(2).make_iterator();
  other.save(foreign);
  expect_unchanged(foreign, "NotFound");
}
