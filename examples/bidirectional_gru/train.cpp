// bigru_train: the training program of the TensorFlow 1.x save/restore question. Trains the
// bidirectional GRU classifier of model.hpp with Adam at 1e-2 on the synthetic data in
// batches of 32, printing each batch's loss, exports it with simple_save to DIR/export, and
// leaves its own logits for the probe batch in DIR/expected_logits.bin, which bigru_serve
// (another program) must reproduce bit for bit.
//
//   bigru_train DIR [--varying-lengths]
#include <cstdio>
#include <filesystem>

#include <xtensor/xview.hpp>

#include <typeflow/saved_model.hpp>
#include <typeflow/train/adam.hpp>

#include "model.hpp"

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

int main(int argc, char** argv) {
  const auto args = bigru::parse_arguments(argc, argv);
  if (!args) return 2;
  const std::filesystem::path dir = args->dir;
  const bool varying = args->varying;
  std::filesystem::create_directories(dir);
  std::filesystem::remove_all(dir / "export");
  std::filesystem::remove(dir / "expected_logits.bin");

  const bigru::dataset data = bigru::make_dataset(varying);
  using bigru::logits, bigru::seq_len, bigru::x;
  // [snippet train]
  auto y = tf::placeholder<"y", float, tf::shape<tf::dyn, bigru::num_classes>>();
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(y, logits));
  auto train_op = tf::train::adam(1e-2).minimize(loss);
  tf::session sess(train_op, loss, logits);
  sess.run(tf::global_variables_initializer());
  // [/snippet train]

  constexpr std::size_t batch = 32, epochs = 30;
  float first = 0, last = 0;
  for (std::size_t epoch = 0; epoch < epochs; ++epoch) {
    for (std::size_t b = 0; b < 64 / batch; ++b) {
      const std::size_t from = b * batch, to = (b + 1) * batch;
      const xt::xtensor<float, 3> xb = xt::view(data.features, xt::range(from, to), xt::all(), xt::all());
      const xt::xtensor<float, 2> yb = xt::view(data.labels, xt::range(from, to), xt::all());
      const xt::xtensor<std::int32_t, 1> lb = xt::view(data.lengths, xt::range(from, to));
      const auto [none, l] = sess.run(tf::fetch(train_op, loss), tf::feed(x, xb), tf::feed(y, yb), tf::feed(seq_len, lb));
      (void)none;
      if (epoch == 0 && b == 0) first = l;
      last = l;
      std::printf("epoch %2zu batch %zu: loss %.6f\n", epoch, b, double(l));
    }
  }
  if (!(last < 0.5f * first)) {
    std::fprintf(stderr, "the loss did not fall by half: %f -> %f\n", double(first), double(last));
    return 1;
  }

  sm::simple_save(sess, dir / "export", sm::inputs<"x", "seq_len">(x, seq_len), sm::outputs<"logits">(logits));

  // The logits the export must give, on the first 8 sequences, through a const session.
  const auto& csess = sess;
  const xt::xtensor<float, 3> probe = xt::view(data.features, xt::range(0, 8), xt::all(), xt::all());
  const xt::xtensor<std::int32_t, 1> probe_len = xt::view(data.lengths, xt::range(0, 8));
  const xt::xtensor<float, 2> out = csess.run(logits, tf::feed(x, probe), tf::feed(seq_len, probe_len));
  bigru::write_bytes(dir / "expected_logits.bin", bigru::bytes_of(out));
  std::printf("exported %s (%s lengths); logits of 8 probe sequences in %s, first row %.6f %.6f %.6f %.6f %.6f\n",
              (dir / "export").c_str(), varying ? "varying" : "full", (dir / "expected_logits.bin").c_str(),
              double(out(0, 0)), double(out(0, 1)), double(out(0, 2)), double(out(0, 3)), double(out(0, 4)));
  return 0;
}
