// Sampling F-curve tracks (contract/RIG.md, "Sampling an F-curve track").
// Times in milliseconds. The Bezier segments solve x(s) = t by 40 bisection
// steps, as the reference runtime does, then return y(s).
#pragma once

#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "riglens/core/rig/rig.h"

namespace riglens::core {

// The track's value at `tMs`. Keys must be in time order.
double sampleKeyframes(std::span<const Keyframe> keys, double tMs, double periodMs, bool looping);

// One (joint index, value) per track of the animation at `tMs`, in track
// order; all tracks share the animation's period and looping flag.
std::vector<std::pair<int, double>> sampleAnimation(const Animation& animation, double tMs);

// One segment of a track as the sampler evaluates it: from key `index` to
// the next key, or (index == n - 1, looping, period > last) the wrap segment
// to a synthetic key at the period holding the first value. For Bezier-shaped
// segments (bezier, ease presets) p1/p2 are the control points the sampler
// uses, auto tangents and the wrap quirk included; for constant and linear
// they are the end points.
struct SegmentShape {
  Interp interp = Interp::Linear;
  double t0 = 0, v0 = 0, t1 = 0, v1 = 0;      // end points (ms, value)
  double p1t = 0, p1v = 0, p2t = 0, p2v = 0;  // inner control points
};
// Number of segments: n - 1, plus the wrap segment when it exists.
std::size_t segmentCount(std::span<const Keyframe> keys, double periodMs, bool looping);
SegmentShape describeSegment(std::span<const Keyframe> keys, std::size_t index, double periodMs, bool looping);

// Every distinct key time of the animation's tracks, sorted (timelines, export).
std::vector<double> animationKeyTimes(const Animation& animation);

}  // namespace riglens::core
