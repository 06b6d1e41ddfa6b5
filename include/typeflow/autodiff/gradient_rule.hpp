// typeflow/autodiff/gradient_rule.hpp — the vocabulary of gradient rules now lives in
// core/gradient_rule.hpp, with the rest of the node protocol; this path keeps working.
// typeflow: forwarding header
#pragma once

#include "typeflow/core/gradient_rule.hpp"
