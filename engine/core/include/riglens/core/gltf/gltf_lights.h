// A glTF file's KHR_lights_punctual lights, posed: each light at its node's
// world position, pointing down the node's -z (the extension's convention;
// the node's scale does not scale the light).
#pragma once

#include <vector>

#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/view/look.h"

namespace riglens::core {

// The scene's lights in `pose`, in file order, at most kMaxPunctualLights.
std::vector<PunctualLight> gltfPosedLights(const GltfScene& scene, const GltfPose& pose);

}  // namespace riglens::core
