#include "riglens/core/rig/distance_tint.h"

#include <algorithm>
#include <cmath>
#include <glm/common.hpp>

namespace riglens::core {

namespace {

float linearFromSrgb(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

glm::vec3 linearFromSrgb(glm::vec3 c) {
  return {linearFromSrgb(c.x), linearFromSrgb(c.y), linearFromSrgb(c.z)};
}

}  // namespace

const std::array<DistanceStop, 5>& distanceScaleStops() {
  static const std::array<DistanceStop, 5> stops{{{0.00f, {0.0f, 0.0f, 1.0f}},
                                                  {0.25f, {0.0f, 1.0f, 1.0f}},
                                                  {0.50f, {0.0f, 1.0f, 0.0f}},
                                                  {0.75f, {1.0f, 1.0f, 0.0f}},
                                                  {1.00f, {1.0f, 0.0f, 0.0f}}}};
  return stops;
}

// Interpolated in sRGB between the stops, as the legend's gradient is, then
// made linear for the renderer (which encodes to sRGB on output).
glm::vec3 distanceColor(float distance, float scaleMax) {
  const auto& stops = distanceScaleStops();
  const float t = scaleMax > 0.0f && std::isfinite(distance) ? std::clamp(distance / scaleMax, 0.0f, 1.0f)
                  : distance > 0.0f                          ? 1.0f
                                                             : 0.0f;
  std::size_t i = 1;
  while (i + 1 < stops.size() && t > stops[i].at) ++i;
  const DistanceStop& lo = stops[i - 1];
  const DistanceStop& hi = stops[i];
  const float f = (t - lo.at) / (hi.at - lo.at);
  return linearFromSrgb(glm::mix(lo.srgb, hi.srgb, f));
}

VertexTints distanceTints(const std::vector<std::size_t>& vertexCounts, const std::vector<PartDistances>& distances,
                          float scaleMax) {
  VertexTints tints(vertexCounts.size());
  const glm::vec3 grey = linearFromSrgb(kUnpairedSrgb);
  for (std::size_t p = 0; p < vertexCounts.size(); ++p) {
    tints[p].resize(vertexCounts[p] * 3);
    for (std::size_t v = 0; v < vertexCounts[p]; ++v)
      tints[p][3 * v] = grey.x, tints[p][3 * v + 1] = grey.y, tints[p][3 * v + 2] = grey.z;
  }
  for (const PartDistances& part : distances) {
    if (!part.topologyMatches || part.partB < 0 || std::size_t(part.partB) >= tints.size()) continue;
    std::vector<float>& rgb = tints[std::size_t(part.partB)];
    for (std::size_t v = 0; v < part.perVertex.size() && 3 * v + 2 < rgb.size(); ++v) {
      const glm::vec3 c = distanceColor(part.perVertex[v], scaleMax);
      rgb[3 * v] = c.x, rgb[3 * v + 1] = c.y, rgb[3 * v + 2] = c.z;
    }
  }
  return tints;
}

double largestDistance(const std::vector<PartDistances>& distances) {
  double largest = 0.0;
  for (const PartDistances& part : distances)
    if (part.topologyMatches) largest = std::max(largest, part.max);
  return largest;
}

}  // namespace riglens::core
