// An iterator's position in a checkpoint (data::make_saveable_from_iterator with
// train::saver), after TensorFlow's iterator checkpoint tests (iterator_ops_test
// testSaveRestore*, make_saveable_from_iterator with a Saver): a run restored mid-epoch in
// another session gives exactly the batches of an uninterrupted run, variables and position
// are restored together, and every failure leaves both as they were.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xfixed.hpp>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/io/checkpoint/reader.hpp>
#include <typeflow/io/checkpoint/writer.hpp>
#include <typeflow/train/saver.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/checkpoint_testing.hpp"

namespace tf = typeflow;
using ckpt_testing::temp_dir;

namespace {

xt::xarray<float> rows(std::size_t n) {
  xt::xarray<float> x = xt::zeros<float>({n, std::size_t{2}});
  for (std::size_t i = 0; i < n; ++i) x(i, 0) = x(i, 1) = static_cast<float>(i);
  return x;
}
xt::xarray<std::int32_t> labels(std::size_t n) {
  xt::xarray<std::int32_t> y = xt::zeros<std::int32_t>({n});
  for (std::size_t i = 0; i < n; ++i) y(i) = static_cast<std::int32_t>(i);
  return y;
}

// The graph: from_tensor_slices(x, y) -> shuffle(seeded) -> batch -> repeat -> prefetch, and
// a training step that adds each batch's labels to a variable. Built the same in every
// session (a node's type is its identity).
auto features = tf::placeholder<"ck_x", float, tf::shape<tf::dyn, 2>>();
auto targets = tf::placeholder<"ck_y", std::int32_t, tf::shape<tf::dyn>>();
auto pipeline = tf::data::from_tensor_slices(features, targets).shuffle<4, 42>().batch<3>().repeat().prefetch<2>();
auto plain = tf::data::from_tensor_slices(features, targets).batch<3>().repeat();  // same structure
auto it = tf::data::iterator_from_structure<"ck_iterator">(pipeline);
auto next = it.get_next();
auto batch_x = std::get<0>(next);
auto batch_y = std::get<1>(next);
auto total = tf::variable<"ck_total", float, tf::scalar>(tf::init::zeros());
auto step = tf::assign_add(total, tf::reduce_sum(tf::cast<float>(batch_y)));
auto init = it.make_initializer(pipeline);
auto init_plain = it.make_initializer(plain);
auto saveable = tf::data::make_saveable_from_iterator(it);

constexpr std::size_t n_rows = 7;

using session_t = decltype(tf::session(step, batch_x, init, init_plain));
session_t make_session() { return session_t(step, batch_x, init, init_plain); }

void initialize(session_t& sess) { sess.run(init, tf::feed(features, rows(n_rows)), tf::feed(targets, labels(n_rows))); }

// The labels of the next `n` batches, each run also applying the training step.
std::vector<std::vector<std::int32_t>> take(session_t& sess, int n) {
  std::vector<std::vector<std::int32_t>> out;
  for (int i = 0; i < n; ++i) {
    auto [t, y] = sess.run(tf::fetch(step, batch_y));
    (void)t;
    out.emplace_back(y.begin(), y.end());
  }
  return out;
}

// The labels of the first `n` batches of an uninterrupted run.
std::vector<std::vector<std::int32_t>> uninterrupted(int n) {
  auto sess = make_session();
  sess.initialize_all();
  initialize(sess);
  return take(sess, n);
}

std::vector<std::int32_t> next_labels(session_t& sess) {
  auto y = sess.run(batch_y);
  return {y.begin(), y.end()};
}

// Rewrites the checkpoint at `path` with `edit(info, bytes)` applied to the tensor `key`.
template <class Edit>
void tamper(const std::string& path, const std::string& key, Edit edit) {
  tf::io::checkpoint_reader reader(path);
  auto loaded = tf::io::load_all(reader);
  bool found = false;
  for (std::size_t i = 0; i < loaded.header.tensors.size(); ++i)
    if (loaded.header.tensors[i].name == key) {
      edit(loaded.header.tensors[i], loaded.data[i]);
      found = true;
    }
  REQUIRE(found);
  std::vector<tf::io::tensor_data_view> views;
  for (std::size_t i = 0; i < loaded.header.tensors.size(); ++i) {
    const auto& t = loaded.header.tensors[i];
    views.push_back({t.name, t.dtype, t.shape, loaded.data[i].data()});
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  tf::io::write_checkpoint(out, tf::io::archive_format::portable_binary, loaded.header.global_step, views);
}

// The message of the error E that f() throws, or "(no error)".
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

// CHECK that `text` contains `part` (doctest::Contains needs a string that outlives it).
#define CHECK_THAT_CONTAINS(text, part)             \
  do {                                              \
    const std::string text_ = (text);               \
    CAPTURE(text_);                                 \
    CHECK(text_.find(part) != std::string::npos);   \
  } while (false)

// The key of the state's entry whose name ends with `suffix`.
std::string state_key(const std::string& path, const std::string& suffix) {
  for (const auto& t : tf::train::list_variables(path))
    if (t.name.ends_with(suffix)) return t.name;
  FAIL("no key ends with " << suffix);
  return {};
}

}  // namespace

TEST_CASE("A run restored mid-epoch in another session gives the batches of an uninterrupted run") {
  const auto expected = uninterrupted(24);  // batches of 3 over 7 rows, across epochs
  struct variant {
    bool map_file;
    tf::io::archive_format format;
  };
  for (const auto [map_file, format] : {variant{true, tf::io::archive_format::portable_binary},
                                        variant{false, tf::io::archive_format::portable_binary},
                                        variant{true, tf::io::archive_format::json}}) {
    CAPTURE(map_file);
    CAPTURE(format == tf::io::archive_format::json);
    temp_dir dir;
    auto a = make_session();
    a.initialize_all();
    initialize(a);
    const auto first = take(a, 6);  // mid-epoch of the third pass
    CHECK(std::equal(first.begin(), first.end(), expected.begin()));
    tf::train::saver saver({.format = format, .map_file = map_file}, saveable, total);
    const auto path = saver.save(a, dir / "model.ckpt", 6);
    const float total_at_save = a.run(total);

    auto b = make_session();
    initialize(b);  // the same dataset; `total` is still uninitialized
    saver.restore(b, path);
    CHECK(b.run(total) == total_at_save);
    const auto rest = take(b, 18);
    CHECK(std::equal(rest.begin(), rest.end(), expected.begin() + 6));
    CHECK(take(a, 18) == rest);  // and so does the session that saved
    CHECK(b.run(total) == a.run(total));

    // Restoring over an initialized variable and a used iterator goes back to the save.
    saver.restore(b, path);
    CHECK(b.run(total) == total_at_save);
    CHECK(take(b, 1).front() == expected[6]);
  }
}

TEST_CASE("all_variables_and: every variable and the iterator; the manifest lists the iterator's tensors") {
  temp_dir dir;
  auto a = make_session();
  a.initialize_all();
  initialize(a);
  take(a, 2);
  tf::train::saver saver(tf::train::all_variables_and(saveable));
  const auto path = saver.save(a, dir / "model.ckpt");
  const auto manifest = tf::train::list_variables(path);
  // The keys: "<iterator>_STATE/" and the stages' path, from the last stage to the source.
  CHECK(manifest.front().name == "ck_iterator_STATE/prefetch/buffer/c0_shapes");
  bool has_total = false;
  std::size_t state_tensors = 0;
  for (const auto& t : manifest) {
    has_total = has_total || t.name == "ck_total";
    if (t.name.starts_with("ck_iterator_STATE/")) ++state_tensors;
  }
  CHECK(has_total);
  CHECK(state_tensors + 1 == manifest.size());
  CHECK(state_tensors > 3);
  const auto slices = state_key(path, "slices/index");
  CHECK(std::find_if(manifest.begin(), manifest.end(), [&](const auto& t) {
          return t.name == slices && t.dtype == tf::dtype::int64 && t.shape.empty();
        }) != manifest.end());

  auto b = make_session();
  initialize(b);
  // The saver's diff knows variables only: the iterator's tensors are extra.
  const auto diff = saver.diff(b, path);
  CHECK(diff.missing.empty());
  CHECK(diff.extra.size() == state_tensors);
  saver.restore(b, path);
  CHECK(b.run(total) == a.run(total));
  CHECK(take(b, 3) == take(a, 3));
}

TEST_CASE("A saver without the saveable neither saves nor restores the iterator") {
  temp_dir dir;
  const auto expected = uninterrupted(4);
  auto a = make_session();
  a.initialize_all();
  initialize(a);
  take(a, 2);
  tf::train::saver only_total(total);
  const auto path = only_total.save(a, dir / "model.ckpt");
  for (const auto& t : tf::train::list_variables(path)) CHECK(t.name == "ck_total");

  auto b = make_session();
  b.initialize_all();
  initialize(b);
  take(b, 1);  // b's iterator is one batch in
  only_total.restore(b, path);
  CHECK(b.run(total) == a.run(total));
  CHECK(next_labels(b) == expected[1]);  // its position is b's own
}

TEST_CASE("A failed restore changes neither the variables nor the iterator's position") {
  const auto expected = uninterrupted(6);
  temp_dir dir;
  auto a = make_session();
  a.initialize_all();
  initialize(a);
  take(a, 2);
  tf::train::saver saver(saveable, total);
  const auto good = saver.save(a, dir / "good.ckpt");

  // b stands two batches in, its variable at a value of its own.
  auto b = make_session();
  b.initialize_all();
  initialize(b);
  take(b, 1);
  b.run(tf::assign(total, tf::constant<-5.0f>()));
  // After each failure, b's next batch and total are what they were.
  std::size_t batches_read = 1;
  auto unchanged = [&] {
    CHECK(b.run(total) == -5.0f);
    CHECK(next_labels(b) == expected[batches_read]);
    ++batches_read;
  };
  auto copy_of_good = [&](const std::string& name) {
    const auto path = dir / name;
    std::filesystem::copy_file(good, path);
    return path;
  };

  SUBCASE("the iterator's state is missing") {
    const auto path = tf::train::saver(total).save(a, dir / "vars_only.ckpt");
    CHECK_THROWS_WITH_AS(saver.restore(b, path), doctest::Contains("Key ck_iterator_STATE/... not found"),
                         tf::not_found_error);
    unchanged();
  }
  SUBCASE("a variable is missing: the iterator's state, valid, is not restored either") {
    const auto path = tf::train::saver(saveable).save(a, dir / "iterator_only.ckpt");
    CHECK_THROWS_WITH_AS(saver.restore(b, path), doctest::Contains("Key ck_total not found"), tf::not_found_error);
    unchanged();
  }
  SUBCASE("an entry of the wrong dtype") {
    const auto path = copy_of_good("dtype.ckpt");
    const auto key = state_key(path, "slices/index");
    tamper(path, key, [](auto& info, auto& bytes) {
      info.dtype = tf::dtype::int32;
      bytes.resize(4);
    });
    CHECK_THAT_CONTAINS(message_of<tf::invalid_argument_error>([&] { saver.restore(b, path); }), "'" + key + "' is int32 []");
    unchanged();
  }
  SUBCASE("an entry of the wrong shape") {
    const auto path = copy_of_good("shape.ckpt");
    const auto key = state_key(path, "repeat/epoch");
    tamper(path, key, [](auto& info, auto& bytes) {
      info.shape = {2};
      bytes.resize(16);
    });
    CHECK_THAT_CONTAINS(message_of<tf::invalid_argument_error>([&] { saver.restore(b, path); }), "'" + key + "' is int64 [2]");
    unchanged();
  }
  SUBCASE("a position out of range") {
    const auto path = copy_of_good("range.ckpt");
    const auto key = state_key(path, "slices/index");
    tamper(path, key, [](auto&, auto& bytes) {
      const std::int64_t far = 1000;
      std::memcpy(bytes.data(), &far, sizeof far);
    });
    CHECK_THAT_CONTAINS(message_of<tf::invalid_argument_error>([&] { saver.restore(b, path); }), "'" + key + "' is 1000, outside [0, 7]");
    unchanged();
  }
  SUBCASE("the state of another pipeline") {
    auto c = make_session();
    c.initialize_all();
    c.run(init_plain, tf::feed(features, rows(n_rows)), tf::feed(targets, labels(n_rows)));
    const auto path = saver.save(c, dir / "plain.ckpt");
    CHECK_THROWS_WITH_AS(saver.restore(b, path), doctest::Contains("'ck_iterator_STATE/prefetch/"),
                         tf::not_found_error);
    unchanged();
  }
  SUBCASE("a never-initialized iterator cannot be restored (nor saved): FailedPrecondition naming it") {
    auto c = make_session();
    c.initialize_all();
    c.run(tf::assign(total, tf::constant<-5.0f>()));
    CHECK_THROWS_WITH_AS(saver.restore(c, good), doctest::Contains("iterator ck_iterator: it has not been initialized"),
                         tf::failed_precondition_error);
    CHECK(c.run(total) == -5.0f);
    CHECK_THROWS_WITH_AS(saver.save(c, dir / "never.ckpt"), doctest::Contains("iterator ck_iterator"),
                         tf::failed_precondition_error);
    CHECK_FALSE(std::filesystem::exists(dir / "never.ckpt"));
    unchanged();  // b was not involved
  }
  // And the good checkpoint still restores b.
  saver.restore(b, good);
  CHECK(b.run(total) == a.run(total));
  CHECK(next_labels(b) == expected[2]);
}

TEST_CASE("A one-shot iterator: saved once it has started, restored into one that has started") {
  auto table = tf::constant<"ck_table">(xt::xtensor_fixed<std::int32_t, xt::xshape<5>>{5, 6, 7, 8, 9});
  auto once = tf::data::make_one_shot_iterator<"ck_once">(tf::data::from_tensor_slices(table).batch<2>());
  auto sum = tf::reduce_sum(once.get_next());
  tf::train::saver saver(tf::data::make_saveable_from_iterator(once));
  temp_dir dir;
  tf::session a(sum);
  CHECK_THROWS_WITH_AS(saver.save(a, dir / "early.ckpt"), doctest::Contains("iterator ck_once"),
                       tf::failed_precondition_error);
  CHECK(a.run(sum) == 11);  // 5 + 6
  const auto path = saver.save(a, dir / "once.ckpt");

  tf::session b(sum);
  CHECK_THROWS_WITH_AS(saver.restore(b, path), doctest::Contains("iterator ck_once"), tf::failed_precondition_error);
  CHECK(b.run(sum) == 11);  // b's own first batch: the failed restore changed nothing
  CHECK(b.run(sum) == 15);
  saver.restore(b, path);  // back to after the first batch
  CHECK(b.run(sum) == 15);
  CHECK(b.run(sum) == 9);
  CHECK_THROWS_AS(b.run(sum), tf::out_of_range_error);
}
