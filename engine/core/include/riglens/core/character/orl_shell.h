// An ORL bundle's shell branch (eyes, teeth: contract/CHARACTER.md section 3,
// DECODERS.md A10): a branch of at most 4096 vertices that is not the head,
// split into connected pieces, each bound rigidly to the nearest of the eye
// and teeth joints (orlShellBinding). Its rest lies in the rig's space (cm),
// carried there by the head's calibration (the base frame it adopts); a pose
// moves each bound piece by its joint's world(outputs) * inverse(world(rest)).
#pragma once

#include <glm/mat4x4.hpp>
#include <span>
#include <vector>

#include "riglens/core/character/orl_pack.h"
#include "riglens/core/decoded/uv_lift.h"

namespace riglens::core {

struct OrlShell {
  std::vector<float> rest;              // V*3, the rig's space (cm)
  std::vector<int> joint;               // per vertex: the joint it is bound to, -1 (stays at rest)
  std::vector<glm::dmat4> restInverse;  // per joint: inverse(world at rest)
  std::size_t boundVertices() const;
};

// `neutral` in bundle units, taken into the rig's space by the inverse of
// `baseFrame` (the head's calibration, its correction left out).
OrlShell bindOrlShell(const OrlPack& pack, std::span<const float> neutral, std::span<const std::uint32_t> faces,
                      const VertexTransform& baseFrame);

// The shell's vertices (V*3, cm) for the joints' outputs (J*9).
std::vector<float> poseOrlShell(const OrlPack& pack, const OrlShell& shell, std::span<const float> jointOutputs);

}  // namespace riglens::core
