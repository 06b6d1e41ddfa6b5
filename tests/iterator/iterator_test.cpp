// Iterators as graph nodes (data/iterator.hpp), over a dataset written here: batches of
// the numbers 0, 1, ... n-1 (n fed to the initializer), each number i as a feature row
// [i, -i] and a label i.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>

#include <typeflow/data/iterator.hpp>
#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"

namespace tf = typeflow;

namespace {

using counting_spec = tf::data::element_spec<tf::data::component<float, tf::shape<tf::dyn, 2>>,
                                             tf::data::component<std::int32_t, tf::shape<tf::dyn>>>;

struct counting_iterator {
  std::int64_t next_value, end, batch;
  bool next(std::tuple<xt::xarray<float>, xt::xarray<std::int32_t>>& out) {
    if (next_value >= end) return false;
    const auto n = static_cast<std::size_t>(std::min(batch, end - next_value));
    auto& features = std::get<0>(out);
    auto& labels = std::get<1>(out);
    features.resize({n, 2});
    labels.resize({n});
    for (std::size_t i = 0; i < n; ++i) {
      const auto v = next_value + static_cast<std::int64_t>(i);
      features(i, 0) = static_cast<float>(v);
      features(i, 1) = -static_cast<float>(v);
      labels(i) = static_cast<std::int32_t>(v);
    }
    next_value += static_cast<std::int64_t>(n);
    return true;
  }
};

// The graph-level dataset: n from node N, batches of B.
template <class N, std::int64_t B, class Spec = counting_spec>
struct counting_dataset {
  using spec = Spec;
  using inputs = boost::mp11::mp_list<N>;
  N n;
  std::tuple<N> input_nodes() const { return {n}; }
  template <class Ctx>
  static counting_iterator make_iterator(Ctx& ctx) {
    return {0, static_cast<std::int64_t>(ctx.template value<N>()), B};
  }
};

template <std::int64_t B, class N>
counting_dataset<N, B> counting(const N& n) {
  return {n};
}

}  // namespace

TEST_CASE("An initializable iterator gives batches until OutOfRange, one per run") {
  auto n = tf::placeholder<"it_n", std::int64_t, tf::scalar>();
  auto it = tf::data::make_initializable_iterator<"it_counting">(counting<4>(n));
  auto [x, y] = it.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(x)>, tf::shape<tf::dyn, 2>>);
  static_assert(std::is_same_v<tf::value_type_of<decltype(y)>, std::int32_t>);
  auto total = tf::reduce_sum(y);
  tf::session sess(it.initializer(), x, total);

  sess.run(it.initializer(), tf::feed(n, std::int64_t{10}));
  // x and y in one run: one element, not two.
  auto [xv, yv] = sess.run(tf::fetch(x, y));
  CHECK(xv.shape()[0] == 4);
  CHECK(xv(3, 0) == 3.0f);
  CHECK(xv(3, 1) == -3.0f);
  CHECK(yv(0) == 0);
  CHECK(yv(3) == 3);
  CHECK(sess.run(total) == 4 + 5 + 6 + 7);
  const auto last = sess.run(y);  // the partial last batch
  REQUIRE(last.size() == 2);
  CHECK(last(1) == 9);
  CHECK_THROWS_AS(sess.run(total), tf::out_of_range_error);
  CHECK_THROWS_WITH_AS(sess.run(x), doctest::Contains("End of sequence"), tf::out_of_range_error);

  // Running the initializer again starts a new pass, with the value fed now.
  sess.run(it.initializer(), tf::feed(n, std::int64_t{3}));
  CHECK(sess.run(total) == 0 + 1 + 2);
  CHECK_THROWS_AS(sess.run(total), tf::out_of_range_error);
}

TEST_CASE("get_next before the initializer runs is FailedPrecondition, naming the iterator") {
  auto n = tf::placeholder<"it_n", std::int64_t, tf::scalar>();
  auto it = tf::data::make_initializable_iterator<"it_uninitialized">(counting<2>(n));
  auto y = std::get<1>(it.get_next());
  tf::session sess(y, it.initializer());
  CHECK_THROWS_WITH_AS(sess.run(y), doctest::Contains("iterator it_uninitialized has not been initialized"),
                       tf::failed_precondition_error);
}

TEST_CASE("Each session holds its own position") {
  auto n = tf::placeholder<"it_n", std::int64_t, tf::scalar>();
  auto it = tf::data::make_initializable_iterator<"it_shared">(counting<1>(n));
  auto y = std::get<1>(it.get_next());
  auto first = tf::reduce_sum(y);
  tf::session a(first, it.initializer());
  tf::session b(first, it.initializer());
  a.run(it.initializer(), tf::feed(n, std::int64_t{5}));
  b.run(it.initializer(), tf::feed(n, std::int64_t{5}));
  CHECK(a.run(first) == 0);
  CHECK(a.run(first) == 1);
  CHECK(a.run(first) == 2);
  CHECK(b.run(first) == 0);
  CHECK(a.run(first) == 3);
}

TEST_CASE("Iterator.from_structure is initialized from any dataset of its structure") {
  auto n_train = tf::placeholder<"it_n_train", std::int64_t, tf::scalar>();
  auto n_test = tf::placeholder<"it_n_test", std::int64_t, tf::scalar>();
  auto train = counting<4>(n_train);
  auto test = counting<2>(n_test);
  auto it = tf::data::iterator_from_structure<"it_structure">(train);
  auto train_init = it.make_initializer(train);
  auto test_init = it.make_initializer(test);
  auto y = std::get<1>(it.get_next());
  auto count = tf::reduce_sum(tf::ones_like(y));
  tf::session sess(train_init, test_init, count);
  sess.run(train_init, tf::feed(n_train, std::int64_t{8}));
  CHECK(sess.run(count) == 4);
  sess.run(test_init, tf::feed(n_test, std::int64_t{8}));
  CHECK(sess.run(count) == 2);
}

TEST_CASE("A training step at the end of the data changes no variable") {
  auto n = tf::placeholder<"it_n", std::int64_t, tf::scalar>();
  auto it = tf::data::make_initializable_iterator<"it_training">(counting<3>(n));
  auto [x, y] = it.get_next();
  auto seen = tf::variable<"it_seen", float, tf::scalar>(tf::init::zeros());
  auto step = tf::assign_add(seen, tf::reduce_sum(tf::cast<float>(y)) + tf::reduce_sum(x));
  tf::session sess(step, it.initializer());
  sess.initialize_all();
  sess.run(it.initializer(), tf::feed(n, std::int64_t{4}));
  CHECK(sess.run(step) == 3.0f);  // labels 0 + 1 + 2; each row of x sums to 0
  CHECK(sess.run(step) == 6.0f);  // label 3
  CHECK_THROWS_AS(sess.run(step), tf::out_of_range_error);
  CHECK(sess.run(seen) == 6.0f);
}

TEST_CASE("An element whose shape differs from the structure's is InvalidArgument, naming the component") {
  using wrong = tf::data::element_spec<tf::data::component<float, tf::shape<tf::dyn, 3>>,
                                       tf::data::component<std::int32_t, tf::shape<tf::dyn>>>;
  auto n = tf::placeholder<"it_n", std::int64_t, tf::scalar>();
  auto it = tf::data::make_initializable_iterator<"it_wrong">(counting_dataset<decltype(n), 2, wrong>{n});
  auto x = std::get<0>(it.get_next());
  tf::session sess(x, it.initializer());
  sess.run(it.initializer(), tf::feed(n, std::int64_t{4}));
  CHECK_THROWS_WITH_AS(sess.run(x), doctest::Contains("component 0 of shape [2, 2]"), tf::invalid_argument_error);
}

TEST_CASE("A steady pass allocates nothing per batch") {
  auto n = tf::placeholder<"it_n", std::int64_t, tf::scalar>();
  auto it = tf::data::make_initializable_iterator<"it_steady">(counting<8>(n));
  auto [x, y] = it.get_next();
  auto loss = tf::reduce_sum(x) + tf::reduce_sum(tf::cast<float>(y));
  tf::session sess(loss, it.initializer());
  sess.run(it.initializer(), tf::feed(n, std::int64_t{800}));
  float sum = sess.run(loss);
  const long before = typeflow_test::allocation_count();
  for (int i = 1; i < 100; ++i) sum += sess.run(loss);
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(sum == doctest::Approx(799.0 * 800.0 / 2.0));
}
