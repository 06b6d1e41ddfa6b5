// Dataset.map with a function of nodes and Dataset.padded_batch on graph datasets
// (data/graph_dataset.hpp, data/detail/graph_map.hpp), with TensorFlow's map_test.py and
// padded_batch_test.py ported where they apply.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include <boost/hana/tuple.hpp>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/train/saver.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/checkpoint_testing.hpp"
#include "drain.hpp"

namespace tf = typeflow;

using iterator_testing::drain;

// map_test.py testMapDataset: three components squared, repeated `count` times.
TEST_CASE("map(fn) per element: TensorFlow's testMapDataset (components squared, repeated)") {
  auto a = tf::placeholder<"gm_a", std::int64_t, tf::shape<7>>();
  auto b = tf::placeholder<"gm_b", std::int64_t, tf::shape<7, 3>>();
  auto c = tf::placeholder<"gm_c", double, tf::shape<7>>();
  auto count = tf::placeholder<"gm_count", std::int64_t, tf::scalar>();
  auto dataset = tf::data::from_tensor_slices(a, b, c)
                     .map([](auto x, auto y, auto z) { return std::tuple{x * x, y * y, z * z}; })
                     .repeat(count);
  auto it = tf::data::make_initializable_iterator<"gm_it">(dataset);
  auto [x, y, z] = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(x)>, tf::scalar>);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<3>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(z)>, double>);

  xt::xarray<std::int64_t> av = xt::zeros<std::int64_t>({7});
  xt::xarray<std::int64_t> bv = xt::zeros<std::int64_t>({7, 3});
  xt::xarray<double> cv = xt::zeros<double>({7});
  for (std::int64_t i = 0; i < 7; ++i) {
    av(i) = i;
    for (std::int64_t j = 0; j < 3; ++j) bv(i, j) = (j + 1) * i;
    cv(i) = 37.0 * static_cast<double>(i);
  }
  tf::session sess(it.initializer(), x, y, z);
  for (std::int64_t n : {14, 18}) {
    sess.run(it.initializer(), tf::feed(a, av), tf::feed(b, bv), tf::feed(c, cv), tf::feed(count, n));
    const auto got = drain(sess, tf::fetch(x, y, z));
    REQUIRE(got.size() == static_cast<std::size_t>(7 * n));
    for (std::size_t k = 0; k < got.size(); ++k) {
      const std::int64_t i = static_cast<std::int64_t>(k % 7);
      const auto& [xv, yv, zv] = got[k];
      CHECK(xv == i * i);
      for (std::size_t j = 0; j < 3; ++j) CHECK(yv(j) == (static_cast<std::int64_t>(j) + 1) * (static_cast<std::int64_t>(j) + 1) * i * i);
      CHECK(zv == doctest::Approx(37.0 * 37.0 * static_cast<double>(i * i)));
    }
  }
}

// The MNIST input step of a TF 1.x program: images scaled to [0, 1], labels one-hot, per batch.
TEST_CASE("map(fn) after batch: cast and scale the images, one-hot the labels; one node returned") {
  auto images = tf::placeholder<"gm_images", std::int32_t, tf::shape<tf::dyn, 4>>();
  auto labels = tf::placeholder<"gm_labels", std::int32_t, tf::shape<tf::dyn>>();
  auto dataset = tf::data::from_tensor_slices(images, labels).batch<3>().map([](auto x, auto y) {
    return boost::hana::make_tuple(tf::cast<float>(x) / tf::constant<255.0f>(), tf::one_hot<5, float>(y));
  });
  auto it = tf::data::make_initializable_iterator<"gm_mnist">(dataset);
  auto [x, y] = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(x)>, tf::shape<tf::dyn, 4>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(y)>, tf::shape<tf::dyn, 5>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(x)>, float>);

  xt::xarray<std::int32_t> iv = xt::zeros<std::int32_t>({5, 4});
  xt::xarray<std::int32_t> lv = {3, 0, 4, 1, 2};
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 4; ++j) iv(i, j) = static_cast<std::int32_t>(51 * j + i);
  tf::session sess(it.initializer(), x, y);
  sess.run(it.initializer(), tf::feed(images, iv), tf::feed(labels, lv));
  const auto got = drain(sess, tf::fetch(x, y));
  REQUIRE(got.size() == 2);
  std::size_t row = 0;
  for (const auto& [xv, yv] : got) {
    for (std::size_t r = 0; r < xv.shape()[0]; ++r, ++row) {
      for (std::size_t j = 0; j < 4; ++j) CHECK(xv(r, j) == doctest::Approx(static_cast<float>(51 * j + row) / 255.0f));
      for (std::size_t k = 0; k < 5; ++k) CHECK(yv(r, k) == (static_cast<std::int32_t>(k) == lv(row) ? 1.0f : 0.0f));
    }
  }
  CHECK(row == 5);

  // One node returned: a one-component element.
  auto squares = tf::data::from_tensor_slices(labels).map([](auto v) { return v * v + tf::constant<std::int32_t(1)>(); });
  auto it2 = tf::data::make_initializable_iterator<"gm_squares">(squares);
  auto s = it2.get_next();
  tf::session sess2(it2.initializer(), s);
  sess2.run(it2.initializer(), tf::feed(labels, lv));
  const auto sv = drain(sess2, s);
  CHECK(sv == std::vector<std::int32_t>{10, 1, 17, 2, 5});
}

// filter_test.py testFilterRange: range(4).filter(x % 3 != 2) gives 0, 1, 3 (typeflow has no
// mod op: the predicate here is x != 2, which keeps the same elements of range(4)).
TEST_CASE("filter(fn): TensorFlow's testFilterRange; repeated, the predicate runs on every pass") {
  auto values = tf::placeholder<"gf_values", std::int64_t, tf::shape<tf::dyn>>();
  auto count = tf::placeholder<"gf_count", std::int64_t, tf::scalar>();
  auto dataset = tf::data::from_tensor_slices(values)
                     .filter([](auto x) { return tf::not_equal(x, tf::constant<std::int64_t{2}>()); })
                     .repeat(count);
  auto it = tf::data::make_initializable_iterator<"gf_range">(dataset);
  auto x = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(x)>, tf::scalar>);
  tf::session sess(it.initializer(), x);
  const xt::xarray<std::int64_t> range = {0, 1, 2, 3};
  sess.run(it.initializer(), tf::feed(values, range), tf::feed(count, std::int64_t{1}));
  CHECK(drain(sess, x) == std::vector<std::int64_t>{0, 1, 3});
  sess.run(it.initializer(), tf::feed(values, range), tf::feed(count, std::int64_t{2}));
  CHECK(drain(sess, x) == std::vector<std::int64_t>{0, 1, 3, 0, 1, 3});
  // Nothing passes: the end of the data at once.
  const xt::xarray<std::int64_t> twos = {2, 2, 2};
  sess.run(it.initializer(), tf::feed(values, twos), tf::feed(count, std::int64_t{3}));
  CHECK(drain(sess, x).empty());
}

// A predicate over two components, before shuffle and batch: the elements and order of the
// host dataset filtered by the same predicate, shuffled with the same seed; and the position
// of a filtered pipeline saved mid-run and restored in another session continues the run.
TEST_CASE("filter(fn) over a structure, then shuffle and batch: the host dataset's order; saved and restored") {
  auto features = tf::placeholder<"gf_features", float, tf::shape<tf::dyn, 2>>();
  auto labels = tf::placeholder<"gf_labels", std::int32_t, tf::shape<tf::dyn>>();
  auto dataset = tf::data::from_tensor_slices(features, labels)
                     .filter([](auto f, auto y) {
                       return tf::greater(tf::reduce_sum(f), tf::cast<float>(y) + tf::constant<5.0f>());
                     })
                     .shuffle<8, 3>()
                     .batch<2>();
  auto it = tf::data::make_initializable_iterator<"gf_pairs">(dataset);
  auto [f, y] = it.get_next();

  xt::xarray<float> fv = xt::zeros<float>({20, 2});
  xt::xarray<std::int32_t> yv = xt::zeros<std::int32_t>({20});
  for (std::size_t i = 0; i < 20; ++i) {
    fv(i, 0) = static_cast<float>(i);
    fv(i, 1) = static_cast<float>(i) / 2.0f;
    yv(i) = static_cast<std::int32_t>(i % 10);
  }
  auto host = tf::data::from_tensor_slices(fv, yv)
                  .filter([](const xt::xarray<float>& a, const xt::xarray<std::int32_t>& b) {
                    return a(0) + a(1) > static_cast<float>(b()) + 5.0f;
                  })
                  .shuffle(8, 3)
                  .batch(2);
  std::vector<std::int32_t> expected;
  {
    auto hit = host.make_iterator();
    std::tuple<xt::xarray<float>, xt::xarray<std::int32_t>> e;
    while (hit.next(e))
      for (auto v : std::get<1>(e)) expected.push_back(v);
  }
  REQUIRE(expected.size() == 10);  // 1.5 i > i % 10 + 5 for i = 10..19 only

  tf::session sess(it.initializer(), f, y);
  sess.run(it.initializer(), tf::feed(features, fv), tf::feed(labels, yv));
  std::vector<std::int32_t> got;
  for (const auto& [fb, yb] : drain(sess, tf::fetch(f, y))) {
    for (std::size_t r = 0; r < yb.size(); ++r) {
      got.push_back(yb(r));
      CHECK(fb(r, 0) + fb(r, 1) > static_cast<float>(yb(r)) + 5.0f);
    }
  }
  CHECK(got == expected);

  // Saved after the first batch, restored into another session: the rest of the run.
  ckpt_testing::temp_dir dir;
  auto saveable = tf::data::make_saveable_from_iterator(it);
  tf::train::saver saver({}, saveable);
  sess.run(it.initializer(), tf::feed(features, fv), tf::feed(labels, yv));
  (void)sess.run(y);
  const auto path = saver.save(sess, dir / "filter.ckpt");
  tf::session other(it.initializer(), f, y);
  other.run(it.initializer(), tf::feed(features, fv), tf::feed(labels, yv));
  saver.restore(other, path);
  std::vector<std::int32_t> rest;
  for (const auto& yb : drain(other, y))
    for (auto v : yb) rest.push_back(v);
  CHECK(rest == std::vector<std::int32_t>(expected.begin() + 2, expected.end()));
}

TEST_CASE("map then shuffle and batch: the order of the host dataset with the same seed") {
  auto values = tf::placeholder<"gm_values", float, tf::shape<tf::dyn>>();
  auto dataset = tf::data::from_tensor_slices(values)
                     .map([](auto v) { return std::tuple{v * tf::constant<2.0f>(), v + tf::constant<1.0f>()}; })
                     .shuffle<7, 11>()
                     .batch<4>();
  xt::xarray<float> vv = xt::arange<float>(0.0f, 10.0f);
  auto host = tf::data::from_tensor_slices(vv)
                  .map([](const xt::xarray<float>& v) { return std::tuple{xt::xarray<float>(v * 2.0f), xt::xarray<float>(v + 1.0f)}; })
                  .shuffle(7, 11)
                  .batch(4);
  auto it = tf::data::make_initializable_iterator<"gm_shuffled">(dataset);
  auto [d, p] = it.get_next();
  tf::session sess(it.initializer(), d, p);
  sess.run(it.initializer(), tf::feed(values, vv));
  const auto got = drain(sess, tf::fetch(d, p));
  auto hit = host.make_iterator();
  decltype(host)::element_type e;
  std::size_t n = 0;
  for (const auto& [dv, pv] : got) {
    REQUIRE(hit.next(e));
    CHECK(dv == std::get<0>(e));
    CHECK(pv == std::get<1>(e));
    CHECK(pv == dv / 2.0f + 1.0f);
    n += dv.size();
  }
  CHECK_FALSE(hit.next(e));
  CHECK(n == 10);

  // The same through prefetch: the map runs in the prefetch thread, the order is kept.
  auto ahead = tf::data::make_initializable_iterator<"gm_prefetched">(dataset.prefetch<2>());
  auto [ad, ap] = ahead.get_next();
  tf::session sess2(ahead.initializer(), ad, ap);
  sess2.run(ahead.initializer(), tf::feed(values, vv));
  CHECK(drain(sess2, tf::fetch(ad, ap)) == got);
}

// padded_batch_test.py testPaddedBatchDataset: element i is fill([seq_len_i], seq_len_i)
// (here sequence_mask(x) * x), batched by 4, padded with zeros to the batch's longest,
// then to a fixed 25.
TEST_CASE("padded_batch: TensorFlow's testPaddedBatchDataset, to the longest and to a fixed size") {
  auto seq_lens = tf::placeholder<"gm_seq_lens", std::int32_t, tf::shape<tf::dyn>>();
  auto filled = tf::data::from_tensor_slices(seq_lens).map(
      [](auto x) { return tf::sequence_mask<tf::dyn, std::int32_t>(x) * x; });
  static_assert(std::is_same_v<decltype(filled)::spec,
                               tf::data::element_spec<tf::data::component<std::int32_t, tf::shape<tf::dyn>>>>);
  auto longest = tf::data::make_initializable_iterator<"gm_longest">(filled.padded_batch<4>());
  auto fixed = tf::data::make_initializable_iterator<"gm_fixed">(
      filled.padded_batch(tf::constant<std::int64_t(4)>(), tf::data::pad_to<tf::shape<25>>{}));
  auto dropped = tf::data::make_initializable_iterator<"gm_dropped">(
      filled.padded_batch(tf::constant<std::int64_t(4)>(), tf::data::drop_remainder));
  auto lb = longest.get_next();
  auto fb = fixed.get_next();
  auto db = dropped.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(lb)>, tf::shape<tf::dyn, tf::dyn>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(fb)>, tf::shape<tf::dyn, 25>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(db)>, tf::shape<4, tf::dyn>>);

  std::mt19937 rng(1234);
  xt::xarray<std::int32_t> lens = xt::zeros<std::int32_t>({std::size_t{32}});
  for (auto& l : lens) l = static_cast<std::int32_t>(rng() % 20);
  tf::session sess(longest.initializer(), fixed.initializer(), dropped.initializer(), lb, fb, db);
  sess.run(tf::group(longest.initializer(), fixed.initializer(), dropped.initializer()), tf::feed(seq_lens, lens));
  const auto got = drain(sess, lb);
  const auto got_fixed = drain(sess, fb);
  REQUIRE(got.size() == 8);
  REQUIRE(got_fixed.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    std::int32_t max_len = 0;
    for (std::size_t j = 0; j < 4; ++j) max_len = std::max(max_len, lens(4 * i + j));
    REQUIRE(got[i].shape()[0] == 4);
    CHECK(got[i].shape()[1] == static_cast<std::size_t>(max_len));
    CHECK(got_fixed[i].shape()[1] == 25);
    for (std::size_t j = 0; j < 4; ++j) {
      const std::int32_t len = lens(4 * i + j);
      for (std::int32_t k = 0; k < 25; ++k) {
        const std::int32_t want = k < len ? len : 0;
        if (k < max_len) CHECK(got[i](j, static_cast<std::size_t>(k)) == want);
        CHECK(got_fixed[i](j, static_cast<std::size_t>(k)) == want);
      }
    }
  }

  // 10 elements by 4 with drop_remainder: two batches of 4, the last 2 dropped.
  sess.run(dropped.initializer(), tf::feed(seq_lens, xt::xarray<std::int32_t>{1, 2, 3, 0, 5, 1, 1, 2, 7, 7}));
  const auto got_dropped = drain(sess, db);
  REQUIRE(got_dropped.size() == 2);
  CHECK(got_dropped[0] == xt::xarray<std::int32_t>{{1, 0, 0}, {2, 2, 0}, {3, 3, 3}, {0, 0, 0}});
  CHECK(got_dropped[1] == xt::xarray<std::int32_t>{{5, 5, 5, 5, 5}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {2, 2, 0, 0, 0}});

  // padded_batch_test.py testPaddedBatchShortPadding: fill([x], x) of 6, 5, 5, 5, 5 padded
  // to 5 is TensorFlow's DataLossError.
  auto short_pad = tf::data::make_initializable_iterator<"gm_short">(
      filled.padded_batch(tf::constant<std::int64_t(4)>(), tf::data::pad_to<tf::shape<5>>{}));
  auto sb = short_pad.get_next();
  tf::session sess2(short_pad.initializer(), sb);
  sess2.run(short_pad.initializer(), tf::feed(seq_lens, xt::xarray<std::int32_t>{6, 5, 5, 5, 5}));
  CHECK_THROWS_AS(sess2.run(sb), tf::data_loss_error);
}

// padded_batch_test.py testPaddedBatchDatasetNonDefaultPadding: padding_values (-1 for the
// sequences, fed to the initializer here), padded_shapes ([-1], []).
TEST_CASE("padded_batch with padding values: TensorFlow's testPaddedBatchDatasetNonDefaultPadding") {
  auto seq_lens = tf::placeholder<"gm_np_lens", std::int32_t, tf::shape<tf::dyn>>();
  auto pad = tf::placeholder<"gm_np_pad", std::int32_t, tf::scalar>();
  auto batch_size = tf::placeholder<"gm_np_batch", std::int64_t, tf::scalar>();
  auto dataset =
      tf::data::from_tensor_slices(seq_lens)
          .map([](auto x) { return std::tuple{tf::sequence_mask<tf::dyn, std::int32_t>(x) * x, x}; })
          .padded_batch(batch_size, tf::data::pad_to<tf::shape<tf::dyn>, tf::scalar>{},
                        tf::data::padding_values(pad, tf::constant<std::int32_t(0)>()));
  auto it = tf::data::make_initializable_iterator<"gm_np">(dataset);
  auto [seqs, lens_out] = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(seqs)>, tf::shape<tf::dyn, tf::dyn>>);
  static_assert(std::is_same_v<tf::shape_of<decltype(lens_out)>, tf::shape<tf::dyn>>);

  std::mt19937 rng(99);
  xt::xarray<std::int32_t> lens = xt::zeros<std::int32_t>({std::size_t{32}});
  for (auto& l : lens) l = static_cast<std::int32_t>(rng() % 20);
  tf::session sess(it.initializer(), seqs, lens_out);
  sess.run(it.initializer(), tf::feed(seq_lens, lens), tf::feed(pad, std::int32_t{-1}),
           tf::feed(batch_size, std::int64_t{4}));
  const auto got = drain(sess, tf::fetch(seqs, lens_out));
  REQUIRE(got.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    const auto& [sv, lv] = got[i];
    std::int32_t max_len = 0;
    for (std::size_t j = 0; j < 4; ++j) max_len = std::max(max_len, lens(4 * i + j));
    REQUIRE(sv.shape()[1] == static_cast<std::size_t>(max_len));
    for (std::size_t j = 0; j < 4; ++j) {
      const std::int32_t len = lens(4 * i + j);
      CHECK(lv(j) == len);
      for (std::int32_t k = 0; k < max_len; ++k) CHECK(sv(j, static_cast<std::size_t>(k)) == (k < len ? len : -1));
    }
  }

  // The padding value is a node: another value fed to the next initializer run pads with it.
  sess.run(it.initializer(), tf::feed(seq_lens, xt::xarray<std::int32_t>{2, 1}), tf::feed(pad, std::int32_t{9}),
           tf::feed(batch_size, std::int64_t{4}));
  CHECK(std::get<0>(sess.run(tf::fetch(seqs, lens_out))) == xt::xarray<std::int32_t>{{2, 2}, {1, 9}});
}

// An iterator over map and padded_batch in a checkpoint (make_saveable_from_iterator): the
// stages keep their input's position, so a restored session goes on where the saved one stood.
TEST_CASE("map and padded_batch in a checkpointed iterator: a restored run continues the saved one") {
  auto lens = tf::placeholder<"gm_ck_lens", std::int32_t, tf::shape<tf::dyn>>();
  auto dataset = tf::data::from_tensor_slices(lens)
                     .map([](auto x) { return tf::sequence_mask<tf::dyn, std::int32_t>(x) * x; })
                     .shuffle<5, 3>()
                     .padded_batch<2>()
                     .repeat();
  auto it = tf::data::iterator_from_structure<"gm_ck">(dataset);
  auto init = it.make_initializer(dataset);
  auto batch = it.get_next();
  auto saveable = tf::data::make_saveable_from_iterator(it);
  const xt::xarray<std::int32_t> lv{1, 4, 2, 3, 5, 0, 2};
  using session_t = decltype(tf::session(init, batch));
  auto start = [&] {
    session_t sess(init, batch);
    sess.run(init, tf::feed(lens, lv));
    return sess;
  };
  auto take = [&](session_t& sess, int n) {
    std::vector<xt::xarray<std::int32_t>> out;
    for (int i = 0; i < n; ++i) out.push_back(sess.run(batch));
    return out;
  };
  ckpt_testing::temp_dir dir;
  auto a = start();
  const auto first = take(a, 5);  // into the second pass
  tf::train::saver saver({}, saveable);
  const auto path = saver.save(a, dir / "model.ckpt", 5);
  const auto rest = take(a, 7);
  auto b = start();
  const auto b_first = take(b, 2);  // the same order from a new initializer run, 3 batches behind
  CHECK(std::equal(b_first.begin(), b_first.end(), first.begin()));
  saver.restore(b, path);
  CHECK(take(b, 7) == rest);
  for (const auto& m : rest) {
    // each row is fill([n], n) padded with zeros to the batch's longest
    for (std::size_t r = 0; r < m.shape()[0]; ++r) {
      const std::int32_t n = m(r, 0);
      for (std::size_t k = 0; k < m.shape()[1]; ++k) CHECK(m(r, k) == (static_cast<std::int32_t>(k) < n ? n : 0));
    }
  }
}
