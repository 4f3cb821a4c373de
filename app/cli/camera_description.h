// The camera a render drew through, as one line a person or another viewer
// can use: `riglens-cli render --print-camera`. tools/bench-render.sh hands
// it to F3D (--camera-position, --camera-focal-point, --camera-view-up,
// --camera-view-angle) so the peer draws the same view, not its own framing.
#pragma once

#include <QtCore/QString>
#include <glm/mat4x4.hpp>

namespace riglens::cli {

// "camera: eye=X,Y,Z target=X,Y,Z up=X,Y,Z fov-y=DEG" for a perspective
// camera, in world units and degrees; `view` and `projection` in OpenGL's
// conventions (core::OrbitCamera, core::CameraView). The target is
// `focusDistance` along the view axis (the orbit's distance; any positive
// length names the same view). An orthographic camera has no fov:
// "camera: eye=... target=... up=... orthographic".
QString describeCamera(const glm::mat4& view, const glm::mat4& projection, float focusDistance);

}  // namespace riglens::cli
