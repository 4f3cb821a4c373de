#include "riglens/core/gltf/gltf_camera.h"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/matrix.hpp>

namespace riglens::core {

CameraView gltfCameraView(const GltfCamera& camera, const GltfPose& pose, float viewportAspect) {
  glm::dmat4 world(1.0);
  if (camera.node >= 0 && std::size_t(camera.node) < pose.worlds.size()) world = pose.worlds[std::size_t(camera.node)];
  // The rigid part of the node's world: its axes normalised.
  for (int c = 0; c < 3; ++c) {
    const double length = glm::length(glm::dvec3(world[c]));
    if (length > 0) world[c] /= length;
  }
  CameraView out;
  out.view = glm::mat4(glm::inverse(world));
  out.eye = glm::vec3(world[3]);
  const double aspect = camera.aspectRatio > 0 ? camera.aspectRatio : double(viewportAspect);
  // glm's matrices are the specification's "Projection Matrices", element for element.
  if (!camera.perspective)
    out.projection =
        glm::mat4(glm::ortho(-camera.xmag, camera.xmag, -camera.ymag, camera.ymag, camera.znear, camera.zfar));
  else if (camera.zfar > 0)
    out.projection = glm::mat4(glm::perspective(camera.yfov, aspect, camera.znear, camera.zfar));
  else
    out.projection = glm::mat4(glm::infinitePerspective(camera.yfov, aspect, camera.znear));
  return out;
}

const GltfCamera* findGltfCamera(const GltfScene& scene, std::string_view name) {
  for (const GltfCamera& camera : scene.cameras)
    if (camera.name == name) return &camera;
  for (const GltfCamera& camera : scene.cameras)  // then by the node that places it
    if (camera.node >= 0 && std::size_t(camera.node) < scene.nodes.size() &&
        scene.nodes[std::size_t(camera.node)].name == name)
      return &camera;
  return nullptr;
}

}  // namespace riglens::core
