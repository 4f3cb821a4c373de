#include "riglens/core/gltf/gltf_camera.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/matrix.hpp>

namespace riglens::core {

namespace {

// The glTF projection matrices, written out as the specification's
// "Projection Matrices" section gives them (column-major).
glm::dmat4 perspective(double yfov, double aspect, double znear, double zfar) {
  const double t = std::tan(0.5 * yfov);
  glm::dmat4 p(0.0);
  p[0][0] = 1.0 / (aspect * t);
  p[1][1] = 1.0 / t;
  p[2][3] = -1.0;
  if (zfar > 0) {  // finite
    p[2][2] = (zfar + znear) / (znear - zfar);
    p[3][2] = 2.0 * zfar * znear / (znear - zfar);
  } else {  // infinite
    p[2][2] = -1.0;
    p[3][2] = -2.0 * znear;
  }
  return p;
}

glm::dmat4 orthographic(double xmag, double ymag, double znear, double zfar) {
  glm::dmat4 p(1.0);
  p[0][0] = 1.0 / xmag;
  p[1][1] = 1.0 / ymag;
  p[2][2] = 2.0 / (znear - zfar);
  p[3][2] = (zfar + znear) / (znear - zfar);
  return p;
}

}  // namespace

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
  out.projection = glm::mat4(camera.perspective ? perspective(camera.yfov, aspect, camera.znear, camera.zfar)
                                                : orthographic(camera.xmag, camera.ymag, camera.znear, camera.zfar));
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
