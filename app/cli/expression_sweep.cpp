#include "expression_sweep.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "riglens/core/character/bundle.h"
#include "riglens/core/character/orl_character.h"
#include "riglens/core/dna/dna.h"

namespace riglens::cli {

namespace {

// The gaze segment: the viewer drives it from its Gaze section, not sliders.
constexpr const char* kGazeSegment = "gaze";

// A GNM coefficient of 1 is one of the basis's own shapes at full weight.
constexpr float kGnmPeak = 1.0f;

float orlPeak(const core::Dna& dna, core::DnaControlMode mode, std::size_t control) {
  if (mode == core::DnaControlMode::Raw) return 1.0f;
  const auto [lo, hi] = dna.guiRange(control);
  return std::abs(hi) >= std::abs(lo) ? hi : lo;
}

}  // namespace

std::vector<float> ExpressionSweep::at(std::span<const float> rest, int frame) const {
  std::vector<float> rig(rest.begin(), rest.end());
  if (channels.empty() || frame < 0 || frame >= frames()) return rig;
  const Channel& c = channels[std::size_t(frame / framesPerChannel)];
  const double phase = std::sin(std::numbers::pi * double(frame % framesPerChannel) / double(framesPerChannel));
  if (c.slot < rig.size()) rig[c.slot] = float(double(c.peak) * phase);
  return rig;
}

ExpressionSweep expressionSweep(const core::CharacterScene& scene, std::size_t rigSize, int framesPerChannel) {
  ExpressionSweep sweep;
  sweep.framesPerChannel = framesPerChannel;
  if (scene.orl) {
    const core::Dna& dna = *scene.orl->dna;
    const core::OrlControlMap* map = scene.bundle ? &scene.bundle->orlControls : nullptr;
    for (std::size_t i = 0; i < rigSize; ++i) {
      if (map && (i >= map->dnaIndex.size() || map->dnaIndex[i] < 0)) continue;  // a control the DNA ignores
      const std::size_t control = map ? std::size_t(map->dnaIndex[i]) : i;
      sweep.channels.push_back({i, orlPeak(dna, map ? map->mode : core::DnaControlMode::Gui, control)});
    }
    return sweep;
  }
  const float peak = float(std::min<double>(kGnmPeak, scene.rigRangeHi));
  for (const auto& segment : scene.expression.segments) {
    if (segment.name == kGazeSegment) continue;
    for (int i = segment.start; i < segment.start + segment.count && std::size_t(i) < rigSize; ++i)
      sweep.channels.push_back({std::size_t(i), peak});
  }
  if (scene.expression.segments.empty())
    for (std::size_t i = 0; i < rigSize; ++i) sweep.channels.push_back({i, peak});
  return sweep;
}

}  // namespace riglens::cli
