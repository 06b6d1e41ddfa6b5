// typeflow/core/scope.hpp — the old path of ops/scope.hpp (name scopes).
// typeflow: forwarding header
//
// A name scope makes placeholders, variables and constants, so it lives with them in ops/;
// this path keeps working.
#pragma once

#include "typeflow/ops/scope.hpp"
