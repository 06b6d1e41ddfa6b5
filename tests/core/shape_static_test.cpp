// Static tests: shapes, numpy broadcasting of static and dynamic dims, and the storage a
// fetch returns. A page of static_asserts: this file fails to compile when a rule breaks.
// Negative cases of rules that are constraints use static_assert(!...).
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

#include <xtensor/xfixed.hpp>
#include <xtensor/xtensor.hpp>

#include <typeflow/typeflow.hpp>

namespace tf = typeflow;
using tf::dyn;
using tf::shape;

// --- shape<...> ------------------------------------------------------------------------
static_assert(tf::shape_type<shape<>>);
static_assert(tf::shape_type<shape<dyn, 784>>);
static_assert(!tf::shape_type<int>);
static_assert(!tf::shape_type<std::array<std::ptrdiff_t, 2>>);
static_assert(std::is_same_v<tf::scalar, shape<>>);

static_assert(shape<>::rank == 0 && shape<>::is_static && shape<>::size == 1);
static_assert(shape<2, 3>::rank == 2 && shape<2, 3>::is_static && shape<2, 3>::size == 6);
static_assert(shape<dyn, 3>::rank == 2 && !shape<dyn, 3>::is_static);
static_assert(shape<4, 0>::size == 0);
static_assert(shape<dyn, 784>::dims[0] == dyn && shape<dyn, 784>::dims[1] == 784);
static_assert(dyn == -1);  // TensorFlow's None, as tf.reshape's -1

// --- element types -----------------------------------------------------------------------
static_assert(tf::element_type<float> && tf::element_type<double> && tf::element_type<bool>);
static_assert(tf::element_type<std::int32_t> && tf::element_type<std::int64_t>);
static_assert(!tf::element_type<char> && !tf::element_type<std::uint32_t>);
static_assert(!tf::element_type<long double> && !tf::element_type<std::int16_t>);
static_assert(tf::floating_element<float> && tf::floating_element<double>);
static_assert(!tf::floating_element<std::int32_t> && !tf::floating_element<bool>);
static_assert(tf::dtype_name_of<float> == "float32" && tf::dtype_name_of<std::int64_t> == "int64");
static_assert(tf::dtype_name_of<bool> == "bool" && tf::dtype_name_of<double> == "float64");

// --- broadcasting: static dims (numpy rules, trailing dims aligned) ------------------------
template <class A, class B, class R>
constexpr bool broadcasts_to =
    tf::broadcast_compatible<A, B> && tf::broadcast_compatible<B, A> &&
    std::is_same_v<tf::broadcast_shape<A, B>, R> && std::is_same_v<tf::broadcast_shape<B, A>, R>;

static_assert(broadcasts_to<shape<2, 3>, shape<2, 3>, shape<2, 3>>);
static_assert(broadcasts_to<shape<>, shape<>, shape<>>);
static_assert(broadcasts_to<shape<>, shape<4, 5>, shape<4, 5>>);          // a scalar broadcasts
static_assert(broadcasts_to<shape<2, 3>, shape<3>, shape<2, 3>>);         // lower rank: leading 1s
static_assert(broadcasts_to<shape<2, 1>, shape<1, 3>, shape<2, 3>>);      // outer product
static_assert(broadcasts_to<shape<2, 1>, shape<3>, shape<2, 3>>);
static_assert(broadcasts_to<shape<5, 1, 4>, shape<3, 1>, shape<5, 3, 4>>);
static_assert(broadcasts_to<shape<1>, shape<7>, shape<7>>);
static_assert(broadcasts_to<shape<1, 1>, shape<1>, shape<1, 1>>);
static_assert(broadcasts_to<shape<0, 3>, shape<3>, shape<0, 3>>);         // empty dims are dims

static_assert(!tf::broadcast_compatible<shape<2, 3>, shape<4>>);
static_assert(!tf::broadcast_compatible<shape<4>, shape<2, 3>>);
static_assert(!tf::broadcast_compatible<shape<2, 3>, shape<3, 2>>);
static_assert(!tf::broadcast_compatible<shape<2>, shape<3>>);
static_assert(!tf::broadcast_compatible<shape<5, 2, 4>, shape<3, 4>>);
static_assert(!tf::broadcast_compatible<shape<0>, shape<2>>);

// --- broadcasting with dynamic dims -----------------------------------------------------
// A dyn dim against a static one takes the static dim (the fed value must be it or 1);
// against 1 or dyn it stays dyn. Whether fed values agree is checked at run time.
static_assert(broadcasts_to<shape<dyn, 3>, shape<3>, shape<dyn, 3>>);
static_assert(broadcasts_to<shape<dyn, 3>, shape<1, 3>, shape<dyn, 3>>);
static_assert(broadcasts_to<shape<dyn>, shape<3>, shape<3>>);
static_assert(broadcasts_to<shape<dyn>, shape<1>, shape<dyn>>);
static_assert(broadcasts_to<shape<dyn>, shape<dyn>, shape<dyn>>);
static_assert(broadcasts_to<shape<dyn>, shape<>, shape<dyn>>);
static_assert(broadcasts_to<shape<dyn, 1>, shape<1, dyn>, shape<dyn, dyn>>);
static_assert(broadcasts_to<shape<dyn, 1>, shape<4>, shape<dyn, 4>>);
static_assert(broadcasts_to<shape<dyn, dyn, 3>, shape<2, 1, 3>, shape<2, dyn, 3>>);
// A dyn dim never makes a static mismatch elsewhere acceptable.
static_assert(!tf::broadcast_compatible<shape<dyn, 3>, shape<4>>);
static_assert(!tf::broadcast_compatible<shape<dyn, 2>, shape<dyn, 3>>);
static_assert(!tf::broadcast_compatible<shape<3, dyn>, shape<2, 1>>);

// --- the storage a fetch returns ------------------------------------------------------
static_assert(std::is_same_v<tf::storage_t<float, shape<>>, float>);
static_assert(std::is_same_v<tf::storage_t<bool, shape<>>, bool>);
static_assert(std::is_same_v<tf::storage_t<float, shape<2, 3>>, xt::xtensor_fixed<float, xt::xshape<2, 3>>>);
static_assert(std::is_same_v<tf::storage_t<std::int64_t, shape<5>>, xt::xtensor_fixed<std::int64_t, xt::xshape<5>>>);
static_assert(std::is_same_v<tf::storage_t<float, shape<dyn, 3>>, xt::xtensor<float, 2>>);
static_assert(std::is_same_v<tf::storage_t<double, shape<4, dyn, 2>>, xt::xtensor<double, 3>>);
static_assert(std::is_same_v<tf::storage_t<bool, shape<dyn>>, xt::xtensor<bool, 1>>);

using x_t = decltype(tf::placeholder<"x", float, shape<dyn, 3>>());
using s_t = decltype(tf::placeholder<"s", std::int32_t>());
static_assert(std::is_same_v<tf::result_t<x_t>, xt::xtensor<float, 2>>);
static_assert(std::is_same_v<tf::result_t<s_t>, std::int32_t>);
static_assert(std::is_same_v<tf::shape_of<x_t>, shape<dyn, 3>>);
static_assert(std::is_same_v<tf::value_type_of<x_t>, float>);
static_assert(std::is_same_v<tf::shape_of<s_t>, tf::scalar>);  // the default shape

TEST_CASE("static shape tests compiled; run-time shape strings agree with the static shapes") {
  CHECK(tf::shape_string<shape<dyn, 784>>() == "[?, 784]");
  CHECK(tf::shape_string<tf::broadcast_shape<shape<2, 1>, shape<1, 3>>>() == "[2, 3]");
  CHECK(tf::shape_string<shape<>>() == "[]");
  CHECK(tf::shape_matches<shape<dyn, 3>>(std::array<std::size_t, 2>{7, 3}));
  CHECK_FALSE(tf::shape_matches<shape<dyn, 3>>(std::array<std::size_t, 2>{7, 4}));
  CHECK_FALSE(tf::shape_matches<shape<dyn, 3>>(std::array<std::size_t, 1>{3}));
}
