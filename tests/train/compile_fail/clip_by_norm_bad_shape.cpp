// clip_ops_test.py testClipByNormBadShape: a clip norm of shape [2] for t of shape [2, 3, 1].
// TensorFlow raises ValueError; here one compile error names the clip norm's shape.
#include <typeflow/ops/constant.hpp>
#include <typeflow/train/clip.hpp>

int main() {
  auto x = typeflow::constant<"x">(xt::xtensor_fixed<float, xt::xshape<2, 3, 1>>{});
  auto clip = typeflow::constant<"clip">(xt::xtensor_fixed<float, xt::xshape<2>>{1, 2});
  auto clipped = typeflow::clip_by_norm(x, clip);
  (void)clipped;
}
