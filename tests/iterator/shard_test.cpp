// Dataset.shard in graph datasets: TensorFlow's shard_test.py through iterators (the
// arguments as literals and as placeholders fed to the initializer, whose run reports
// TensorFlow's InvalidArgument), what a data-parallel job needs of it (k workers, simulated
// as k sessions, read disjoint shards of every epoch, reshuffled alike; an uneven epoch's
// remainder dropped so that every worker runs the same number of steps), and a sharded
// position in a checkpoint.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/train/saver.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/checkpoint_testing.hpp"
#include "drain.hpp"

namespace tf = typeflow;
using iterator_testing::drain;
using i64 = std::int64_t;

namespace {

xt::xarray<std::int32_t> iota32(std::size_t n) {
  xt::xarray<std::int32_t> y = xt::zeros<std::int32_t>({n});
  for (std::size_t i = 0; i < n; ++i) y(i) = static_cast<std::int32_t>(i);
  return y;
}

template <class V>
std::vector<i64> as_vector(const std::vector<V>& values) {
  return std::vector<i64>(values.begin(), values.end());
}

// The message of the InvalidArgument that f() throws, or "(no error)".
template <class F>
std::string invalid_argument_of(F&& f) {
  try {
    f();
  } catch (const tf::invalid_argument_error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("shard<num_shards, index>() of range: TensorFlow's shard_test.py with literals") {
  auto simple = tf::data::make_one_shot_iterator<"sh_simple">(tf::data::range<10>().shard<5, 2>());
  auto offset_zero = tf::data::make_one_shot_iterator<"sh_zero">(tf::data::range<10>().shard<5, 0>());
  auto ends_before = tf::data::make_one_shot_iterator<"sh_ends">(tf::data::range<1>().shard<5, 2>());
  auto larger_pool = tf::data::make_one_shot_iterator<"sh_pool">(tf::data::range<10>().shard<7, 5>());
  auto last_index = tf::data::make_one_shot_iterator<"sh_last">(tf::data::range<10>().shard<5, 4>());
  auto last_index2 = tf::data::make_one_shot_iterator<"sh_last2">(tf::data::range<10>().shard<4, 3>());
  auto more_shards = tf::data::make_one_shot_iterator<"sh_more">(tf::data::range<10>().shard<20, 5>());
  auto nested = tf::data::make_one_shot_iterator<"sh_nested">(
      tf::data::zip(tf::data::range<10>(), tf::data::range<10, 0, -1>()).shard<5, 2>());
  auto [a, b] = nested.get_next();
  tf::session sess(simple.get_next(), offset_zero.get_next(), ends_before.get_next(), larger_pool.get_next(),
                   last_index.get_next(), last_index2.get_next(), more_shards.get_next(), a, b);
  CHECK(as_vector(drain(sess, simple.get_next())) == std::vector<i64>{2, 7});       // testSimpleCase
  CHECK(as_vector(drain(sess, offset_zero.get_next())) == std::vector<i64>{0, 5});  // testOffsetZero
  CHECK(drain(sess, ends_before.get_next()).empty());                              // testIteratorEndsBeforeFirstElem
  CHECK(as_vector(drain(sess, larger_pool.get_next())) == std::vector<i64>{5});     // testLargerWorkerPool
  CHECK(as_vector(drain(sess, last_index.get_next())) == std::vector<i64>{4, 9});   // testIndexEqualsNumShards
  CHECK(as_vector(drain(sess, last_index2.get_next())) == std::vector<i64>{3, 7});  // testIndexEqualsNumShards2
  CHECK(as_vector(drain(sess, more_shards.get_next())) == std::vector<i64>{5});     // testNumShardsLargerThanDataset
  // testNestedData: the element's components stay together.
  const auto pairs = drain(sess, tf::fetch(a, b));
  REQUIRE(pairs.size() == 2);
  CHECK(std::get<0>(pairs[0]) == 2);
  CHECK(std::get<1>(pairs[0]) == 8);
  CHECK(std::get<0>(pairs[1]) == 7);
  CHECK(std::get<1>(pairs[1]) == 3);
}

TEST_CASE("shard(num_shards, index) of fed placeholders: TensorFlow's InvalidArgument at the initializer's run") {
  auto num_shards = tf::placeholder<"sh_num_shards", i64>();
  auto index = tf::placeholder<"sh_index", std::int32_t>();  // any integer scalar node
  auto it = tf::data::make_initializable_iterator<"sh_fed">(tf::data::range<10>().shard(num_shards, index));
  auto v = it.get_next();
  tf::session sess(it.initializer(), v);
  auto init = [&](i64 n, std::int32_t i) { sess.run(it.initializer(), tf::feed(num_shards, n), tf::feed(index, i)); };

  init(5, 2);
  CHECK(as_vector(drain(sess, v)) == std::vector<i64>{2, 7});
  init(4, 3);
  CHECK(as_vector(drain(sess, v)) == std::vector<i64>{3, 7});

  // testOffsetGreaterNumShards, testNegativeOffset, testNegativeNumShards, testZeroNumShards
  CHECK(invalid_argument_of([&] { init(5, 7); }) ==
        "InvalidArgument: shard: Index must be between 0 and 4 (currently index = 7)");
  CHECK(invalid_argument_of([&] { init(5, -3); }) ==
        "InvalidArgument: shard: Index must be between 0 and 4 (currently index = -3)");
  CHECK(invalid_argument_of([&] { init(-3, 1); }) ==
        "InvalidArgument: shard: Number of shards must be greater than zero (currently num_shards = -3)");
  CHECK(invalid_argument_of([&] { init(0, 1); }) ==
        "InvalidArgument: shard: Number of shards must be greater than zero (currently num_shards = 0)");
  CHECK(invalid_argument_of([&] { init(5, 5); }) != "(no error)");
  // One placeholder for both: index == num_shards.
  auto both = tf::data::make_initializable_iterator<"sh_both">(tf::data::range<10>().shard(num_shards, num_shards));
  tf::session s2(both.initializer());
  CHECK(invalid_argument_of([&] { s2.run(both.initializer(), tf::feed(num_shards, i64{3})); }) ==
        "InvalidArgument: shard: Index must be between 0 and 2 (currently index = 3)");
}

// k workers, simulated as k sessions of one graph, each fed its own index: the shards of
// every epoch are disjoint, together they are the epoch, and worker r's share of epoch e is
// elements r, r + k, ... of the unsharded pipeline's epoch e (the same seed everywhere, so
// every epoch is reshuffled alike on every worker).
TEST_CASE("shuffle<seed>, shard, repeat: every epoch partitioned among the workers and reshuffled alike") {
  constexpr std::size_t n = 10, epochs = 3;
  constexpr i64 k = 3;  // shards of 4, 3 and 3
  auto values = tf::placeholder<"sh_values", std::int32_t, tf::shape<tf::dyn>>();
  auto workers = tf::placeholder<"sh_workers", i64>();
  auto worker = tf::placeholder<"sh_worker", i64>();
  auto whole = tf::data::make_initializable_iterator<"sh_whole">(
      tf::data::from_tensor_slices(values).shuffle<n, 7>().repeat(tf::constant<i64{epochs}>()));
  auto sharded = tf::data::make_initializable_iterator<"sh_sharded">(
      tf::data::from_tensor_slices(values).shuffle<n, 7>().shard(workers, worker).repeat(tf::constant<i64{epochs}>()));

  tf::session reference(whole.initializer(), whole.get_next());
  reference.run(whole.initializer(), tf::feed(values, iota32(n)));
  const auto all = as_vector(drain(reference, whole.get_next()));
  REQUIRE(all.size() == n * epochs);

  std::vector<std::vector<i64>> epoch_of(epochs);  // the workers' elements of each epoch
  for (i64 r = 0; r < k; ++r) {
    tf::session sess(sharded.initializer(), sharded.get_next());
    sess.run(sharded.initializer(), tf::feed(values, iota32(n)), tf::feed(workers, k), tf::feed(worker, r));
    const auto mine = as_vector(drain(sess, sharded.get_next()));
    const std::size_t per_epoch = n / k + (static_cast<std::size_t>(r) < n % k ? 1 : 0);  // TensorFlow's cardinality
    REQUIRE(mine.size() == per_epoch * epochs);
    for (std::size_t e = 0; e < epochs; ++e)
      for (std::size_t j = 0; j < per_epoch; ++j) {
        const i64 got = mine[e * per_epoch + j];
        CHECK(got == all[e * n + static_cast<std::size_t>(r) + j * k]);
        epoch_of[e].push_back(got);
      }
  }
  std::vector<i64> each_once(n);
  std::iota(each_once.begin(), each_once.end(), i64{0});
  for (std::size_t e = 0; e < epochs; ++e) {
    std::sort(epoch_of[e].begin(), epoch_of[e].end());
    CHECK(epoch_of[e] == each_once);  // disjoint, and together the epoch
  }
  CHECK(!std::equal(all.begin(), all.begin() + n, all.begin() + n));  // epoch 1 is reshuffled
}

TEST_CASE("shuffle<seed>, repeat, shard: the endless stream dealt out to the workers in turn") {
  constexpr std::size_t n = 7, read = 40;
  constexpr i64 k = 2;
  auto values = tf::placeholder<"sh_values", std::int32_t, tf::shape<tf::dyn>>();
  auto worker = tf::placeholder<"sh_worker", i64>();
  auto whole = tf::data::make_initializable_iterator<"sh_stream">(tf::data::from_tensor_slices(values).shuffle<4, 3>().repeat());
  auto dealt = tf::data::make_initializable_iterator<"sh_dealt">(
      tf::data::from_tensor_slices(values).shuffle<4, 3>().repeat().shard(tf::constant<k>(), worker));
  tf::session reference(whole.initializer(), whole.get_next());
  reference.run(whole.initializer(), tf::feed(values, iota32(n)));
  std::vector<i64> all;
  for (std::size_t i = 0; i < read * k; ++i) all.push_back(reference.run(whole.get_next()));
  for (i64 r = 0; r < k; ++r) {
    tf::session sess(dealt.initializer(), dealt.get_next());
    sess.run(dealt.initializer(), tf::feed(values, iota32(n)), tf::feed(worker, r));
    for (std::size_t j = 0; j < read; ++j) CHECK(sess.run(dealt.get_next()) == all[j * k + static_cast<std::size_t>(r)]);
  }
}

TEST_CASE("An uneven epoch: take(n / k) after shard gives every worker the same number of steps") {
  constexpr std::size_t n = 10, epochs = 2;
  constexpr i64 k = 3;
  const auto examples_value = iota32(n);
  // The unsharded pipeline's epochs (the same seed; the same pass numbers under repeat()).
  auto all_examples = tf::placeholder<"examples", std::int32_t, tf::shape<tf::dyn>>();
  auto reference = tf::data::make_initializable_iterator<"reference">(
      tf::data::from_tensor_slices(all_examples).shuffle<1000, 7>().repeat());
  tf::session ref(reference.initializer(), reference.get_next());
  ref.run(reference.initializer(), tf::feed(all_examples, examples_value));
  std::vector<i64> all;
  for (std::size_t i = 0; i < n * epochs; ++i) all.push_back(ref.run(reference.get_next()));
  std::vector<std::vector<i64>> steps_of(k), steps_without_take(k);
  for (i64 rank = 0; rank < k; ++rank) {
    // [snippet shard_workers]
    auto examples = tf::placeholder<"examples", std::int32_t, tf::shape<tf::dyn>>();
    auto num_workers = tf::placeholder<"num_workers", std::int64_t>();
    auto worker = tf::placeholder<"worker", std::int64_t>();
    auto per_worker = tf::placeholder<"per_worker", std::int64_t>();  // examples per worker and epoch
    auto dataset = tf::data::from_tensor_slices(examples)
                       .shuffle<1000, /*seed, the same on every worker*/ 7>()
                       .shard(num_workers, worker)
                       .take(per_worker)  // n / k on every worker: the epoch's last n % k examples dropped
                       .batch<2>(tf::data::drop_remainder)
                       .repeat();
    auto batches = tf::data::make_initializable_iterator<"batches">(dataset);
    tf::session sess(batches.initializer(), batches.get_next());
    sess.run(batches.initializer(), tf::feed(examples, examples_value), tf::feed(num_workers, k),
             tf::feed(worker, rank), tf::feed(per_worker, static_cast<std::int64_t>(n) / k));
    // [/snippet shard_workers]
    // Each worker: 3 examples an epoch, 1 batch of 2; its epoch ends where the others' do.
    // Worker r's batch of epoch e: positions r and r + k of the unsharded epoch e.
    for (std::size_t e = 0; e < epochs; ++e) {
      const auto batch = sess.run(batches.get_next());
      CHECK(batch(0) == all[e * n + static_cast<std::size_t>(rank)]);
      CHECK(batch(1) == all[e * n + static_cast<std::size_t>(rank + k)]);
      steps_of[static_cast<std::size_t>(rank)].insert(steps_of[static_cast<std::size_t>(rank)].end(), batch.begin(), batch.end());
    }
    // Without take, batch(drop_remainder) alone leaves the shards of 4, 3, 3 examples 2, 1
    // and 1 batches: the first worker would wait for the others at its second step.
    auto uneven = tf::data::make_initializable_iterator<"uneven">(
        tf::data::from_tensor_slices(examples).shuffle<1000, 7>().shard(num_workers, worker).batch<2>(tf::data::drop_remainder));
    tf::session s2(uneven.initializer(), uneven.get_next());
    s2.run(uneven.initializer(), tf::feed(examples, examples_value), tf::feed(num_workers, k), tf::feed(worker, rank));
    steps_without_take[static_cast<std::size_t>(rank)] = std::vector<i64>(drain(s2, uneven.get_next()).size(), 0);
  }
  CHECK(steps_without_take[0].size() == 2);
  CHECK(steps_without_take[1].size() == 1);
  CHECK(steps_without_take[2].size() == 1);
  // Every epoch, the workers' batches are disjoint: 3 x 2 of its 10 examples.
  for (std::size_t e = 0; e < epochs; ++e) {
    std::vector<i64> seen;
    for (const auto& s : steps_of) seen.insert(seen.end(), s.begin() + static_cast<std::ptrdiff_t>(2 * e), s.begin() + static_cast<std::ptrdiff_t>(2 * e + 2));
    std::sort(seen.begin(), seen.end());
    CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
    CHECK(seen.size() == 6);
  }
}

namespace {

// A worker's pipeline: from_tensor_slices -> shuffle(seeded) -> shard -> batch -> repeat, the
// iterator's position saved with a variable that sums the labels read.
auto ck_values = tf::placeholder<"shc_values", std::int32_t, tf::shape<tf::dyn>>();
auto ck_worker = tf::placeholder<"shc_worker", i64>();
auto ck_pipeline = tf::data::from_tensor_slices(ck_values).shuffle<4, 42>().shard(tf::constant<i64{2}>(), ck_worker).batch<2>().repeat();
auto ck_plain = tf::data::from_tensor_slices(ck_values).shuffle<4, 42>().batch<2>().repeat();  // same structure
auto ck_it = tf::data::iterator_from_structure<"shc_iterator">(ck_pipeline);
auto ck_init = ck_it.make_initializer(ck_pipeline);
auto ck_init_plain = ck_it.make_initializer(ck_plain);
auto ck_total = tf::variable<"shc_total", std::int32_t, tf::scalar>(tf::init::zeros());
auto ck_step = tf::assign_add(ck_total, tf::reduce_sum(ck_it.get_next()));

using ck_session = decltype(tf::session(ck_step, ck_init, ck_init_plain));
ck_session worker_session(i64 rank) {
  ck_session sess(ck_step, ck_init, ck_init_plain);
  sess.initialize_all();
  sess.run(ck_init, tf::feed(ck_values, iota32(9)), tf::feed(ck_worker, rank));
  return sess;
}
std::vector<std::vector<i64>> batches(ck_session& sess, int count) {
  std::vector<std::vector<i64>> out;
  for (int i = 0; i < count; ++i) {
    auto b = sess.run(ck_it.get_next());
    out.emplace_back(b.begin(), b.end());
    sess.run(ck_step);
  }
  return out;
}

}  // namespace

TEST_CASE("A shard's position in a checkpoint: restored mid-epoch, the same rest; another shard's is rejected") {
  ckpt_testing::temp_dir dir;
  tf::train::saver saver(tf::data::make_saveable_from_iterator(ck_it), ck_total);
  auto uninterrupted = worker_session(1);
  const auto expected = batches(uninterrupted, 12);  // 4 or 5 of 9 examples an epoch: into the third

  auto a = worker_session(1);
  CHECK(batches(a, 5) == std::vector<std::vector<i64>>(expected.begin(), expected.begin() + 5));
  const auto path = saver.save(a, dir / "worker1.ckpt");
  auto b = worker_session(1);
  saver.restore(b, path);
  CHECK(b.run(ck_total) == a.run(ck_total));
  CHECK(batches(b, 7) == std::vector<std::vector<i64>>(expected.begin() + 5, expected.end()));

  // Worker 0 restoring worker 1's position: InvalidArgument naming the entries and both
  // shards; worker 0's position and variable unchanged.
  auto c = worker_session(0);
  const auto c_expected = batches(c, 2);
  auto d = worker_session(0);
  batches(d, 1);
  const std::string message = [&] {
    try {
      saver.restore(d, path);
    } catch (const tf::invalid_argument_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  }();
  CHECK(message.find("'shc_iterator_STATE/repeat/batch/shard/num_shards' and 'shc_iterator_STATE/repeat/batch/shard/index' "
                     "are 2 and 1: it was saved by shard 1 of 2, and this iterator reads shard 0 of 2") != std::string::npos);
  CHECK(batches(d, 1).front() == c_expected[1]);

  // The state of another pipeline (no shard stage) is not this one's.
  auto plain = worker_session(0);
  plain.run(ck_init_plain, tf::feed(ck_values, iota32(9)));
  const auto plain_path = saver.save(plain, dir / "plain.ckpt");
  CHECK_THROWS_AS(saver.restore(b, plain_path), tf::not_found_error);
}
