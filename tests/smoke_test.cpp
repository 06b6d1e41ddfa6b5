// The smallest end-to-end checks: a constant graph, and a placeholder fed at run time.
#include <doctest/doctest.h>

#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

TEST_CASE("2 + 3 evaluates to 5") {
  auto two = typeflow::constant<2>();
  auto three = typeflow::constant<3>();
  auto sum = two + three;
  typeflow::session sess(sum);
  CHECK(sess.run(sum) == 5);
}

TEST_CASE("a fed placeholder with a dynamic dim flows through x * x") {
  auto x = typeflow::placeholder<"x", float, typeflow::shape<typeflow::dyn, 3>>();
  auto square = x * x;
  typeflow::session sess(square);
  const xt::xtensor<float, 2> value{{1, 2, 3}};
  const auto result = sess.run(square, typeflow::feed(x, value));
  REQUIRE(result.dimension() == 2);
  CHECK(result.shape()[0] == 1);
  CHECK(result.shape()[1] == 3);
  CHECK(result(0, 0) == 1.0f);
  CHECK(result(0, 1) == 4.0f);
  CHECK(result(0, 2) == 9.0f);
}
