#include "riglens/core/rig/rig_controller.h"

#include <algorithm>
#include <cmath>

#include "riglens/core/rig/fcurve.h"
#include "riglens/core/rig/pose.h"

namespace riglens::core {

std::vector<double> layeredJointValues(const Rig& rig, std::span<const std::optional<double>> caller, double clockMs,
                                       bool autoPlay, int playable, double playTimeMs,
                                       std::optional<bool> playableLooping) {
  const auto& joints = rig.joints();
  std::vector<double> values(joints.size());
  for (std::size_t j = 0; j < joints.size(); ++j)
    values[j] = (j < caller.size() && caller[j]) ? *caller[j] : joints[j].rest;
  // A sampled value that is not finite never reaches the pose: the joint
  // keeps its caller/rest value. (The reference's wrap segment divides by
  // zero for a looping two-key Bezier track; sampling keeps that parity.)
  const auto overlay = [&values](const Animation& anim, double t, bool looping) {
    for (const Track& track : anim.tracks) {
      const double value = sampleKeyframes(track.keyframes, t, anim.periodMs, looping);
      if (std::isfinite(value)) values[track.joint] = value;
    }
  };
  if (autoPlay)
    for (const Animation& anim : rig.animations())
      if (anim.autoPlay) overlay(anim, clockMs, anim.looping);
  if (playable != kNoIndex) {
    const Animation& anim = rig.animations()[playable];
    overlay(anim, playTimeMs, playableLooping.value_or(anim.looping));
  }
  for (std::size_t j = 0; j < joints.size(); ++j) values[j] = clampJointValue(joints[j], values[j]);
  return values;
}

RigController::RigController(const Rig& rig)
    : m_rig(rig), m_caller(rig.joints().size()), m_worlds(rig.parts().size()) {}

Expected<void> RigController::setCaller(std::string_view joint, double value) {
  const int j = m_rig.findJoint(joint);
  if (j == kNoIndex) return makeError(ErrorCode::Usage, "unknown joint '" + std::string(joint) + "'");
  if (m_rig.joints()[j].drive != Drive::Caller)
    return makeError(ErrorCode::Usage, "joint '" + std::string(joint) + "' is driven by animations, not by the caller");
  if (!std::isfinite(value))
    return makeError(ErrorCode::Usage, "joint '" + std::string(joint) + "': value is not finite");
  m_caller[j] = value;
  m_dirty = true;
  return {};
}

void RigController::resetCaller(std::string_view joint) {
  if (const int j = m_rig.findJoint(joint); j != kNoIndex) {
    m_caller[j].reset();
    m_dirty = true;
  }
}

void RigController::resetAllCallers() {
  for (auto& c : m_caller) c.reset();
  m_dirty = true;
}

Expected<void> RigController::play(std::optional<std::string_view> name) {
  if (!name) {
    m_playable = kNoIndex;
  } else {
    const int a = m_rig.findAnimation(*name);
    if (a == kNoIndex) return makeError(ErrorCode::Usage, "unknown animation '" + std::string(*name) + "'");
    m_playable = a;
  }
  m_playTimeMs = 0.0;
  m_dirty = true;
  return {};
}

std::optional<std::string> RigController::playing() const {
  if (m_playable == kNoIndex) return std::nullopt;
  return m_rig.animations()[m_playable].name;
}

bool RigController::playableLooping() const {
  if (m_playable == kNoIndex) return false;
  return m_loopOverride.value_or(m_rig.animations()[m_playable].looping);
}

void RigController::setSpeed(double speed) {
  if (std::isfinite(speed)) m_speed = std::clamp(speed, 0.1, 4.0);
}

bool RigController::finished() const {
  if (m_playable == kNoIndex) return false;
  return !playableLooping() && m_playTimeMs >= m_rig.animations()[m_playable].periodMs;
}

void RigController::seekPlayable(double timeMs) {
  m_playTimeMs = std::max(0.0, timeMs);
  m_dirty = true;
}

void RigController::update(double dtSeconds) {
  if (!(dtSeconds > 0)) return;
  const double dtMs = dtSeconds * 1000.0 * m_speed;
  m_clockMs += dtMs;
  if (m_playable != kNoIndex && !m_paused) {
    const Animation& anim = m_rig.animations()[m_playable];
    m_playTimeMs += dtMs;
    if (playableLooping()) {
      // Keep the clock inside one period (the sampler wraps anyway; this keeps
      // the timeline's time readable).
      if (anim.periodMs > 0) m_playTimeMs = std::fmod(m_playTimeMs, anim.periodMs);
    } else if (m_playTimeMs > anim.periodMs) {
      m_playTimeMs = anim.periodMs;  // a one-shot clip holds its last frame
    }
  }
  m_dirty = true;
}

Expected<JointRange> RigController::jointRange(std::string_view joint) const {
  const int j = m_rig.findJoint(joint);
  if (j == kNoIndex) return makeError(ErrorCode::Usage, "unknown joint '" + std::string(joint) + "'");
  const Joint& spec = m_rig.joints()[j];
  return JointRange{spec.min, spec.max, spec.rest};
}

void RigController::evaluate() {
  if (!m_dirty) return;
  m_values = layeredJointValues(m_rig, m_caller, m_clockMs, m_autoPlay, m_playable, m_playTimeMs,
                                m_playable == kNoIndex ? std::nullopt : std::optional<bool>(playableLooping()));
  poseRig(m_rig, m_values, m_worlds);
  m_dirty = false;
}

const std::vector<double>& RigController::jointValues() {
  evaluate();
  return m_values;
}

const std::vector<glm::mat4>& RigController::partWorlds() {
  evaluate();
  return m_worlds;
}

}  // namespace riglens::core
