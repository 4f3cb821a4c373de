// OrbitCamera: the review camera, pure math. It orbits a target at a
// distance (yaw about +y, pitch above the ground plane), pans in the view
// plane, dollies along the view axis, and frames a bounding sphere. The
// defaults are fixed numbers so golden images are stable.
//
// Matrices follow OpenGL conventions (right-handed, clip z in -1..1); the
// renderer applies the backend's clip-space correction.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "riglens/core/base/bounds.h"

namespace riglens::core {

class OrbitCamera {
 public:
  static constexpr float kDefaultYawDeg = 35.0f;
  static constexpr float kDefaultPitchDeg = 25.0f;
  static constexpr float kDefaultFovDeg = 40.0f;

  // Looks at the bounds, far enough to fit them in a view of this aspect
  // (width / height) whichever side is narrower.
  void frame(const Bounds& bounds, float aspect = 1.0f);

  void orbit(float dyawDeg, float dpitchDeg);  // pitch clamped to +-89 deg
  void pan(float dx, float dy);                // in units of the view height at the target
  void dolly(float factor);                    // distance *= factor (> 0)
  void setAngles(float yawDeg, float pitchDeg);

  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::vec3 eye() const;

  float yawDeg() const { return m_yawDeg; }
  float pitchDeg() const { return m_pitchDeg; }
  float distance() const { return m_distance; }
  float fovDeg() const { return m_fovDeg; }
  glm::vec3 target() const { return m_target; }

 private:
  glm::vec3 m_target{0.0f};
  float m_distance = 10.0f;
  float m_yawDeg = kDefaultYawDeg;
  float m_pitchDeg = kDefaultPitchDeg;
  float m_fovDeg = kDefaultFovDeg;
  float m_near = 0.1f, m_far = 1000.0f;
};

}  // namespace riglens::core
