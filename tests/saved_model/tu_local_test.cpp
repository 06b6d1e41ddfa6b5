// <typeflow/tu_local.hpp>: a translation unit that includes it (tu_local_unit.cpp) has its
// own typeflow, and agrees with one that does not (this one) on every file: the same model's
// node fingerprints are equal, and a saved model exported by either is loaded, with its
// typed signature, by the other.
#include <doctest/doctest.h>

#include <typeinfo>

#include "../support/checkpoint_testing.hpp"
#include "tu_local_model.hpp"
#include "tu_local_units.hpp"

namespace tf = typeflow;
namespace sm = typeflow::saved_model;

TEST_CASE("a unit that includes tu_local.hpp has its own typeflow, of internal linkage") {
  CHECK(tu_local_unit::is_tu_local());
  auto [x, y, probs, loss, serving] = tu_local_model::build();
  const std::string here = typeid(probs).name(), there = tu_local_unit::probs_type_name();
  CHECK(here.starts_with("N8typeflow"));
#if defined(__clang__)
  // clang 19 leaves the unnamed inline namespace out of mangled names (its entities still
  // have internal linkage): both units spell the type alike, and fingerprints agree as is.
  CHECK(there == here);
#else
  // g++ spells it: (anonymous namespace)::typeflow, which the fingerprints take out.
  CHECK(there.starts_with("N12_GLOBAL__N_18typeflow"));
  CHECK(here != there);
#endif
}

TEST_CASE("both units give every node of the same model the same fingerprint") {
  const auto here = tu_local_model::fingerprints(), there = tu_local_unit::fingerprints();
  CHECK(here.size() > 20);  // the loop, dense, softmax, the loss, Adam's updates
  CHECK(here == there);
}

TEST_CASE("the spelling of a tu_local name as a default unit's: substitutions one candidate back") {
  using sm::detail::default_linkage_spelling;
  CHECK(default_linkage_spelling("N12_GLOBAL__N_18typeflow4nodeIS0_EE") == "N8typeflow4nodeIS_EE");
  CHECK(default_linkage_spelling("N12_GLOBAL__N_18typeflow1aIS10_S1_SA_EE") == "N8typeflow1aISZ_S0_S9_EE");
  // Source names, builtin literals, arrays and template parameters are copied as they are.
  CHECK(default_linkage_spelling("N12_GLOBAL__N_18typeflow5S1_abIXtlA2_cLc83ELc48EEET0_EE") ==
        "N8typeflow5S1_abIXtlA2_cLc83ELc48EEET0_EE");
  CHECK(default_linkage_spelling("*N12_GLOBAL__N_18typeflow1aE") == "N8typeflow1aE");
  // A name of another namespace is left as it is.
  CHECK(default_linkage_spelling("N3foo1aIS0_EE") == "N3foo1aIS0_EE");
}

TEST_CASE("a saved model exported by a tu_local unit is loaded by a default one, and back") {
  ckpt_testing::temp_dir tmp;
  SUBCASE("exported there, loaded here") {
    const auto expected = tu_local_unit::train_and_export(tmp.path / "export");
    REQUIRE(expected.size() == 4);
    CHECK(tu_local_model::load_and_run(tmp.path / "export") == expected);
  }
  SUBCASE("exported here, loaded there") {
    const auto expected = tu_local_model::train_and_export(tmp.path / "export", 11, 3);
    REQUIRE(expected.size() == 4);
    CHECK(tu_local_unit::load_and_run(tmp.path / "export") == expected);
  }
}
