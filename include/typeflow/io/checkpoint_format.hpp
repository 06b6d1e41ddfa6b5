// typeflow/io/checkpoint_format.hpp — the checkpoint file: one archive per checkpoint, in
// portable binary (the default) or JSON (for people to read). This header pulls in the parts:
//
//   io/checkpoint/format.hpp   the format: constants and limits, the header and manifest
//                              types, the checksums, the checks both forms share
//   io/checkpoint/binary.hpp   the portable binary writer and reader
//   io/checkpoint/json.hpp     the JSON writer and reader (on io/json.hpp)
//   io/checkpoint/writer.hpp   write_checkpoint
//   io/checkpoint/reader.hpp   checkpoint_reader, which validates a file before trusting any
//                              size in it; list_tensors, load_all
//
// The byte layout is described in io/checkpoint/format.hpp and docs/reference/checkpoints.md.
#pragma once

#include "typeflow/io/checkpoint/binary.hpp"
#include "typeflow/io/checkpoint/format.hpp"
#include "typeflow/io/checkpoint/json.hpp"
#include "typeflow/io/checkpoint/reader.hpp"
#include "typeflow/io/checkpoint/writer.hpp"
