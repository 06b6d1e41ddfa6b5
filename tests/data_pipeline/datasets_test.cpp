// Sources and transformations, ported from TensorFlow's kernel_tests/data (range_test.py,
// from_tensor_slices_test.py, zip_test.py, batch_test.py, padded_batch_test.py,
// shuffle_test.py, repeat_test.py, take_test.py, skip_test.py, map_test.py, filter_test.py,
// cache_test.py): the same inputs, the same observable results.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include <typeflow/data/dataset.hpp>

#include "dataset_testing.hpp"

namespace td = typeflow::data;
using typeflow_test::drain;
using typeflow_test::iota;
using typeflow_test::scalars;
using i64 = std::int64_t;

static_assert(td::dataset<td::range_dataset>);
static_assert(td::dataset<decltype(td::range(3).shuffle(2, 1).batch(2).prefetch(1))>);
static_assert(!td::dataset<xt::xarray<float>>);

TEST_CASE("range: stop, start/stop, steps, empty ranges (range_test.py)") {
  CHECK(scalars(td::range(5)) == iota(0, 5));
  CHECK(scalars(td::range(2, 5)) == std::vector<i64>{2, 3, 4});
  CHECK(scalars(td::range(2, 10, 2)) == std::vector<i64>{2, 4, 6, 8});
  CHECK(scalars(td::range(10, 2, -2)) == std::vector<i64>{10, 8, 6, 4});
  CHECK(scalars(td::range(5, 2)).empty());
  CHECK(scalars(td::range(2, 5, -1)).empty());
  CHECK_THROWS_AS(td::range(2, 5, 0), typeflow::invalid_argument_error);
  const auto e = drain(td::range(1));
  REQUIRE(e.size() == 1);
  CHECK(std::get<0>(e[0]).dimension() == 0);
}

TEST_CASE("from_tensor_slices slices along the first dimension (from_tensor_slices_test.py)") {
  xt::xarray<i64> a = xt::arange<i64>(4);
  xt::xarray<float> b = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
  xt::xarray<double> c = xt::xarray<double>{37.0, 38.0, 39.0, 40.0};
  const auto ds = td::from_tensor_slices(a, b, c);
  static_assert(std::is_same_v<decltype(ds)::element_type,
                               std::tuple<xt::xarray<i64>, xt::xarray<float>, xt::xarray<double>>>);
  const auto got = drain(ds);
  REQUIRE(got.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(std::get<0>(got[i]) == xt::xarray<i64>(static_cast<i64>(i)));
    CHECK(std::get<1>(got[i]) == xt::xarray<float>(xt::view(b, i)));
    CHECK(std::get<2>(got[i]) == xt::xarray<double>(37.0 + static_cast<double>(i)));
  }
  // testFromTensorSlicesWithDict's counterpart error: unequal first dimensions.
  try {
    (void)td::from_tensor_slices(a, xt::xarray<float>::from_shape({3, 2}));
    FAIL("expected an error");
  } catch (const typeflow::invalid_argument_error& e) {
    CHECK(std::string(e.what()).find("4, 3") != std::string::npos);
  }
  CHECK_THROWS_AS(td::from_tensor_slices(xt::xarray<float>(1.0f)), typeflow::invalid_argument_error);
}

TEST_CASE("from_tensors is one element; zip ends with the shortest input (zip_test.py)") {
  const auto one = drain(td::from_tensors(xt::xarray<i64>{1, 2, 3}, xt::xarray<float>(5.0f)));
  REQUIRE(one.size() == 1);
  CHECK(std::get<0>(one[0]) == xt::xarray<i64>{1, 2, 3});
  CHECK(std::get<1>(one[0])() == 5.0f);

  xt::xarray<i64> c0 = xt::arange<i64>(7);
  xt::xarray<i64> c1 = xt::xarray<i64>{{1, 2, 3}} * xt::view(c0, xt::all(), xt::newaxis());
  xt::xarray<double> c2 = 37.0 * xt::arange<double>(4);
  const auto z = td::zip(td::from_tensor_slices(c0), td::from_tensor_slices(c1), td::from_tensor_slices(c2));
  static_assert(std::tuple_size_v<decltype(z)::element_type> == 3);
  const auto got = drain(z);
  REQUIRE(got.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(std::get<0>(got[i])() == static_cast<i64>(i));
    CHECK(std::get<1>(got[i]) == xt::xarray<i64>(xt::view(c1, i)));
    CHECK(std::get<2>(got[i])() == 37.0 * static_cast<double>(i));
  }
}

TEST_CASE("batch: squares of 3 components repeated, then batched (batch_test.py testBatchDataset)") {
  xt::xarray<i64> c0 = xt::arange<i64>(7);
  xt::xarray<i64> c1 = xt::xarray<i64>{{1, 2, 3}} * xt::view(c0, xt::all(), xt::newaxis());
  xt::xarray<double> c2 = 37.0 * xt::arange<double>(7);
  for (auto [count, batch_size, drop] : {std::tuple{28, 14, false}, std::tuple{28, 8, false}, std::tuple{28, 8, true},
                                         std::tuple{2, 4, false}}) {
    const auto ds = td::from_tensor_slices(c0, c1, c2)
                        .map([](const auto& a, const auto& b, const auto& c) { return std::tuple(a * a, b * b, c * c); })
                        .repeat(count)
                        .batch(batch_size, drop);
    const auto got = drain(ds);
    const int total = 7 * count;
    const int batches = drop ? total / batch_size : (total + batch_size - 1) / batch_size;
    REQUIRE(static_cast<int>(got.size()) == batches);
    for (int i = 0; i < batches; ++i) {
      const auto& [b0, b1, b2] = got[static_cast<std::size_t>(i)];
      const int rows = std::min(batch_size, total - i * batch_size);
      REQUIRE(b0.shape() == std::vector<std::size_t>{static_cast<std::size_t>(rows)});
      REQUIRE(b1.shape() == std::vector<std::size_t>{static_cast<std::size_t>(rows), 3});
      for (int j = 0; j < rows; ++j) {
        const auto k = static_cast<std::size_t>((i * batch_size + j) % 7);
        CHECK(b0(j) == c0(k) * c0(k));
        CHECK(xt::view(b1, j) == xt::view(c1, k) * xt::view(c1, k));
        CHECK(b2(j) == c2(k) * c2(k));
      }
    }
  }
  CHECK_THROWS_AS(td::range(3).batch(0), typeflow::invalid_argument_error);
  CHECK_THROWS_AS(td::range(3).batch(-1), typeflow::invalid_argument_error);
  // Dataset.range(8).batch(3) from the Dataset.batch docstring.
  const auto docs = drain(td::range(8).batch(3));
  REQUIRE(docs.size() == 3);
  CHECK(std::get<0>(docs[2]) == xt::xarray<i64>{6, 7});
  CHECK(drain(td::range(8).batch(3, true)).size() == 2);
}

TEST_CASE("batch of elements with different shapes fails naming both shapes (batch_test.py testBatchShapeError)") {
  const auto ds = td::from_tensor_slices(xt::xarray<i64>{2, 2, 2, 3})
                      .map([](const xt::xarray<i64>& x) { return xt::xarray<i64>(xt::ones<i64>({static_cast<std::size_t>(x())}) * x()); })
                      .batch(4);
  auto it = ds.make_iterator();
  decltype(ds)::element_type out;
  try {
    (void)it.next(out);
    FAIL("expected an error");
  } catch (const typeflow::invalid_argument_error& e) {
    CHECK(e.message() == "Cannot batch tensors with different shapes in component 0. First element had shape [2] and "
                         "element 3 had shape [3].");
  }
}

namespace {
auto fill_with_length(const xt::xarray<i64>& x) {
  return xt::xarray<i64>(xt::ones<i64>({static_cast<std::size_t>(x())}) * x());
}
}  // namespace

TEST_CASE("padded_batch pads to the batch's longest or to a given shape (padded_batch_test.py)") {
  xt::xarray<i64> seq_lens = {3, 0, 5, 1, 4, 2, 6, 0, 2, 7};
  for (i64 batch_size : {1, 3, 4}) {
    for (bool given : {false, true}) {
      const auto ds = td::from_tensor_slices(seq_lens).map(fill_with_length)
                          .padded_batch(batch_size, {{given ? 8 : -1}}, std::tuple(i64{-1}));
      const auto got = drain(ds);
      REQUIRE(got.size() == static_cast<std::size_t>((10 + batch_size - 1) / batch_size));
      for (std::size_t i = 0; i < got.size(); ++i) {
        const auto& b = std::get<0>(got[i]);
        const std::size_t begin = i * static_cast<std::size_t>(batch_size);
        const std::size_t rows = std::min<std::size_t>(static_cast<std::size_t>(batch_size), 10 - begin);
        std::size_t longest = 0;
        for (std::size_t j = 0; j < rows; ++j) longest = std::max(longest, static_cast<std::size_t>(seq_lens(begin + j)));
        REQUIRE(b.shape() == std::vector<std::size_t>{rows, given ? 8 : longest});
        for (std::size_t j = 0; j < rows; ++j)
          for (std::size_t k = 0; k < b.shape()[1]; ++k)
            CHECK(b(j, k) == (static_cast<i64>(k) < seq_lens(begin + j) ? seq_lens(begin + j) : -1));
      }
    }
  }
  // Rank 2, zero padding, a component left unpadded (shape []) beside it.
  const auto ds2 = td::zip(td::from_tensor_slices(xt::xarray<i64>{1, 2}).map([](const xt::xarray<i64>& x) {
                             return xt::xarray<float>(xt::ones<float>({static_cast<std::size_t>(x()), std::size_t{2}}));
                           }),
                           td::range(2))
                       .padded_batch(2, {{3, -1}, {}});
  const auto got2 = drain(ds2);
  REQUIRE(got2.size() == 1);
  CHECK(std::get<0>(got2[0]) == xt::xarray<float>{{{1, 1}, {0, 0}, {0, 0}}, {{1, 1}, {1, 1}, {0, 0}}});
  CHECK(std::get<1>(got2[0]) == xt::xarray<i64>{0, 1});
  // testPaddedBatchShortPadding: DataLossError, as TensorFlow reports it.
  auto short_it = td::from_tensor_slices(xt::xarray<i64>{6, 5, 5, 5, 5}).map(fill_with_length).padded_batch(4, {{5}}).make_iterator();
  std::tuple<xt::xarray<i64>> out;
  CHECK_THROWS_WITH_AS(short_it.next(out), doctest::Contains("Attempted to pad to a smaller size than the input element"),
                       typeflow::data_loss_error);
  CHECK_THROWS_WITH_AS(td::range(3).padded_batch(2, {{}, {}}), "InvalidArgument: padded_batch: 2 padded shapes for 1 components",
                       typeflow::invalid_argument_error);
  auto rank_it = td::range(3).padded_batch(2, {{-1}}).make_iterator();  // scalars against a rank-1 padded shape
  std::tuple<xt::xarray<i64>> scalar_out;
  CHECK_THROWS_WITH_AS(rank_it.next(scalar_out), doctest::Contains("the padded shape's rank is 1"),
                       typeflow::invalid_argument_error);
}

TEST_CASE("shuffle: a permutation, reproducible from the seed, reshuffled each epoch (shuffle_test.py)") {
  const auto sorted = iota(0, 100);
  const auto a = scalars(td::range(100).shuffle(10, 37));
  const auto b = scalars(td::range(100).shuffle(10, 37));
  const auto c = scalars(td::range(100).shuffle(10, 38));
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a != sorted);
  auto s = a;
  std::sort(s.begin(), s.end());
  CHECK(s == sorted);
  // A buffer of 10 can only move an element forward by fewer than 10 places.
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] <= static_cast<i64>(i) + 9);
  // A buffer of 1 does not shuffle.
  CHECK(scalars(td::range(20).shuffle(1, 5)) == iota(0, 20));
  // testReshuffleRepeatEpochs: each epoch of a repeat is its own order, unless told not to.
  const auto reshuffled = scalars(td::range(20).shuffle(20, 7).repeat(2));
  const auto fixed = scalars(td::range(20).shuffle(20, 7, false).repeat(2));
  REQUIRE(reshuffled.size() == 40);
  REQUIRE(fixed.size() == 40);
  CHECK(std::vector<i64>(reshuffled.begin(), reshuffled.begin() + 20) != std::vector<i64>(reshuffled.begin() + 20, reshuffled.end()));
  CHECK(std::vector<i64>(fixed.begin(), fixed.begin() + 20) == std::vector<i64>(fixed.begin() + 20, fixed.end()));
  CHECK(scalars(td::range(20).shuffle(20, 7).repeat(2)) == reshuffled);  // and reproducible
  // An iterator re-initialized each epoch (TF 1.x's make_initializer run per epoch) says
  // which pass it makes; a reshuffling dataset gives each pass its own order.
  const auto ds = td::range(20).shuffle(20, 7);
  auto pass = [&](std::uint64_t k) {
    auto it = ds.make_iterator(td::iteration{k});
    return typeflow_test::drain_iterator(it, std::tuple<xt::xarray<i64>>{});
  };
  CHECK(pass(0) == drain(ds));
  CHECK(pass(1) != pass(0));
  CHECK(pass(1) == pass(1));
  auto once = td::range(20).shuffle(20, 7, false);
  auto first_it = once.make_iterator(td::iteration{0});
  auto second_it = once.make_iterator(td::iteration{5});
  CHECK(typeflow_test::drain_iterator(first_it, std::tuple<xt::xarray<i64>>{}) ==
        typeflow_test::drain_iterator(second_it, std::tuple<xt::xarray<i64>>{}));
  static_assert(td::dataset_iterator<decltype(first_it), std::tuple<xt::xarray<i64>>>);
  CHECK_THROWS_AS(td::range(3).shuffle(0, 1), typeflow::invalid_argument_error);
  // Without a seed: still a permutation.
  auto r = scalars(td::range(50).shuffle(50));
  std::sort(r.begin(), r.end());
  CHECK(r == iota(0, 50));
}

// The row-indexed fast path (shuffle's buffer of row indices, batch gathering rows): the
// same elements in the same order as the element path, which range() still takes.
static_assert(td::row_indexed<decltype(td::from_tensor_slices(xt::xarray<i64>{1, 2}))>);
static_assert(td::row_indexed<decltype(td::from_tensor_slices(xt::xarray<i64>{1, 2}).shuffle(2, 1))>);
static_assert(!td::row_indexed<decltype(td::range(2).shuffle(2, 1))>);
static_assert(!td::row_indexed<decltype(td::from_tensor_slices(xt::xarray<i64>{1, 2}).batch(2))>);

TEST_CASE("shuffle and batch over from_tensor_slices: by row index, the element path's order") {
  const xt::xarray<i64> ids = xt::arange<i64>(100);
  const auto slices = td::from_tensor_slices(ids);
  CHECK(scalars(slices.shuffle(10, 37)) == scalars(td::range(100).shuffle(10, 37)));
  CHECK(scalars(slices.shuffle(1000, 5)) == scalars(td::range(100).shuffle(1000, 5)));  // buffer > input
  CHECK(scalars(slices.shuffle(20, 7).repeat(3)) == scalars(td::range(100).shuffle(20, 7).repeat(3)));
  CHECK(scalars(slices.shuffle(20, 7, false).repeat(2)) == scalars(td::range(100).shuffle(20, 7, false).repeat(2)));
  // Batches of two components: each row's features travel with its label.
  xt::xarray<float> x = xt::xarray<float>::from_shape({30, 2, 3});
  for (std::size_t i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(i);
  const auto pairs = td::from_tensor_slices(x, xt::xarray<i64>(xt::arange<i64>(30)));
  for (bool drop : {false, true}) {
    CAPTURE(drop);
    const auto got = drain(pairs.shuffle(12, 3).batch(4, drop).repeat(2));
    const auto want = drain(td::range(30).shuffle(12, 3).batch(4, drop).repeat(2));
    REQUIRE(got.size() == want.size());
    CHECK(got.size() == (drop ? 14u : 16u));
    for (std::size_t b = 0; b < got.size(); ++b) {
      const auto& [gx, gy] = got[b];
      CHECK(gy == std::get<0>(want[b]));
      REQUIRE(gx.shape() == std::vector<std::size_t>{gy.size(), 2, 3});
      for (std::size_t k = 0; k < gy.size(); ++k)
        CHECK(xt::xarray<float>(xt::view(gx, k)) == xt::xarray<float>(xt::view(x, static_cast<std::size_t>(gy(k)))));
    }
  }
  // Unshuffled: batches in order, the last one smaller.
  const auto plain = drain(pairs.batch(8));
  REQUIRE(plain.size() == 4);
  CHECK(std::get<1>(plain[3]) == xt::xarray<i64>{24, 25, 26, 27, 28, 29});
  CHECK(std::get<0>(plain[3]) == xt::xarray<float>(xt::view(x, xt::range(24, 30))));
  CHECK(drain(td::from_tensor_slices(xt::xarray<i64>::from_shape({0})).shuffle(4, 1).batch(2)).empty());
}

TEST_CASE("repeat, take, skip (repeat_test.py, take_test.py, skip_test.py)") {
  CHECK(scalars(td::range(3).repeat(2)) == std::vector<i64>{0, 1, 2, 0, 1, 2});
  CHECK(scalars(td::range(3).repeat(0)).empty());
  CHECK(scalars(td::range(3).repeat(), 10) == std::vector<i64>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0});
  CHECK(scalars(td::range(2).repeat(2).repeat(3)).size() == 12);  // testRepeatRepeatTensorDataset
  CHECK(scalars(td::range(0).repeat()).empty());                  // an empty input ends an endless repeat
  CHECK(drain(td::from_tensors(xt::xarray<i64>{1, 2}).repeat(14)).size() == 14);
  CHECK(scalars(td::range(10).take(4)) == iota(0, 4));
  CHECK(scalars(td::range(10).take(-1)) == iota(0, 10));
  CHECK(scalars(td::range(10).take(0)).empty());
  CHECK(scalars(td::range(10).take(20)) == iota(0, 10));
  CHECK(scalars(td::range(10).skip(4)) == iota(4, 10));
  CHECK(scalars(td::range(10).skip(-1)).empty());
  CHECK(scalars(td::range(10).skip(0)) == iota(0, 10));
  CHECK(scalars(td::range(10).skip(20)).empty());
  CHECK(scalars(td::range(3).repeat().skip(2).take(5)) == std::vector<i64>{2, 0, 1, 2, 0});
  CHECK_THROWS_AS(td::range(3).repeat(-2), typeflow::invalid_argument_error);
}

TEST_CASE("map changes dtypes and shapes; filter keeps what its predicate accepts (map_test.py, filter_test.py)") {
  const auto ds = td::range(5).map([](const xt::xarray<i64>& x) {
    return std::tuple(xt::xarray<float>(xt::cast<float>(x) * 0.5f), xt::xarray<std::int32_t>{static_cast<std::int32_t>(x()), 1});
  });
  static_assert(std::is_same_v<decltype(ds)::element_type, std::tuple<xt::xarray<float>, xt::xarray<std::int32_t>>>);
  const auto got = drain(ds);
  REQUIRE(got.size() == 5);
  CHECK(std::get<0>(got[3])() == 1.5f);
  CHECK(std::get<1>(got[3]) == xt::xarray<std::int32_t>{3, 1});
  // A function of the whole element tuple.
  CHECK(scalars(td::range(3).map([](const std::tuple<xt::xarray<i64>>& e) { return xt::xarray<i64>(std::get<0>(e) + 10); })) ==
        std::vector<i64>{10, 11, 12});
  // testFilterDataset: components of 7 rows, repeated, filtered on the first.
  xt::xarray<i64> c0 = xt::arange<i64>(7);
  for (i64 modulus : {1, 2, 3}) {
    const auto f = td::zip(td::from_tensor_slices(c0), td::from_tensor_slices(xt::xarray<double>(37.0 * xt::arange<double>(7))))
                       .repeat(3)
                       .filter([modulus](const xt::xarray<i64>& x, const xt::xarray<double>&) { return x() % modulus == 0; });
    std::vector<i64> expected;
    for (int r = 0; r < 3; ++r)
      for (i64 i = 0; i < 7; ++i)
        if (i % modulus == 0) expected.push_back(i);
    CHECK(scalars(f) == expected);
  }
  CHECK(scalars(td::range(100).filter([](const xt::xarray<i64>&) { return false; })).empty());
}

TEST_CASE("cache: the second epoch reads from memory, not from the input (cache_test.py)") {
  int calls = 0;
  const auto ds = td::range(5).map([&calls](const xt::xarray<i64>& x) { ++calls; return xt::xarray<i64>(x * 2); }).cache();
  CHECK(!ds.filled());
  CHECK(scalars(ds.repeat(3)) == std::vector<i64>{0, 2, 4, 6, 8, 0, 2, 4, 6, 8, 0, 2, 4, 6, 8});
  CHECK(calls == 5);
  CHECK(ds.filled());
  CHECK(scalars(ds) == std::vector<i64>{0, 2, 4, 6, 8});  // a copy shares the cache
  CHECK(calls == 5);
  // A pass abandoned before the end fills nothing.
  const auto partial = td::range(5).cache();
  CHECK(scalars(partial, 3).size() == 3);
  CHECK(!partial.filled());
}
