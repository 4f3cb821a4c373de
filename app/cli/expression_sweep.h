// `render --sweep`: a character's expression channels one after another,
// each from rest up to its peak and back over a fixed number of frames,
// the way an animator checks every shape of a face.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "riglens/core/character/character_scene.h"

namespace riglens::cli {

struct ExpressionSweep {
  struct Channel {
    std::size_t slot;  // its value in the rig vector (GNM head_ext, ORL controls, a bundle's rig)
    float peak;        // the value it reaches halfway through its frames
  };
  std::vector<Channel> channels;
  int framesPerChannel = 12;

  int frames() const { return int(channels.size()) * framesPerChannel; }
  // `rest` with frame `frame`'s channel at its value: peak * sin(pi k / framesPerChannel).
  std::vector<float> at(std::span<const float> rest, int frame) const;
};

// The channels a scene's rig vector of `rigSize` values sweeps: GNM, every
// expression the viewer's sliders list (its segments but gaze), to 1 or the
// rig range's top if lower; ORL, every DNA control the rig drives (a
// bundle's controls through its map to the DNA), to the end of its range
// farthest from 0 (1 for raw controls).
ExpressionSweep expressionSweep(const core::CharacterScene& scene, std::size_t rigSize, int framesPerChannel);

}  // namespace riglens::cli
