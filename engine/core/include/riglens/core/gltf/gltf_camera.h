// Looking through a camera a glTF file places (glTF 2.0, 3.10 and its
// "Projection Matrices" section): the view is the inverse of the camera
// node's world matrix (the lens down -z, +y up; scale is dropped, as the
// spec leaves it undefined), the projection is the file's.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "riglens/core/gltf/gltf_scene.h"

namespace riglens::core {

struct CameraView {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};  // OpenGL clip conventions (z in -1..1), as OrbitCamera::projection
  glm::vec3 eye{0.0f};
};

// The camera's view in `pose`. `viewportAspect` (width / height) is used when
// the file gives no aspect ratio; an orthographic camera uses its own xmag
// and ymag.
CameraView gltfCameraView(const GltfCamera& camera, const GltfPose& pose, float viewportAspect);

// The camera named `name`: by its own name first, then by its node's; null when none is.
const GltfCamera* findGltfCamera(const GltfScene& scene, std::string_view name);

}  // namespace riglens::core
