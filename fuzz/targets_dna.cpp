// MetaHuman DNA (the behaviour inside an ORL pack, or a .dna on its own):
// read, then evaluated the way the viewer and `character evaluate` do, in
// both control modes and at every LOD, twice per LOD so the PSD snapshot
// reads a previous frame.
#include "fixtures.h"
#include "fuzz_target.h"
#include "riglens/core/dna/dna_reader.h"
#include "riglens/core/dna/dna_rig.h"

namespace riglens::fuzz {

Outcome dna(std::span<const std::uint8_t> input) {
  auto read = core::readDna(input, "head.dna");
  if (!read) return outcomeOf(read);
  auto rig = core::DnaRig::create(std::make_shared<const core::Dna>(std::move(read).value()));
  if (!rig) return outcomeOf(rig);
  core::DnaRig& r = **rig;
  for (std::size_t lod = 0; lod < r.dna().lodCount; ++lod) {
    (void)r.setLod(lod);
    for (float& g : r.guiControls()) g = 0.5f;
    r.mapGuiToRaw();
    r.calculate();
    for (float& v : r.rawControls()) v = 0.75f;
    r.calculate();
  }
  (void)r.problems();
  return outcomeOf(rig);
}

}  // namespace riglens::fuzz
