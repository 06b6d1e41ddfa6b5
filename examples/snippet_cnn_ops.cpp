// The snippets of docs/reference/convolution.md, pooling.md and normalization.md: the
// op-level calls of the convolutional models, each with its shapes and a value checked.
// (The layers are in examples/cnn/.)
#include <cmath>
#include <type_traits>

#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  {
    // [snippet conv_ops]
    auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 28, 28, 1>>();
    auto w1 = tf::variable<"w1", float, tf::shape<5, 5, 1, 32>>(tf::init::glorot_uniform());
    auto w2 = tf::variable<"w2", float, tf::shape<3, 3, 32, 64>>(tf::init::glorot_uniform());
    auto y = tf::conv2d<tf::padding::same>(x, w1);                  // [?, 28, 28, 32]
    auto z = tf::conv2d<tf::strides<2>, tf::padding::same>(y, w2);  // [?, 14, 14, 64]
    auto v = tf::conv2d(y, w2);                                     // VALID: [?, 26, 26, 64]
    static_assert(std::is_same_v<tf::shape_of<decltype(z)>, tf::shape<tf::dyn, 14, 14, 64>>);
    static_assert(std::is_same_v<tf::shape_of<decltype(v)>, tf::shape<tf::dyn, 26, 26, 64>>);

    // depthwise: one [3, 3] filter per input channel and multiplier, C * M outputs
    auto d = tf::variable<"d", float, tf::shape<3, 3, 32, 2>>(tf::init::glorot_uniform());
    auto dw = tf::depthwise_conv2d<tf::padding::same>(y, d);  // [?, 28, 28, 64]
    static_assert(std::is_same_v<tf::shape_of<decltype(dw)>, tf::shape<tf::dyn, 28, 28, 64>>);

    // conv2d_transpose: the output shape is a type; the filter is [kh, kw, out, in]
    auto t = tf::conv2d_transpose<tf::shape<tf::dyn, 28, 28, 32>, tf::strides<2>, tf::padding::same>(z, w2);
    static_assert(std::is_same_v<tf::shape_of<decltype(t)>, tf::shape<tf::dyn, 28, 28, 32>>);
    // [/snippet conv_ops]
    tf::session sess(v, dw, t);
    sess.set_random_seed(1);
    sess.initialize_all();
    const xt::xtensor<float, 4> ones = xt::ones<float>({2, 28, 28, 1});
    const auto [vv, dv, tv] = sess.run(tf::fetch(v, dw, t), tf::feed(x, ones));
    EXPECT(vv.shape()[0] == 2 && vv.shape()[1] == 26 && dv.shape()[3] == 64 && tv.shape()[1] == 28);
  }
  {
    // [snippet pooling]
    auto x = tf::constant<"img">(xt::xtensor_fixed<float, xt::xshape<1, 4, 4, 1>>{
        {{{1}, {2}, {3}, {4}}, {{5}, {6}, {7}, {8}}, {{9}, {10}, {11}, {12}}, {{13}, {14}, {15}, {16}}}});
    auto mx = tf::max_pool<tf::ksize<2>, tf::strides<2>, tf::padding::valid>(x);  // [1, 2, 2, 1]: 6 8 14 16
    auto av = tf::avg_pool<tf::ksize<2>, tf::strides<2>, tf::padding::same>(x);   // 3.5 5.5 11.5 13.5
    auto flat = tf::flatten(mx);                                                  // [1, 4]
    auto biased = tf::bias_add(flat, tf::constant<"b">(xt::xtensor_fixed<float, xt::xshape<4>>{0, 0, 0, 1}));
    auto padded = tf::pad<tf::ints<0, 0>, tf::ints<1, 1>, tf::ints<1, 1>, tf::ints<0, 0>>(mx);  // [1, 4, 4, 1]
    auto bigger = tf::resize_nearest_neighbor<4, 4>(mx);                                      // [1, 4, 4, 1]
    // [/snippet pooling]
    static_assert(std::is_same_v<tf::shape_of<decltype(flat)>, tf::shape<1, 4>>);
    tf::session sess(av, biased, padded, bigger);
    const auto [a, b, p, r] = sess.run(tf::fetch(av, biased, padded, bigger));
    EXPECT(a(0, 0, 0, 0) == 3.5f && a(0, 1, 1, 0) == 13.5f);
    EXPECT(b(0, 0) == 6 && b(0, 1) == 8 && b(0, 2) == 14 && b(0, 3) == 17);
    EXPECT(p(0, 0, 0, 0) == 0 && p(0, 1, 1, 0) == 6 && p(0, 2, 2, 0) == 16 && p(0, 3, 3, 0) == 0);
    EXPECT(r(0, 0, 0, 0) == 6 && r(0, 1, 1, 0) == 6 && r(0, 3, 3, 0) == 16);
  }
  {
    // [snippet normalization]
    auto x = tf::placeholder<"x", double, tf::shape<2, 1, 2, 1>>();
    auto m = tf::moments<0, 1, 2>(x);  // tf.nn.moments(x, [0, 1, 2]): mean and variance per channel
    auto scale = tf::constant<"scale">(xt::xtensor_fixed<double, xt::xshape<1>>{2.0});
    auto offset = tf::constant<"offset">(xt::xtensor_fixed<double, xt::xshape<1>>{1.0});
    auto y = tf::batch_normalization(x, m.mean, m.variance, offset, scale, tf::constant<0.0>());
    auto [fy, batch_mean, batch_variance] = tf::fused_batch_norm(x, scale, offset, tf::constant<0.0>());
    auto dropped = tf::dropout<7>(x, tf::constant<0.5>());  // kept: x / (1 - 0.5), else 0
    // [/snippet normalization]
    tf::session sess(y, fy, batch_mean, batch_variance, dropped);
    sess.initialize_all();
    const xt::xtensor_fixed<double, xt::xshape<2, 1, 2, 1>> xv{{{{1}, {3}}}, {{{5}, {7}}}};  // mean 4, variance 5
    const auto [yv, fv, mv, vv, dv] = sess.run(tf::fetch(y, fy, batch_mean, batch_variance, dropped), tf::feed(x, xv));
    EXPECT(std::abs(yv(0, 0, 0, 0) - (1 + 2 * (1 - 4) / std::sqrt(5.0))) < 1e-12);
    EXPECT(std::abs(fv(1, 0, 1, 0) - yv(1, 0, 1, 0)) < 1e-12);
    EXPECT(mv(0) == 4 && std::abs(vv(0) - 20.0 / 3) < 1e-12);  // Bessel's correction: 20 / (4 - 1)
    for (std::size_t i = 0; i < dv.size(); ++i) EXPECT(dv.flat(i) == 0 || dv.flat(i) == 2 * xv.flat(i));
  }
  return 0;
}
