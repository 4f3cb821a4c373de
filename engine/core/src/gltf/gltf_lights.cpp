#include "riglens/core/gltf/gltf_lights.h"

#include <glm/geometric.hpp>

namespace riglens::core {

std::vector<PunctualLight> gltfPosedLights(const GltfScene& scene, const GltfPose& pose) {
  std::vector<PunctualLight> out;
  for (const GltfLight& light : scene.lights) {
    if (out.size() == kMaxPunctualLights) break;
    glm::dmat4 world(1.0);
    if (light.node >= 0 && std::size_t(light.node) < pose.worlds.size()) world = pose.worlds[std::size_t(light.node)];
    PunctualLight posed;
    posed.type = light.type == GltfLight::Type::Directional ? PunctualLight::Type::Directional
                 : light.type == GltfLight::Type::Spot      ? PunctualLight::Type::Spot
                                                            : PunctualLight::Type::Point;
    posed.position = glm::vec3(world[3]);
    const glm::dvec3 forward = -glm::dvec3(world[2]);
    const double length = glm::length(forward);
    posed.direction = length > 0 ? glm::vec3(forward / length) : glm::vec3(0, 0, -1);
    posed.color = glm::vec3(light.color * light.intensity);
    posed.range = float(light.range);
    posed.innerConeAngle = float(light.innerConeAngle);
    posed.outerConeAngle = float(light.outerConeAngle);
    out.push_back(posed);
  }
  return out;
}

}  // namespace riglens::core
