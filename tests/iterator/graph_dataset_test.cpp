// Datasets built from graph nodes (data/graph_dataset.hpp) read through iterators, as
// TensorFlow 1.x programs read them: from_tensor_slices of placeholders fed at the
// initializer's run, a batch size that is a node, epochs ending on OutOfRange.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include <xtensor/xstrided_view.hpp>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

#include "drain.hpp"

namespace tf = typeflow;
using iterator_testing::drain;

namespace {
xt::xarray<float> rows(std::size_t n) {
  xt::xarray<float> x = xt::zeros<float>({n, std::size_t{3}});
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < 3; ++j) x(i, j) = static_cast<float>(10 * i + j);
  return x;
}
xt::xarray<std::int32_t> labels(std::size_t n) {
  xt::xarray<std::int32_t> y = xt::zeros<std::int32_t>({n});
  for (std::size_t i = 0; i < n; ++i) y(i) = static_cast<std::int32_t>(i);
  return y;
}
}  // namespace

TEST_CASE("from_tensor_slices(placeholders).batch(placeholder): the structure and the batches") {
  auto features = tf::placeholder<"gd_features", float, tf::shape<tf::dyn, 3>>();
  auto targets = tf::placeholder<"gd_labels", std::int32_t, tf::shape<tf::dyn>>();
  auto batch_size = tf::placeholder<"gd_batch_size", std::int64_t, tf::scalar>();
  auto dataset = tf::data::from_tensor_slices(features, targets).batch(batch_size);
  auto it = tf::data::make_initializable_iterator<"gd_iterator">(dataset);
  auto [x, y] = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(x)>, tf::shape<tf::dyn, 3>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<tf::dyn>>);
  tf::session sess(it.initializer(), x, y);

  sess.run(it.initializer(), tf::feed(features, rows(7)), tf::feed(targets, labels(7)),
           tf::feed(batch_size, std::int64_t{3}));
  std::vector<std::size_t> sizes;
  std::vector<std::int32_t> seen;
  for (;;) {
    try {
      auto [xv, yv] = sess.run(tf::fetch(x, y));
      sizes.push_back(yv.size());
      for (std::size_t i = 0; i < yv.size(); ++i) {
        seen.push_back(yv(i));
        CHECK(xv(i, 2) == static_cast<float>(10 * yv(i) + 2));
      }
    } catch (const tf::out_of_range_error&) {
      break;
    }
  }
  CHECK(sizes == std::vector<std::size_t>{3, 3, 1});
  CHECK(seen == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6});

  // Another initializer run, another batch size: a new pass.
  sess.run(it.initializer(), tf::feed(features, rows(4)), tf::feed(targets, labels(4)),
           tf::feed(batch_size, std::int64_t{4}));
  CHECK(sess.run(y).size() == 4);
  CHECK_THROWS_AS(sess.run(y), tf::out_of_range_error);
}

TEST_CASE("batch<N>(drop_remainder) gives a static batch dim and drops the last batch") {
  auto features = tf::placeholder<"gd_features", float, tf::shape<tf::dyn, 3>>();
  auto dataset = tf::data::from_tensor_slices(features).batch<2>(tf::data::drop_remainder);
  auto it = tf::data::make_initializable_iterator<"gd_static">(dataset);
  auto x = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(x)>, tf::shape<2, 3>>);
  auto total = tf::reduce_sum(x);
  tf::session sess(it.initializer(), total);
  sess.run(it.initializer(), tf::feed(features, rows(5)));
  CHECK(sess.run(total) == doctest::Approx(0 + 1 + 2 + 10 + 11 + 12));
  CHECK(sess.run(total) == doctest::Approx(20 + 21 + 22 + 30 + 31 + 32));
  CHECK_THROWS_AS(sess.run(total), tf::out_of_range_error);  // row 4 is dropped
}

TEST_CASE("shuffle, repeat and take: the same order from the same seed, every element once per epoch") {
  auto values = tf::placeholder<"gd_values", std::int32_t, tf::shape<tf::dyn>>();
  auto dataset = tf::data::from_tensor_slices(values).shuffle<100, 42>().repeat(tf::constant<std::int64_t{2}>());
  auto it = tf::data::make_initializable_iterator<"gd_shuffled">(dataset);
  auto v = it.get_next();
  tf::session a(it.initializer(), v);
  tf::session b(it.initializer(), v);
  a.run(it.initializer(), tf::feed(values, labels(10)));
  b.run(it.initializer(), tf::feed(values, labels(10)));
  std::vector<std::int32_t> first, second;
  for (int i = 0; i < 10; ++i) first.push_back(a.run(v));
  for (int i = 0; i < 10; ++i) second.push_back(a.run(v));
  CHECK_THROWS_AS(a.run(v), tf::out_of_range_error);
  for (int i = 0; i < 10; ++i) CHECK(b.run(v) == first[static_cast<std::size_t>(i)]);
  auto sorted = [](std::vector<std::int32_t> s) {
    std::sort(s.begin(), s.end());
    return s;
  };
  CHECK(sorted(first) == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(sorted(second) == sorted(first));
  CHECK(first != second);  // reshuffled each iteration
  CHECK(first != std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});

  // As in TensorFlow 1.x, running the initializer again starts the same sequence (a fixed
  // seed reproduces it; repeat() is what reshuffles from epoch to epoch).
  a.run(it.initializer(), tf::feed(values, labels(10)));
  for (int i = 0; i < 10; ++i) CHECK(a.run(v) == first[static_cast<std::size_t>(i)]);
}

TEST_CASE("The save/restore question's program: a dense model trained through the iterator, epoch by epoch") {
  // 64 examples of 4 features; the label is the index of the largest feature.
  const std::size_t n = 64;
  xt::xarray<float> xs = xt::zeros<float>({n, std::size_t{4}});
  xt::xarray<std::int32_t> ys = xt::zeros<std::int32_t>({n});
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t hot = (i * 7) % 4;
    for (std::size_t j = 0; j < 4; ++j) xs(i, j) = j == hot ? 1.0f : static_cast<float>((i + j) % 3) * 0.1f;
    ys(i) = static_cast<std::int32_t>(hot);
  }
  auto features = tf::placeholder<"gd_x", float, tf::shape<tf::dyn, 4>>();
  auto targets = tf::placeholder<"gd_y", std::int32_t, tf::shape<tf::dyn>>();
  auto batch_size = tf::placeholder<"gd_bs", std::int64_t, tf::scalar>();
  auto it = tf::data::make_initializable_iterator<"gd_train">(
      tf::data::from_tensor_slices(features, targets).batch(batch_size));
  auto [x, y] = it.get_next();
  auto logits = tf::layers::dense<4, "gd_dense">(x);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(y, logits));
  auto train_op = tf::train::adam<"gd_Adam">(0.1).minimize(loss);
  tf::session sess(it.initializer(), train_op, loss);
  sess.initialize_all();
  float first_epoch = 0, last_epoch = 0;
  for (int epoch = 0; epoch < 20; ++epoch) {
    sess.run(it.initializer(), tf::feed(features, xs), tf::feed(targets, ys), tf::feed(batch_size, std::int64_t{16}));
    float sum = 0;
    int batches = 0;
    for (;;) {
      try {
        sum += std::get<0>(sess.run(tf::fetch(loss, train_op)));
        ++batches;
      } catch (const tf::out_of_range_error&) {
        break;
      }
    }
    CHECK(batches == 4);
    (epoch == 0 ? first_epoch : last_epoch) = sum / static_cast<float>(batches);
  }
  CHECK(last_epoch < 0.5f * first_epoch);
}

TEST_CASE("A one-shot iterator over constants starts on its first run and is never restarted") {
  auto values = tf::constant<"gd_constant_values">(xt::xtensor_fixed<std::int32_t, xt::xshape<5>>{5, 6, 7, 8, 9});
  auto it = tf::data::make_one_shot_iterator<"gd_one_shot">(tf::data::from_tensor_slices(values).batch<2>());
  auto v = it.get_next();
  auto total = tf::reduce_sum(v);
  tf::session sess(total);
  CHECK(sess.run(total) == 5 + 6);
  CHECK(sess.run(v)(1) == 8);
  CHECK(sess.run(total) == 9);
  CHECK_THROWS_AS(sess.run(total), tf::out_of_range_error);
  CHECK_THROWS_AS(sess.run(total), tf::out_of_range_error);
  tf::session other(total);  // its own pass
  CHECK(other.run(total) == 5 + 6);
}

TEST_CASE("skip, take, prefetch and a fed batch size with drop_remainder") {
  auto values = tf::placeholder<"gd_values", std::int32_t, tf::shape<tf::dyn>>();
  auto n = tf::placeholder<"gd_n", std::int64_t, tf::scalar>();
  auto dataset = tf::data::from_tensor_slices(values)
                     .skip(tf::constant<std::int64_t{2}>())
                     .take(tf::constant<std::int64_t{7}>())
                     .batch(n, tf::data::drop_remainder)
                     .prefetch<2>();
  auto it = tf::data::make_initializable_iterator<"gd_pipeline">(dataset);
  auto v = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(v)>, tf::shape<tf::dyn>>);  // n is fed
  tf::session sess(it.initializer(), v);
  sess.run(it.initializer(), tf::feed(values, labels(20)), tf::feed(n, std::int64_t{3}));
  auto first = sess.run(v);
  REQUIRE(first.size() == 3);
  CHECK(first(0) == 2);
  CHECK(sess.run(v)(2) == 7);
  CHECK_THROWS_AS(sess.run(v), tf::out_of_range_error);  // 8 is dropped: 7 elements, batches of 3

  // A batch size of 0 is the host dataset's InvalidArgument, at the initializer's run.
  CHECK_THROWS_AS(sess.run(it.initializer(), tf::feed(values, labels(20)), tf::feed(n, std::int64_t{0})),
                  tf::invalid_argument_error);
}

TEST_CASE("The initializer copies fed tensors and computed ones: a large fed tensor, a lazy sum") {
  auto features = tf::placeholder<"gd_copy_features", float, tf::shape<tf::dyn, 3>>();
  auto targets = tf::placeholder<"gd_copy_labels", std::int32_t, tf::shape<tf::dyn>>();
  // A fed tensor of 9 MB (copied in one piece, on huge pages where the kernel gives them)
  // and a node computed from it (an elementwise sum, copied from the run's value of it).
  auto dataset = tf::data::from_tensor_slices(features, features + features, targets).batch<50000>();
  auto it = tf::data::make_initializable_iterator<"gd_copy_iterator">(dataset);
  auto [x, x2, y] = it.get_next();
  tf::session sess(it.initializer(), x, x2, y);
  constexpr std::size_t n = 750000;
  sess.run(it.initializer(), tf::feed(features, rows(n)), tf::feed(targets, labels(n)));
  std::size_t seen = 0, wrong = 0;
  for (;;) {
    try {
      auto [xv, x2v, yv] = sess.run(tf::fetch(x, x2, y));
      for (std::size_t i = 0; i < yv.size(); ++i, ++seen) {
        const auto k = static_cast<std::size_t>(yv(i));
        wrong += k != seen;
        for (std::size_t j = 0; j < 3; ++j) {
          const float want = static_cast<float>(10 * k + j);
          wrong += xv(i, j) != want || x2v(i, j) != 2 * want;
        }
      }
    } catch (const tf::out_of_range_error&) {
      break;
    }
  }
  CHECK(seen == n);
  CHECK(wrong == 0);
}

TEST_CASE("A fed view that starts inside its array is copied from where it starts") {
  auto values = tf::placeholder<"gd_view_values", float, tf::shape<tf::dyn, 3>>();
  auto it = tf::data::make_initializable_iterator<"gd_view">(tf::data::from_tensor_slices(values).batch<2>());
  auto v = it.get_next();
  tf::session sess(it.initializer(), v);
  const xt::xarray<float> all = rows(5);
  auto tail = xt::strided_view(all, {xt::range(2, 5)});  // rows 2-4: contiguous, at offset 6
  sess.run(it.initializer(), tf::feed(values, tail));
  const auto first = sess.run(v);
  CHECK(first(0, 0) == 20.0f);
  CHECK(first(1, 2) == 32.0f);
  CHECK(sess.run(v)(0, 1) == 41.0f);
}

TEST_CASE("host_copy copies a contiguous view from its first element, not its array's") {
  const xt::xarray<float> all = rows(5);
  auto tail = xt::strided_view(all, {xt::range(2, 5)});  // contiguous, row-major, data offset 6
  const auto copy = tf::data::detail::host_copy<float>(tail);
  REQUIRE(copy.shape()[0] == 3);
  CHECK(copy(0, 0) == 20.0f);
  CHECK(copy(2, 2) == 42.0f);
  const auto whole = tf::data::detail::host_copy<float>(all);
  CHECK(whole(4, 1) == 41.0f);
}


// range_test.py: testRange, testRangeWithStep, testNegativeStep, testStopLessThanStart.
TEST_CASE("range(start, stop, step) of fed nodes, and range<stop>() of literals: TensorFlow's range tests") {
  auto start = tf::placeholder<"gd_start", std::int64_t>();
  auto stop = tf::placeholder<"gd_stop", std::int64_t>();
  auto step = tf::placeholder<"gd_step", std::int64_t>();
  auto it = tf::data::make_initializable_iterator<"gd_range">(tf::data::range(start, stop, step));
  auto v = it.get_next();
  static_assert(std::is_same_v<tf::value_type_of<decltype(v)>, std::int64_t>);
  static_assert(std::is_same_v<tf::shape_of<decltype(v)>, tf::scalar>);
  tf::session sess(it.initializer(), v);
  auto run = [&](std::int64_t a, std::int64_t b, std::int64_t c) {
    sess.run(it.initializer(), tf::feed(start, a), tf::feed(stop, b), tf::feed(step, c));
    return drain(sess, v);
  };
  CHECK(run(2, 5, 1) == std::vector<std::int64_t>{2, 3, 4});
  CHECK(run(2, 10, 3) == std::vector<std::int64_t>{2, 5, 8});
  CHECK(run(10, 2, -3) == std::vector<std::int64_t>{10, 7, 4});
  CHECK(run(10, 2, 1).empty());
  CHECK_THROWS_AS(run(0, 5, 0), tf::invalid_argument_error);  // testZeroStep

  auto five = tf::data::make_one_shot_iterator<"gd_range5">(tf::data::range<5>().batch<2>());
  auto b = five.get_next();
  tf::session s5(b);
  CHECK(s5.run(b) == xt::xarray<std::int64_t>{0, 1});
  CHECK(s5.run(b) == xt::xarray<std::int64_t>{2, 3});
  CHECK(s5.run(b) == xt::xarray<std::int64_t>{4});
  CHECK_THROWS_AS(s5.run(b), tf::out_of_range_error);
}

// zip_test.py testZipDataset: components of different lengths zip to the shortest; here the
// element is flat (TensorFlow nests the inputs' structures).
TEST_CASE("zip of graph datasets: the components one after the other, as long as the shortest input") {
  auto a = tf::placeholder<"gd_zip_a", float, tf::shape<tf::dyn, 3>>();
  auto b = tf::placeholder<"gd_zip_b", std::int32_t, tf::shape<tf::dyn>>();
  auto zipped = tf::data::zip(tf::data::from_tensor_slices(a), tf::data::from_tensor_slices(b).skip(tf::constant<std::int64_t{1}>()),
                              tf::data::range<100>())
                    .batch<2>();
  auto it = tf::data::make_initializable_iterator<"gd_zip">(zipped);
  auto [x, y, n] = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(x)>, tf::shape<tf::dyn, 3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(n)>, std::int64_t>);
  tf::session sess(it.initializer(), x, y, n);
  sess.run(it.initializer(), tf::feed(a, rows(4)), tf::feed(b, labels(6)));
  const auto got = drain(sess, tf::fetch(x, y, n));
  REQUIRE(got.size() == 2);  // 4 rows of a; b has 5 after skip(1); range 100
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& [xv, yv, nv] = got[k];
    for (std::size_t r = 0; r < 2; ++r) {
      const std::size_t i = 2 * k + r;
      CHECK(xv(r, 2) == static_cast<float>(10 * i + 2));
      CHECK(yv(r) == static_cast<std::int32_t>(i + 1));
      CHECK(nv(r) == static_cast<std::int64_t>(i));
    }
  }
}

// cache_test.py (memory cache): the passes after the first read the cached elements, so a
// reshuffling shuffle below the cache gives every pass the first pass's order; without the
// cache, the second pass is reshuffled.
TEST_CASE("cache(): the passes after the first repeat the first, even over a reshuffling shuffle") {
  auto values = tf::placeholder<"gd_cache_values", std::int32_t, tf::shape<tf::dyn>>();
  auto shuffled = tf::data::from_tensor_slices(values).shuffle<20, 11>();
  auto cached_it = tf::data::make_initializable_iterator<"gd_cached">(shuffled.cache().repeat(tf::constant<std::int64_t{3}>()));
  auto plain_it = tf::data::make_initializable_iterator<"gd_uncached">(shuffled.repeat(tf::constant<std::int64_t{2}>()));
  auto c = cached_it.get_next();
  auto p = plain_it.get_next();
  tf::session sess(cached_it.initializer(), plain_it.initializer(), c, p);
  sess.run(cached_it.initializer(), tf::feed(values, labels(20)));
  sess.run(plain_it.initializer(), tf::feed(values, labels(20)));
  const auto cv = drain(sess, c);
  const auto pv = drain(sess, p);
  REQUIRE(cv.size() == 60);
  REQUIRE(pv.size() == 40);
  const std::vector<std::int32_t> first(cv.begin(), cv.begin() + 20);
  CHECK(std::vector<std::int32_t>(cv.begin() + 20, cv.begin() + 40) == first);
  CHECK(std::vector<std::int32_t>(cv.begin() + 40, cv.end()) == first);
  CHECK(std::vector<std::int32_t>(pv.begin(), pv.begin() + 20) == first);        // the same seed
  CHECK(std::vector<std::int32_t>(pv.begin() + 20, pv.end()) != first);          // reshuffled
}
