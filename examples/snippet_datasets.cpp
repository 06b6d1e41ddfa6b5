// docs/reference/datasets.md: a host-side input pipeline, its iterator saved and restored.
#include <cstdint>
#include <tuple>
#include <vector>

#include <xtensor/xarray.hpp>

#include <typeflow/data/dataset.hpp>

#include "expect.hpp"

int main() {
  // [snippet pipeline]
  namespace td = typeflow::data;
  xt::xarray<float> features = xt::xarray<float>::from_shape({100, 4});  // 100 examples of 4 features
  xt::xarray<std::int32_t> labels = xt::xarray<std::int32_t>::from_shape({100});
  for (std::size_t i = 0; i < 100; ++i) {
    labels(i) = static_cast<std::int32_t>(i % 10);
    for (std::size_t j = 0; j < 4; ++j) features(i, j) = static_cast<float>(i);
  }
  auto dataset = td::from_tensor_slices(features, labels)
                     .shuffle(/*buffer_size=*/100, /*seed=*/7)
                     .batch(32)
                     .prefetch(2);
  auto it = dataset.make_iterator();
  decltype(dataset)::element_type batch;  // std::tuple<xt::xarray<float>, xt::xarray<std::int32_t>>
  int batches = 0;
  while (it.next(batch)) {  // false at the end: TensorFlow's OutOfRangeError
    auto& [x, y] = batch;   // x: [32, 4] (the last batch [4, 4]), y: [32]
    EXPECT(static_cast<int>(x(0, 0)) % 10 == y(0));  // each row keeps its label
    ++batches;
  }
  // [/snippet pipeline]
  EXPECT(batches == 4);

  // [snippet state]
  auto first = dataset.make_iterator();
  first.next(batch);
  td::iterator_state state;  // std::map<std::string, typeflow::tensor>
  first.save(state);         // "iterator/prefetch/batch/shuffle/rng", ...
  auto resumed = dataset.make_iterator();
  resumed.restore(state);    // gives what `first` gives next
  // [/snippet state]
  decltype(batch) a, b;
  int compared = 0;
  while (first.next(a)) {
    EXPECT(resumed.next(b));
    EXPECT(a == b);
    ++compared;
  }
  EXPECT(compared == 3);
  EXPECT(!resumed.next(b));
  EXPECT(state.count("iterator/prefetch/batch/shuffle/rng") == 1);
  return 0;
}
