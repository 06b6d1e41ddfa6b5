// The gradient rules of the convolutions (ops/conv.hpp) against central finite differences
// (tests/autodiff/fd_check.hpp), in double, through loss = reduce_sum(op(x, f) * w) with
// random w: with respect to the input (Conv2DBackpropInput, or conv2d for conv2d_transpose)
// and to the filter (Conv2DBackpropFilter); then the rules of those gradient nodes
// themselves, through reduce_sum(gradient(loss, x) * u) and reduce_sum(gradient(loss, f) * v).
// Strides, SAME and VALID over odd sizes, dilations, the 1x1 gemm path, the Winograd form
// (3x3 at stride 1, 16 channels or more), and dynamic dims.
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include <typeflow/typeflow.hpp>

#include "../autodiff/fd_check.hpp"

namespace tf = typeflow;
using fd_check::check_gradient;
using tf::dyn;
using tf::shape;
using same = tf::padding::same;

namespace {

/// A fetched value with the same shape and fresh uniform values (for w, u, v).
template <class V>
V like(const V& v) {
  return fd_check::fill_uniform(V(v));
}

/// Checks d/dx and d/df of reduce_sum(op(x, f) * w), then the derivatives of those two
/// gradients (second order: the gradient nodes' own rules) with respect to each of their
/// inputs. x0's shape gives x's when SX has dynamic dims.
template <class SX, class SF, class Op>
void check_conv_gradients(Op op, const fd_check::value_t<SX>& x0) {
  auto x = tf::placeholder<"gx", double, SX>();
  auto f = tf::placeholder<"gf", double, SF>();
  auto y = op(x, f);
  using SY = tf::shape_of<decltype(y)>;
  auto w = tf::placeholder<"gw", double, SY>();
  auto loss = tf::reduce_sum(y * w);
  const auto f0 = fd_check::uniform<SF>();
  tf::session sess(loss);
  const fd_check::value_t<SY> w0 = like(fd_check::value_t<SY>(sess.run(y, tf::feed(x, x0), tf::feed(f, f0))));
  {
    INFO("d loss / d x");
    check_gradient(sess, loss, x, x0, tf::feed(f, f0), tf::feed(w, w0));
  }
  {
    INFO("d loss / d filter");
    check_gradient(sess, loss, f, f0, tf::feed(x, x0), tf::feed(w, w0));
  }
  auto u = tf::placeholder<"gu", double, SX>();
  auto v = tf::placeholder<"gv", double, SF>();
  auto loss_x = tf::reduce_sum(tf::gradient(loss, x) * u);
  auto loss_f = tf::reduce_sum(tf::gradient(loss, f) * v);
  const auto u0 = like(x0);
  const auto v0 = fd_check::uniform<SF>();
  {
    INFO("second order: the input gradient's rules, with respect to the filter and to w");
    check_gradient(sess, loss_x, f, f0, tf::feed(x, x0), tf::feed(w, w0), tf::feed(u, u0));
    check_gradient(sess, loss_x, w, w0, tf::feed(x, x0), tf::feed(f, f0), tf::feed(u, u0));
  }
  {
    INFO("second order: the filter gradient's rules, with respect to x and to w");
    check_gradient(sess, loss_f, x, x0, tf::feed(f, f0), tf::feed(w, w0), tf::feed(v, v0));
    check_gradient(sess, loss_f, w, w0, tf::feed(x, x0), tf::feed(f, f0), tf::feed(v, v0));
  }
}

template <class SX, class SF, class Op>
void check_conv_gradients(Op op) {
  check_conv_gradients<SX, SF>(op, fd_check::uniform<SX>());
}

}  // namespace

TEST_CASE("conv2d VALID, stride 1, 3x3 over [2, 5, 4, 2]") {
  check_conv_gradients<shape<2, 5, 4, 2>, shape<3, 3, 2, 3>>([](auto x, auto f) { return tf::conv2d(x, f); });
}

TEST_CASE("conv2d SAME, strides (2, 3), odd sizes (pad split with the extra after)") {
  check_conv_gradients<shape<1, 5, 7, 2>, shape<3, 2, 2, 2>>(
      [](auto x, auto f) { return tf::conv2d<same, tf::strides<2, 3>>(x, f); });
}

TEST_CASE("conv2d VALID with dilations (2, 1), SAME with dilations (1, 2)") {
  check_conv_gradients<shape<1, 6, 5, 2>, shape<2, 3, 2, 2>>(
      [](auto x, auto f) { return tf::conv2d<tf::dilations<2, 1>>(x, f); });
  check_conv_gradients<shape<1, 5, 5, 1>, shape<3, 2, 1, 2>>(
      [](auto x, auto f) { return tf::conv2d<tf::dilations<1, 2>, same, tf::strides<2>>(x, f); });
}

TEST_CASE("conv2d 3x3 stride 1 with 16 channels each way (Winograd's F(4x4, 3x3) form)") {
  // SAME; VALID and larger sizes against the definition in conv_winograd_test.cpp.
  check_conv_gradients<shape<1, 3, 5, 16>, shape<3, 3, 16, 16>>([](auto x, auto f) { return tf::conv2d<same>(x, f); });
}

TEST_CASE("conv2d 1x1 stride 1 (one gemm over the batch)") {
  check_conv_gradients<shape<2, 3, 3, 3>, shape<1, 1, 3, 2>>([](auto x, auto f) { return tf::conv2d<same>(x, f); });
}

TEST_CASE("conv2d with a dynamic batch, and with dynamic height and width") {
  auto x0 = fd_check::fill_uniform(xt::xtensor<double, 4>::from_shape({2, 4, 5, 2}));
  check_conv_gradients<shape<dyn, 4, 5, 2>, shape<2, 2, 2, 2>>(
      [](auto x, auto f) { return tf::conv2d<tf::strides<2>, same>(x, f); }, x0);
  check_conv_gradients<shape<dyn, dyn, dyn, 2>, shape<2, 2, 2, 2>>(
      [](auto x, auto f) { return tf::conv2d<tf::strides<2>>(x, f); }, x0);
}

TEST_CASE("depthwise_conv2d: VALID, and SAME stride 2 with a channel multiplier of 2") {
  check_conv_gradients<shape<2, 4, 4, 2>, shape<2, 3, 2, 1>>([](auto x, auto f) { return tf::depthwise_conv2d(x, f); });
  check_conv_gradients<shape<1, 5, 5, 2>, shape<3, 3, 2, 2>>(
      [](auto x, auto f) { return tf::depthwise_conv2d<same, tf::strides<2>>(x, f); });
  auto x0 = fd_check::fill_uniform(xt::xtensor<double, 4>::from_shape({2, 3, 4, 2}));
  check_conv_gradients<shape<dyn, dyn, dyn, 2>, shape<2, 2, 2, 1>>(
      [](auto x, auto f) { return tf::depthwise_conv2d<tf::dilations<1, 2>>(x, f); }, x0);
}

TEST_CASE("conv2d_transpose: VALID stride 2 and SAME stride 2 to an odd size") {
  check_conv_gradients<shape<1, 2, 2, 3>, shape<3, 3, 2, 3>>(
      [](auto v, auto f) { return tf::conv2d_transpose<shape<1, 5, 5, 2>, tf::strides<2>>(v, f); });
  check_conv_gradients<shape<2, 3, 2, 2>, shape<2, 3, 1, 2>>(
      [](auto v, auto f) { return tf::conv2d_transpose<shape<2, 5, 4, 1>, tf::strides<2>, same>(v, f); });
}

TEST_CASE("Conv2DBackpropFilter takes the forward pass's columns only for the same input bits") {
  // conv_columns_cache: conv2d_forward keeps im2col(x) with a copy of x; the filter gradient
  // uses them when its x equals the copy, and makes its own otherwise (x changed in place).
  namespace d = tf::ops::detail;
  // [2, 5, 4, 3] input, 3x3 filter with 2 outputs, SAME stride 1 (pad 1 before and after).
  const d::conv_geometry g{2, 5, 4, 3, 3, 3, 2, 5, 4, 1, 1, 1, 1, 1, 1};
  std::vector<float> x(g.input_size()), f(g.k() * g.o), y(g.n * g.positions() * g.o), dy(y.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float((i * 7) % 13) - 6.0f;
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = float((i * 5) % 7) - 3.0f;
  for (std::size_t i = 0; i < dy.size(); ++i) dy[i] = float((i * 3) % 11) - 5.0f;
  // The filter gradient by its definition: df[i, j, c, o] = sum over (b, oh, ow) of
  // x[b, oh + i - 1, ow + j - 1, c] dy[b, oh, ow, o], out-of-image taps 0 (exact in float).
  const auto reference = [&] {
    std::vector<float> df(f.size(), 0.0f);
    for (std::size_t b = 0; b < g.n; ++b)
      for (std::size_t oh = 0; oh < g.oh; ++oh)
        for (std::size_t ow = 0; ow < g.ow; ++ow)
          for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j) {
              const auto ih = std::ptrdiff_t(oh + i) - 1, iw = std::ptrdiff_t(ow + j) - 1;
              if (ih < 0 || iw < 0 || ih >= std::ptrdiff_t(g.h) || iw >= std::ptrdiff_t(g.w)) continue;
              for (std::size_t c = 0; c < g.c; ++c)
                for (std::size_t o = 0; o < g.o; ++o)
                  df[((i * 3 + j) * g.c + c) * g.o + o] +=
                      x[((b * g.h + std::size_t(ih)) * g.w + std::size_t(iw)) * g.c + c] *
                      dy[((b * g.oh + oh) * g.ow + ow) * g.o + o];
            }
    return df;
  };
  auto& cache = d::conv_columns_cache<float>::local();
  std::vector<float> df(f.size());
  d::conv2d_forward(g, x.data(), f.data(), y.data());
  CHECK(cache.find(g, x.data()) != nullptr);
  d::conv2d_backprop_filter(g, x.data(), dy.data(), df.data());
  CHECK(df == reference());
  x[17] += 1.0f;  // the same buffer, other values: the kept columns are not x's any more
  CHECK(cache.find(g, x.data()) == nullptr);
  d::conv2d_backprop_filter(g, x.data(), dy.data(), df.data());
  CHECK(df == reference());
  d::conv_geometry other = g;
  other.pad_top = 0;  // another geometry over the same bits: other columns
  CHECK(cache.find(other, x.data()) == nullptr);
}
