#include "camera_description.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/matrix.hpp>
#include <glm/trigonometric.hpp>

namespace riglens::cli {

namespace {

QString triple(const glm::vec3& v) {
  // 9 significant digits: a float read back from the text is the same float.
  return QStringLiteral("%1,%2,%3").arg(double(v.x), 0, 'g', 9).arg(double(v.y), 0, 'g', 9).arg(double(v.z), 0, 'g', 9);
}

}  // namespace

QString describeCamera(const glm::mat4& view, const glm::mat4& projection, float focusDistance) {
  // The view matrix's inverse is the camera's frame in the world: its
  // columns are right, up, backward and the eye.
  const glm::mat4 frame = glm::inverse(view);
  const glm::vec3 eye(frame[3]);
  const glm::vec3 forward = -glm::normalize(glm::vec3(frame[2]));
  const glm::vec3 up = glm::normalize(glm::vec3(frame[1]));
  QString line = QStringLiteral("camera: eye=%1 target=%2 up=%3")
                     .arg(triple(eye), triple(eye + forward * focusDistance), triple(up));
  // A perspective projection has w = -z (its [2][3] is -1); [1][1] is
  // 1 / tan(fov_y / 2).
  if (projection[2][3] == 0.0f) return line + QStringLiteral(" orthographic");
  const double fovY = glm::degrees(2.0 * std::atan(1.0 / double(projection[1][1])));
  return line + QStringLiteral(" fov-y=%1").arg(fovY, 0, 'g', 9);
}

}  // namespace riglens::cli
