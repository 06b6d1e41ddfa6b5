// typeflow/io/json.hpp — a small JSON value, writer and strict reader for the
// human-readable files typeflow writes: a saved model's saved_model.json and the JSON
// checkpoint format (io/checkpoint_format.hpp).
//
// The reader takes text from files it does not trust: nesting is capped (the parser is
// recursive), strings must be valid JSON with \uXXXX escapes of the Basic Multilingual
// Plane, and every size comes from the text itself, never from a length field. Numbers
// are, by default, integers of at most 19 digits (the descriptions hold no fractions);
// json_syntax::numbers = json_numbers::real also reads fractions and exponents (as the
// nearest double), integers up to 2^64 - 1, and NaN, Inf, Infinity, -Inf and -Infinity,
// which the JSON grammar lacks and the checkpoint format spells as rapidjson did. Errors
// name the file and the byte offset.
//
// The parts: io/json/value.hpp (the value), io/json/write.hpp (strings and numbers as
// written), io/json/parse.hpp (the reader).
#pragma once

#include "typeflow/io/json/parse.hpp"
#include "typeflow/io/json/value.hpp"
#include "typeflow/io/json/write.hpp"
