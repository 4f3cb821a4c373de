#include "riglens/core/view/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace riglens::core {

void OrbitCamera::frame(const Bounds& bounds, float aspect) {
  m_target = bounds.empty ? glm::vec3(0.0f) : bounds.center();
  const float radius = bounds.radius();
  // The sphere fits the narrower field of view with a 10% margin.
  const float halfV = glm::radians(m_fovDeg) * 0.5f;
  const float halfH = std::atan(std::tan(halfV) * (aspect > 0 ? aspect : 1.0f));
  m_distance = 1.1f * radius / std::sin(std::min(halfV, halfH));
  m_near = std::max(m_distance - 4.0f * radius, m_distance * 0.01f);
  m_far = m_distance + 4.0f * radius;
}

void OrbitCamera::orbit(float dyawDeg, float dpitchDeg) {
  setAngles(m_yawDeg + dyawDeg, m_pitchDeg + dpitchDeg);
}

void OrbitCamera::setAngles(float yawDeg, float pitchDeg) {
  m_yawDeg = std::fmod(yawDeg, 360.0f);
  m_pitchDeg = std::clamp(pitchDeg, -89.0f, 89.0f);
}

void OrbitCamera::pan(float dx, float dy) {
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  const float height = 2.0f * m_distance * std::tan(glm::radians(m_fovDeg) * 0.5f);
  m_target += (-dx * right + dy * up) * height;
}

void OrbitCamera::dolly(float factor) {
  if (factor > 0) {
    m_distance *= factor;
    m_near = std::min(m_near, m_distance * 0.5f);
    m_far = std::max(m_far, m_distance * 4.0f);
  }
}

glm::vec3 OrbitCamera::eye() const {
  const float yaw = glm::radians(m_yawDeg), pitch = glm::radians(m_pitchDeg);
  const glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
  return m_target + dir * m_distance;
}

glm::mat4 OrbitCamera::view() const {
  return glm::lookAt(eye(), m_target, glm::vec3(0, 1, 0));
}

glm::mat4 OrbitCamera::projection(float aspect) const {
  return glm::perspective(glm::radians(m_fovDeg), aspect > 0 ? aspect : 1.0f, m_near, m_far);
}

}  // namespace riglens::core
