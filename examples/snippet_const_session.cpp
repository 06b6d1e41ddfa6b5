// docs/reference/session.md: runs through a const session, from several threads at once.
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // [snippet const_session]
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 3>>();
  auto w = tf::variable<"w", float, tf::shape<3, 2>>(tf::init::glorot_uniform(7));
  auto probs = tf::softmax(tf::matmul(x, w));
  auto train = tf::assign_sub(w, tf::constant<0.01f>() * w);

  tf::session sess(probs, train);
  sess.initialize_all();
  const auto& serving = sess;  // inference code gets a const session

  xt::xtensor<float, 2> batch = {{1, 2, 3}, {4, 5, 6}};
  const xt::xtensor<float, 2> expected = serving.run(probs, tf::feed(x, batch));

  std::vector<std::thread> threads;
  std::vector<int> same(4, 0);
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) same[t] += serving.run(probs, tf::feed(x, batch)) == expected;
    });
  for (auto& t : threads) t.join();
  EXPECT(same == std::vector<int>(4, 100));

  // serving.run(train);  // does not compile: train writes w
  sess.run(train);        // updates go through the non-const session
  // [/snippet const_session]
}
