// bigru_train: the training program of the TensorFlow 1.x save/restore question. Trains the
// bidirectional GRU classifier of model.hpp with Adam at 1e-2 on the synthetic data in
// batches of 32 read through a dataset iterator, printing each batch's loss, exports it
// with simple_save to DIR/export, and leaves its own logits for the probe batch in
// DIR/expected_logits.bin, which bigru_serve (another program) must reproduce bit for bit.
//
// As the question's program, it reads through tf.data: features, labels and lengths fed
// to the iterator's initializer each epoch, batched by a fed batch size, each epoch ending
// on OutOfRange. The model is built twice from one function: on the iterator's batches for
// training, on the placeholders "x" and "seq_len" for serving; the two share their
// variables, so the export serves what was trained. A progress display shows on a terminal.
//
//   bigru_train DIR [--varying-lengths]
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <tuple>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/bind.hpp>
#include <boost/mp11/set.hpp>
#include <xtensor/xview.hpp>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/debug/graph_export.hpp>
#include <typeflow/debug/progress.hpp>
#include <typeflow/saved_model.hpp>
#include <typeflow/train/adam.hpp>

#include "model.hpp"

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

// Whether two graphs hold the same variables: the same variable node types, in any order.
template <class A, class B>
constexpr bool same_variables =
    boost::mp11::mp_size<A>::value == boost::mp11::mp_size<B>::value &&
    boost::mp11::mp_all_of_q<A, boost::mp11::mp_bind_front<boost::mp11::mp_set_contains, B>>::value;

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
  // features_ph, labels_ph, lengths_ph, batch_size_ph = tf.placeholder(...), ...
  // ds = tf.data.Dataset.from_tensor_slices((features_ph, labels_ph, lengths_ph)).batch(batch_size_ph)
  // it = tf.data.Iterator.from_structure(ds.output_types, ds.output_shapes)
  // init = it.make_initializer(ds)
  // xb, yb, lb = it.get_next()
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, tf::dyn, bigru::num_features>>();
  auto labels = tf::placeholder<"labels", float, tf::shape<tf::dyn, bigru::num_classes>>();
  auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<tf::dyn>>();
  auto batch_size = tf::placeholder<"batch_size", std::int64_t>();
  auto ds = tf::data::from_tensor_slices(features, labels, lengths).batch(batch_size);
  auto it = tf::data::iterator_from_structure<"iterator">(ds);
  auto init = it.make_initializer(ds);
  auto [xb, yb, lb] = it.get_next();  // float [?, ?, 30], float [?, 5], int32 [?]

  auto train_logits = bigru::model(xb, lb);  // the serving model's variables, on the batches
  auto loss = tf::reduce_mean(tf::softmax_cross_entropy_with_logits(yb, train_logits));
  auto train_op = tf::train::adam(1e-2).minimize(loss);
  tf::session sess(logits, init, train_op, loss);  // the serving graph first: it keeps "dense/BiasAdd"
  sess.run(tf::global_variables_initializer());
  // [/snippet train]
  static_assert(same_variables<tf::session<decltype(logits)>::variables, tf::session<decltype(train_logits)>::variables>,
                "the training and serving models must read the same variables");

  // [snippet epochs]
  constexpr std::int64_t batch = 32, epochs = 30, steps = epochs * (64 / batch);
  tf::debug::progress display(steps, batch);  // draws on a terminal only
  std::int64_t step = 0;
  float first = 0, last = 0;
  for (std::int64_t epoch = 0; epoch < epochs; ++epoch) {
    // sess.run(init, feed_dict={features_ph: ..., labels_ph: ..., lengths_ph: ..., batch_size_ph: 32})
    sess.run(init, tf::feed(features, data.features), tf::feed(labels, data.labels), tf::feed(lengths, data.lengths),
             tf::feed(batch_size, batch));
    for (std::int64_t b = 0;; ++b) {
      float l = 0;
      try {
        l = std::get<1>(sess.run(tf::fetch(train_op, loss)));
      } catch (const tf::out_of_range_error&) {  // tf.errors.OutOfRangeError: the epoch is over
        break;
      }
      if (step == 0) first = l;
      last = l;
      display.update(++step, l);
      if (!display.active()) std::printf("epoch %2lld batch %lld: loss %.6f\n", (long long)epoch, (long long)b, double(l));
    }
  }
  display.finish();
  // [/snippet epochs]
  if (step != steps) {
    std::fprintf(stderr, "%lld batches read, expected %lld\n", (long long)step, (long long)steps);
    return 1;
  }
  if (!(last < 0.5f * first)) {
    std::fprintf(stderr, "the loss did not fall by half: %f -> %f\n", double(first), double(last));
    return 1;
  }

  // The serving graph's nodes keep their names in the session's graph, which the export
  // describes: serve.cpp finds "dense/BiasAdd:0" there. The training graph's logits come
  // after them, "dense/BiasAdd_1".
  const std::string whole = tf::describe_graph(logits, init, train_op, loss).to_text();
  const std::string serving = tf::describe_graph(logits).to_text();
  for (std::size_t from = 0, to; from < serving.size(); from = to + 1) {
    to = serving.find('\n', from);
    if (whole.find(serving.substr(from, to - from + 1)) == std::string::npos) {
      std::fprintf(stderr, "the serving graph's node %s is not in the session's graph under its name\n",
                   serving.substr(from, to - from).c_str());
      return 1;
    }
  }
  if (whole.find("\ndense/BiasAdd_1 = BiasAdd(") == std::string::npos) {
    std::fprintf(stderr, "the training graph's logits are not dense/BiasAdd_1\n");
    return 1;
  }

  sm::simple_save(sess, dir / "export", sm::inputs<"x", "seq_len">(x, seq_len), sm::outputs<"logits">(logits));

  // The logits the export must give, on the first 8 sequences, through a const session.
  const auto& csess = sess;
  const xt::xtensor<float, 3> probe = xt::view(data.features, xt::range(0, 8), xt::all(), xt::all());
  const xt::xtensor<float, 2> probe_labels = xt::view(data.labels, xt::range(0, 8), xt::all());
  const xt::xtensor<std::int32_t, 1> probe_len = xt::view(data.lengths, xt::range(0, 8));
  const xt::xtensor<float, 2> out = csess.run(logits, tf::feed(x, probe), tf::feed(seq_len, probe_len));
  bigru::write_bytes(dir / "expected_logits.bin", bigru::bytes_of(out));

  // The training graph gives the same logits on the same sequences read through the
  // iterator: it reads the variables the serving graph reads.
  sess.run(init, tf::feed(features, probe), tf::feed(labels, probe_labels), tf::feed(lengths, probe_len),
           tf::feed(batch_size, std::int64_t{8}));
  const xt::xtensor<float, 2> through_iterator = sess.run(train_logits);
  const auto a = bigru::bytes_of(out), b = bigru::bytes_of(through_iterator);
  if (a.size() != b.size() || std::memcmp(a.data(), b.data(), a.size()) != 0) {
    std::fprintf(stderr, "the training graph's logits differ from the serving graph's on the probe sequences\n");
    return 1;
  }
  std::printf("exported %s (%s lengths); logits of 8 probe sequences in %s, the training graph's bit for bit, "
              "first row %.6f %.6f %.6f %.6f %.6f\n",
              (dir / "export").c_str(), varying ? "varying" : "full", (dir / "expected_logits.bin").c_str(),
              double(out(0, 0)), double(out(0, 1)), double(out(0, 2)), double(out(0, 3)), double(out(0, 4)));
  return 0;
}
