// Sampling F-curve tracks (contract/RIG.md, "Sampling an F-curve track").
// Times in milliseconds. The Bezier segments solve x(s) = t by 40 bisection
// steps, as the reference runtime does, then return y(s).
#pragma once

#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "riglens/core/rig.h"

namespace riglens::core {

// The track's value at `tMs`. Keys must be in time order.
double sampleKeyframes(std::span<const Keyframe> keys, double tMs, double periodMs, bool looping);

// One (joint index, value) per track of the animation at `tMs`, in track
// order; all tracks share the animation's period and looping flag.
std::vector<std::pair<int, double>> sampleAnimation(const Animation& animation, double tMs);

// Every distinct key time of the animation's tracks, sorted (timelines, export).
std::vector<double> animationKeyTimes(const Animation& animation);

}  // namespace riglens::core
