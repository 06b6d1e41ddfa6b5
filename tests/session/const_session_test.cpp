// A const session runs the paths that change nothing; each run in flight has its own
// buffers, so runs from several threads at once give the single-threaded results.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "../support/allocation_counter.hpp"

namespace tf = typeflow;

namespace {

auto model_x = tf::placeholder<"const_x", float, tf::shape<tf::dyn, 4>>();
auto model_w = tf::variable<"const_w", float, tf::shape<4, 3>>(tf::init::glorot_uniform(7));
auto model_b = tf::variable<"const_b", float, tf::shape<3>>(tf::init::constant(0.5));
auto model_logits = tf::matmul(model_x, model_w) + model_b;
auto model_probs = tf::softmax(model_logits);
auto model_checked = tf::check_numerics<"probs">(model_probs);

xt::xtensor<float, 2> batch(std::size_t rows, float offset) {
  xt::xtensor<float, 2> v = xt::zeros<float>({rows, std::size_t{4}});
  for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = offset + static_cast<float>(i % 11) * 0.25f;
  return v;
}

}  // namespace

TEST_CASE("a const session fetches what a non-const one does") {
  tf::session sess(model_probs, model_checked);
  sess.initialize_all();
  const auto& csess = sess;
  const auto xv = batch(5, 0.0f);
  const xt::xtensor<float, 2> expected = sess.run(model_probs, tf::feed(model_x, xv));
  const xt::xtensor<float, 2> got = csess.run(model_probs, tf::feed(model_x, xv));
  CHECK(got == expected);
  // check_numerics, is_variable_initialized and report_uninitialized_variables change nothing.
  const auto [checked, initialized, uninitialized] =
      csess.run(tf::fetch(model_checked, tf::is_variable_initialized(model_w), tf::report_uninitialized_variables()),
                tf::feed(model_x, xv));
  CHECK(checked == expected);
  CHECK(initialized);
  CHECK(uninitialized.empty());
}

TEST_CASE("a const session reports uninitialized variables and bad feeds like a non-const one") {
  tf::session sess(model_probs);
  const auto& csess = sess;
  CHECK_THROWS_WITH_AS(csess.run(model_probs, tf::feed(model_x, batch(2, 0.0f))),
                       "FailedPrecondition: Attempting to use uninitialized value const_w", tf::failed_precondition_error);
  sess.initialize_all();
  xt::xtensor<float, 2> wrong = xt::zeros<float>({std::size_t{2}, std::size_t{5}});
  CHECK_THROWS_AS(csess.run(model_probs, tf::feed(model_x, wrong)), tf::invalid_argument_error);
}

TEST_CASE("a const session's steady-state run allocates only its result") {
  auto x = tf::placeholder<"const_fixed_x", float, tf::shape<128, 4>>();  // buffers over 1 KB: pooled
  auto y = tf::reduce_sum(tf::tanh(tf::matmul(x, model_w) + model_b));
  tf::session sess(y);
  sess.initialize_all();
  const auto& csess = sess;
  xt::xtensor_fixed<float, xt::xshape<128, 4>> xv;
  xv.fill(0.5f);
  const float first = csess.run(y, tf::feed(x, xv));  // makes the plan's first buffers
  const long before = typeflow_test::allocation_count();
  float last = 0;
  for (int i = 0; i < 100; ++i) last = csess.run(y, tf::feed(x, xv));
  CHECK(typeflow_test::allocation_count() == before);
  CHECK(last == first);
}

TEST_CASE("runs from 8 threads through a const session give the single-threaded results") {
  tf::session sess(model_probs);
  sess.initialize_all();
  const auto& csess = sess;
  constexpr int threads = 8, runs = 200;
  std::vector<xt::xtensor<float, 2>> inputs, expected;
  for (int t = 0; t < threads; ++t) {
    inputs.push_back(batch(static_cast<std::size_t>(3 + t), static_cast<float>(t)));
    expected.push_back(csess.run(model_probs, tf::feed(model_x, inputs.back())));
  }
  std::vector<int> mismatches(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int r = 0; r < runs; ++r) {
        const auto k = static_cast<std::size_t>((t + r) % threads);
        const xt::xtensor<float, 2> got = csess.run(model_probs, tf::feed(model_x, inputs[k]));
        if (!(got == expected[k])) ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK(mismatches[static_cast<std::size_t>(t)] == 0);
}
