// typeflow/typeflow.hpp — the umbrella header: the whole public library.
#pragma once

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/core/shape.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/ops/activation.hpp"
#include "typeflow/ops/arithmetic.hpp"
#include "typeflow/ops/compare.hpp"
#include "typeflow/ops/constant.hpp"
#include "typeflow/ops/init.hpp"
#include "typeflow/ops/math.hpp"
#include "typeflow/ops/placeholder.hpp"
#include "typeflow/ops/variable.hpp"
#include "typeflow/session/feed.hpp"
#include "typeflow/session/session.hpp"
