// Reads Fashion-MNIST's gzip test labels (Debian's dataset-fashion-mnist) through the
// installed typeflow::data target, which links zlib: returns 0 when there are 10,000 of them.
#include <typeflow/data/readers/idx.hpp>

int main() {
  const auto labels = typeflow::data::read_idx<std::int32_t>("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz");
  return labels.dimension() == 1 && labels.shape()[0] == 10000 ? 0 : 1;
}
