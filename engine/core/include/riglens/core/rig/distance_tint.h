// The compare overlay's colours: each vertex of the compared version by its
// distance to the same vertex of the other (core/rig/vertex_distances.h), on
// a scale from 0 to `scaleMax` in the runs' length unit. The scale runs blue
// (unmoved) through cyan, green and yellow to red (scaleMax and beyond), the
// ramp distance viewers use (CloudCompare's default); a part whose vertices
// cannot be paired (its topology differs, or only one version has it) is
// grey. The legend draws the same stops (distanceScaleStops). Qt-free.
#pragma once

#include <array>
#include <glm/vec3.hpp>
#include <memory>
#include <vector>

#include "riglens/core/rig/vertex_distances.h"

namespace riglens::core {

// Per part of the run drawn, rgb per vertex (linear); an empty part keeps
// its own colours. What the renderer draws instead of a tint mode.
using VertexTints = std::vector<std::vector<float>>;

struct DistanceStop {
  float at;        // 0..1 along the scale
  glm::vec3 srgb;  // as the legend shows it (sRGB, 0..1)
};
const std::array<DistanceStop, 5>& distanceScaleStops();

// sRGB grey, for vertices no distance is known for.
inline constexpr glm::vec3 kUnpairedSrgb{0.55f, 0.55f, 0.55f};

// The scale's colour at `distance` (clamped to 0..scaleMax), linear RGB.
glm::vec3 distanceColor(float distance, float scaleMax);

// Every part of `b` (`vertexCounts` per part, in B's part order, as the
// renderer's meshes), coloured by `distances`; unpaired parts grey.
VertexTints distanceTints(const std::vector<std::size_t>& vertexCounts, const std::vector<PartDistances>& distances,
                          float scaleMax);

// The largest distance of any paired part (0 when none).
double largestDistance(const std::vector<PartDistances>& distances);

}  // namespace riglens::core
