// docs/input-pipelines.md: datasets of graph nodes, iterators, the end of an epoch.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <tuple>

#include <xtensor/xarray.hpp>
#include <xtensor/xfixed.hpp>

#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/train/saver.hpp>
#include <typeflow/typeflow.hpp>

#include "expect.hpp"

namespace tf = typeflow;

int main() {
  // 10 examples of 3 features; label i for row i.
  xt::xarray<float> features_value = xt::zeros<float>({10, 3});
  xt::xarray<std::int32_t> labels_value = xt::zeros<std::int32_t>({10});
  for (std::size_t i = 0; i < 10; ++i) {
    features_value(i, 0) = static_cast<float>(i);
    labels_value(i) = static_cast<std::int32_t>(i % 2);
  }

  // [snippet initializable]
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 3>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<tf::dyn>>();
  auto batch_size = tf::placeholder<"batch_size", std::int64_t>();

  auto dataset = tf::data::from_tensor_slices(features, labels).batch(batch_size);
  auto iterator = tf::data::make_initializable_iterator<"iterator">(dataset);
  auto [x, y] = iterator.get_next();  // nodes: float [?, 3] and int32 [?]

  auto logits = tf::layers::dense<2, "dense">(x);
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(y, logits));
  auto train_op = tf::train::adam(1e-2).minimize(loss);

  tf::session sess(iterator.initializer(), train_op);
  sess.initialize_all();
  for (int epoch = 0; epoch < 3; ++epoch) {
    sess.run(iterator.initializer(), tf::feed(features, features_value), tf::feed(labels, labels_value),
             tf::feed(batch_size, std::int64_t{4}));
    int batches = 0;
    for (;;) {
      try {
        sess.run(train_op);  // reads one batch
        ++batches;
      } catch (const tf::out_of_range_error&) {  // tf.errors.OutOfRangeError: the epoch is over
        break;
      }
    }
    std::printf("epoch %d: %d batches\n", epoch, batches);  // 4 + 4 + 2 examples
    EXPECT(batches == 3);
  }
  // [/snippet initializable]

  // [snippet static_batches]
  auto shuffled = tf::data::from_tensor_slices(features, labels)
                      .shuffle<100, /*seed*/ 7>()
                      .batch<4>(tf::data::drop_remainder)
                      .repeat();
  auto batches = tf::data::make_initializable_iterator<"batches">(shuffled);
  auto [bx, by] = batches.get_next();
  static_assert(std::is_same_v<tf::shape_of<decltype(bx)>, tf::shape<4, 3>>);  // static batch dim
  // [/snippet static_batches]
  tf::session s2(batches.initializer(), bx, by);
  s2.run(batches.initializer(), tf::feed(features, features_value), tf::feed(labels, labels_value));
  for (int i = 0; i < 5; ++i) EXPECT(s2.run(by).size() == 4);  // repeated: never ends

  const auto dir = std::filesystem::temp_directory_path() / "typeflow-snippet-input-pipelines";
  std::filesystem::create_directories(dir);
  // [snippet saveable]
  auto saveable = tf::data::make_saveable_from_iterator(batches);
  auto label_sum = tf::variable<"label_sum", std::int32_t, tf::scalar>(tf::init::zeros());
  auto step = tf::assign_add(label_sum, tf::reduce_sum(by));
  tf::train::saver saver(saveable, label_sum);  // or tf::train::all_variables_and(saveable)

  tf::session run1(batches.initializer(), step);
  run1.initialize_all();
  run1.run(batches.initializer(), tf::feed(features, features_value), tf::feed(labels, labels_value));
  for (int i = 0; i < 3; ++i) run1.run(step);
  const auto path = saver.save(run1, dir / "model.ckpt", 3);

  tf::session run2(batches.initializer(), step);  // a new process, say
  run2.run(batches.initializer(), tf::feed(features, features_value), tf::feed(labels, labels_value));
  saver.restore(run2, path);  // label_sum and the iterator's position
  for (int i = 0; i < 5; ++i) EXPECT(run2.run(step) == run1.run(step));  // the same batches
  // [/snippet saveable]
  std::filesystem::remove_all(dir);

  // [snippet from_structure]
  auto train_x = tf::placeholder<"train_x", float, tf::shape<tf::dyn, 3>>();
  auto test_x = tf::placeholder<"test_x", float, tf::shape<tf::dyn, 3>>();
  auto train_data = tf::data::from_tensor_slices(train_x).batch<8>();
  auto test_data = tf::data::from_tensor_slices(test_x).batch<8>();
  auto reader = tf::data::iterator_from_structure<"reader">(train_data);
  auto train_init = reader.make_initializer(train_data);
  auto test_init = reader.make_initializer(test_data);
  auto rows = tf::reduce_sum(tf::ones_like(tf::reduce_sum<1>(reader.get_next())));
  // [/snippet from_structure]
  tf::session s3(train_init, test_init, rows);
  s3.run(train_init, tf::feed(train_x, features_value));
  EXPECT(s3.run(rows) == 8.0f);
  s3.run(test_init, tf::feed(test_x, xt::xarray<float>(xt::zeros<float>({3, 3}))));
  EXPECT(s3.run(rows) == 3.0f);

  // [snippet one_shot]
  auto table = tf::constant<"table">(xt::xtensor_fixed<std::int32_t, xt::xshape<5>>{5, 6, 7, 8, 9});
  auto once = tf::data::make_one_shot_iterator<"once">(tf::data::from_tensor_slices(table).batch<2>());
  auto next = tf::reduce_sum(once.get_next());
  tf::session s4(next);
  EXPECT(s4.run(next) == 11);  // 5 + 6
  EXPECT(s4.run(next) == 15);  // 7 + 8
  EXPECT(s4.run(next) == 9);
  // [/snippet one_shot]
  try {
    s4.run(next);
    EXPECT(false);
  } catch (const tf::out_of_range_error& e) {
    std::printf("%s\n", e.what());
  }
  // [snippet map]
  auto images = tf::placeholder<"images", std::int32_t, tf::shape<tf::dyn, 4>>();  // pixels 0..255
  auto digits = tf::placeholder<"digits", std::int32_t, tf::shape<tf::dyn>>();
  auto scaled = tf::data::from_tensor_slices(images, digits).batch<2>().map([](auto image, auto label) {
    return std::tuple{tf::cast<float>(image) / tf::constant<255.0f>(), tf::one_hot<10, float>(label)};
  });
  auto mnist = tf::data::make_initializable_iterator<"mnist">(scaled);
  auto [pixels, one_hot] = mnist.get_next();  // float [?, 4] and float [?, 10]
  tf::session s5(mnist.initializer(), pixels, one_hot);
  s5.run(mnist.initializer(), tf::feed(images, xt::xarray<std::int32_t>{{0, 51, 102, 255}, {255, 0, 0, 0}}),
         tf::feed(digits, xt::xarray<std::int32_t>{7, 3}));
  const auto [pv, ov] = s5.run(tf::fetch(pixels, one_hot));
  EXPECT(pv(0, 1) == 0.2f && pv(1, 0) == 1.0f);
  EXPECT(ov(0, 7) == 1.0f && ov(1, 3) == 1.0f && ov(0, 3) == 0.0f);
  // [/snippet map]

  // [snippet padded_batch]
  auto lengths = tf::placeholder<"lengths", std::int32_t, tf::shape<tf::dyn>>();
  auto sequences = tf::data::from_tensor_slices(lengths)
                       .map([](auto n) { return tf::sequence_mask<tf::dyn, std::int32_t>(n) * n; })  // fill([n], n)
                       .padded_batch<2>();
  auto padded = tf::data::make_initializable_iterator<"padded">(sequences);
  auto batch = padded.get_next();  // int32 [?, ?]
  tf::session s6(padded.initializer(), batch);
  s6.run(padded.initializer(), tf::feed(lengths, xt::xarray<std::int32_t>{1, 3, 2}));
  EXPECT(s6.run(batch) == xt::xarray<std::int32_t>{{1, 0, 0}, {3, 3, 3}});
  EXPECT(s6.run(batch) == xt::xarray<std::int32_t>{{2, 2}});
  // [/snippet padded_batch]

  // [snippet filter]
  auto classes = tf::placeholder<"classes", std::int32_t, tf::shape<tf::dyn>>();
  auto odd = tf::data::from_tensor_slices(classes).filter([](auto y) {  // one scalar bool node
    return tf::not_equal(y - y / tf::constant<std::int32_t{2}>() * tf::constant<std::int32_t{2}>(),
                         tf::constant<std::int32_t{0}>());
  });
  auto odd_it = tf::data::make_initializable_iterator<"odd">(odd);
  auto label = odd_it.get_next();  // int32 scalar
  tf::session s7(odd_it.initializer(), label);
  s7.run(odd_it.initializer(), tf::feed(classes, xt::xarray<std::int32_t>{4, 7, 2, 9}));
  EXPECT(s7.run(label) == 7);
  EXPECT(s7.run(label) == 9);
  // [/snippet filter]

  // [snippet shard]
  auto rank = tf::placeholder<"rank", std::int64_t>();  // fed comm.rank() in a job; comm.size() ranks
  auto share = tf::data::range<10>()
                   .shuffle<10, /*seed, the same on every rank*/ 7>()
                   .shard(tf::constant<std::int64_t{2}>(), rank);
  auto share_it = tf::data::make_initializable_iterator<"share">(share);
  auto element = share_it.get_next();  // int64 scalar
  tf::session s8(share_it.initializer(), element);
  std::int64_t seen = 0;  // a bit per element: the two shares are disjoint and cover the epoch
  for (std::int64_t r = 0; r < 2; ++r) {
    s8.run(share_it.initializer(), tf::feed(rank, r));
    for (int i = 0; i < 5; ++i) seen += std::int64_t{1} << s8.run(element);
  }
  EXPECT(seen == (std::int64_t{1} << 10) - 1);
  // [/snippet shard]
  return 0;
}
