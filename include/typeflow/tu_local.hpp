// typeflow/tu_local.hpp — typeflow local to one translation unit: large graphs compile in
// a third less time.
//
//   #include <typeflow/tu_local.hpp>  // first, before any other typeflow header
//   #include <typeflow/typeflow.hpp>
//
// Included first, this header puts namespace `typeflow` in an unnamed inline namespace of
// the translation unit. Code is written as before (`typeflow::session`, `namespace tf =
// typeflow;`), but every typeflow entity of the unit, and so every graph type and every
// function instantiated with one, has internal linkage. That is what makes it faster: g++
// gives each function of external linkage that it instantiates a COMDAT group named by the
// function's mangled name, whether or not the function is ever emitted, and a function
// named after a graph type has a name as long as the graph (tens of kilobytes in an
// unrolled recurrent network), whose mangling costs time in the square of its length.
// Functions of internal linkage are mangled only when emitted, and most are inlined.
// benchmarks/RESULTS.md, "Compile time: graphs local to a translation unit", has the figures.
//
// What it costs. Each such unit has its own typeflow: its types are not those of another
// unit, so a graph, a session or a typeflow object of this unit cannot be passed to a
// function defined in another unit, and an exception of a typeflow type thrown here is
// caught elsewhere only as its standard base (std::runtime_error, std::logic_error,
// std::exception). Use it in a unit that builds, trains and exports its own models, as a
// training program or a test does. The little typeflow keeps per process is then the
// unit's too: a distributed program's `environment` and communicators belong in one unit
// (distributed/communicator.hpp, `communicator_broke`). Files are the same either way:
// checkpoints and saved models (their node fingerprints included) written by a unit in one
// mode are read by a unit in the other (tests/saved_model/tu_local_test.cpp).
#pragma once

inline namespace {
namespace typeflow {
/// Declared, and true, only in a translation unit that includes <typeflow/tu_local.hpp>.
inline constexpr bool is_tu_local = true;
}  // namespace typeflow
}  // namespace

// When another typeflow header came first, `typeflow` names two namespaces here and this
// line is ambiguous: include <typeflow/tu_local.hpp> before any other typeflow header.
static_assert(typeflow::is_tu_local, "include <typeflow/tu_local.hpp> before any other typeflow header");
