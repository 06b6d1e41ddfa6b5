// typeflow/saved_model.hpp — saved models: export with signatures, load by tags, run by
// name (tf.saved_model). Not part of typeflow.hpp, like the saver it builds on: it pulls in
// cereal and the checkpoint format, which a program that only trains does not need.
#pragma once

#include "typeflow/core/tensor.hpp"
#include "typeflow/saved_model/builder.hpp"
#include "typeflow/saved_model/description.hpp"
#include "typeflow/saved_model/loader.hpp"
#include "typeflow/saved_model/servable.hpp"
#include "typeflow/saved_model/signature.hpp"
