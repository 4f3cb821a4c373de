// Tiny DNAs built in code for the DNA tests: a base with named controls,
// joints, channels and maps at one or more LODs, written by our own writer
// (riglens::samples::writeDna) in either container generation and read back
// by the reader under test.
#pragma once

#include <memory>
#include <string>

#include "riglens/core/dna/dna_reader.h"
#include "riglens/core/dna/dna_rig.h"
#include "riglens/samples/dna_writer.h"

namespace riglens::test {

inline core::Dna baseDna(std::size_t gui, std::size_t raw, std::size_t joints, std::size_t channels = 0,
                         std::size_t maps = 0, std::uint16_t lods = 1) {
  core::Dna d;
  d.name = "test";
  d.lodCount = lods;
  d.rotationUnit = 0;
  for (std::size_t i = 0; i < gui; ++i) d.guiControlNames.push_back("CTRL_g" + std::to_string(i) + ".ty");
  for (std::size_t i = 0; i < raw; ++i) d.rawControlNames.push_back("CTRL_expressions.r" + std::to_string(i));
  for (std::size_t i = 0; i < joints; ++i) {
    d.jointNames.push_back("j" + std::to_string(i));
    d.jointParents.push_back(std::uint16_t(i == 0 ? 0 : i - 1));
  }
  d.neutralTranslations.assign(joints * 3, 0.0f);
  d.neutralRotations.assign(joints * 3, 0.0f);
  for (std::size_t i = 0; i < channels; ++i) d.blendShapeNames.push_back("bs" + std::to_string(i));
  for (std::size_t i = 0; i < maps; ++i) d.animatedMapNames.push_back("am" + std::to_string(i));
  for (auto* m : {&d.lodJoints, &d.lodBlendShapes, &d.lodAnimatedMaps, &d.lodMeshes}) {
    m->lods.assign(lods, 0);
    m->indices = {{}};
  }
  d.jointRowCount = std::uint16_t(joints * 9);
  d.blendShapeLods.assign(lods, 0);
  d.animatedMapLods.assign(lods, 0);
  return d;
}

// Blendshape channel i reads control inputs[i], at every LOD.
inline void channelsRead(core::Dna& d, std::vector<std::uint16_t> inputs) {
  d.blendShapeLods.assign(d.lodCount, std::uint16_t(inputs.size()));
  d.blendShapeOutputs.clear();
  for (std::size_t i = 0; i < inputs.size(); ++i) d.blendShapeOutputs.push_back(std::uint16_t(i));
  d.blendShapeInputs = std::move(inputs);
}

inline core::Expected<core::Dna> roundTrip(const core::Dna& d, samples::DnaWriteOptions options = {}) {
  auto bytes = samples::writeDna(d, options);
  if (!bytes) return bytes.error();
  return core::readDna(*bytes, "test.dna");
}

inline core::Expected<std::unique_ptr<core::DnaRig>> rigOf(const core::Dna& d, samples::DnaWriteOptions options = {}) {
  auto read = roundTrip(d, options);
  if (!read) return read.error();
  return core::DnaRig::create(std::make_shared<const core::Dna>(std::move(read).value()));
}

// `d`'s rig with blend shape channels reading controls 2 and 3 (where the
// PSDs and RBF outputs under test write), the first two raw controls set and
// calculated once.
inline core::Expected<std::unique_ptr<core::DnaRig>> rigCalculatedAt(core::Dna& d, float control0, float control1) {
  channelsRead(d, {2, 3});
  auto rig = rigOf(d);
  if (!rig) return rig;
  (*rig)->rawControls()[0] = control0;
  (*rig)->rawControls()[1] = control1;
  (*rig)->calculate();
  return rig;
}

}  // namespace riglens::test
