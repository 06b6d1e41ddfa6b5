// typeflow/data/dataset.hpp — tf.data's datasets on the host: sources, transformations,
// iterators that save and restore their position (docs/reference/datasets.md).
#pragma once

#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/batch.hpp"
#include "typeflow/data/dataset/cache.hpp"
#include "typeflow/data/dataset/map.hpp"
#include "typeflow/data/dataset/prefetch.hpp"
#include "typeflow/data/dataset/repeat.hpp"
#include "typeflow/data/dataset/shard.hpp"
#include "typeflow/data/dataset/shuffle.hpp"
#include "typeflow/data/dataset/sources.hpp"
#include "typeflow/data/dataset/state.hpp"
