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

std::vector<double> gltfAnimationKeyTimesMs(const GltfAnimation& animation) {
  std::vector<double> times;
  for (const GltfChannel& c : animation.channels)
    for (double t : c.times) times.push_back(t * 1000.0);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

RigController::RigController(const Rig& rig, const GltfScene* gltf)
    : m_rig(rig),
      m_gltf(gltf && !gltf->nodes.empty() ? gltf : nullptr),
      m_caller(rig.joints().size()),
      m_expressions(m_gltf && m_gltf->vrm ? m_gltf->vrm->expressions.size() : 0),
      m_worlds(rig.parts().size()) {
  evaluate();
}

int RigController::gltfAnimation(int playable) const {
  const int rigClips = int(m_rig.animations().size());
  return playable >= rigClips ? playable - rigClips : kNoIndex;
}

double RigController::periodOf(int playable) const {
  if (playable == kNoIndex) return 0.0;
  const int g = gltfAnimation(playable);
  if (g != kNoIndex) return m_gltf->animations[std::size_t(g)].durationSeconds * 1000.0;
  return m_rig.animations()[std::size_t(playable)].periodMs;
}

bool RigController::loopsByDefault(int playable) const {
  if (playable == kNoIndex) return false;
  return gltfAnimation(playable) != kNoIndex || m_rig.animations()[std::size_t(playable)].looping;
}

std::vector<ClipInfo> RigController::clips() const {
  std::vector<ClipInfo> out;
  for (const Animation& a : m_rig.animations())
    out.push_back({a.name, a.periodMs, a.looping, a.autoPlay, animationKeyTimes(a), int(a.tracks.size()), false});
  if (m_gltf)
    for (const GltfAnimation& a : m_gltf->animations)
      out.push_back(
          {a.name, a.durationSeconds * 1000.0, true, false, gltfAnimationKeyTimesMs(a), int(a.channels.size()), true});
  return out;
}

double RigController::playablePeriodMs() const {
  return periodOf(m_playable);
}

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
    int a = m_rig.findAnimation(*name);
    if (a == kNoIndex && m_gltf) {
      const int g = m_gltf->findAnimation(*name);
      if (g != kGltfNone) a = int(m_rig.animations().size()) + g;
    }
    if (a == kNoIndex) return makeError(ErrorCode::Usage, "unknown animation '" + std::string(*name) + "'");
    m_playable = a;
  }
  m_playTimeMs = 0.0;
  m_dirty = true;
  return {};
}

std::optional<std::string> RigController::playing() const {
  if (m_playable == kNoIndex) return std::nullopt;
  const int g = gltfAnimation(m_playable);
  return g != kNoIndex ? m_gltf->animations[std::size_t(g)].name : m_rig.animations()[m_playable].name;
}

bool RigController::playableLooping() const {
  if (m_playable == kNoIndex) return false;
  return m_loopOverride.value_or(loopsByDefault(m_playable));
}

void RigController::setSpeed(double speed) {
  if (std::isfinite(speed)) m_speed = std::clamp(speed, 0.1, 4.0);
}

bool RigController::finished() const {
  if (m_playable == kNoIndex) return false;
  return !playableLooping() && m_playTimeMs >= periodOf(m_playable);
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
    const double period = periodOf(m_playable);
    m_playTimeMs += dtMs;
    if (playableLooping()) {
      // Keep the clock inside one period (the sampler wraps anyway; this keeps
      // the timeline's time readable).
      if (period > 0) m_playTimeMs = std::fmod(m_playTimeMs, period);
    } else if (m_playTimeMs > period) {
      m_playTimeMs = period;  // a one-shot clip holds its last frame
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

std::vector<std::string> RigController::expressionNames() const {
  std::vector<std::string> names;
  if (m_gltf && m_gltf->vrm)
    for (const VrmExpression& e : m_gltf->vrm->expressions) names.push_back(e.name);
  return names;
}

Expected<void> RigController::setExpression(std::string_view name, double value) {
  const int e = m_gltf && m_gltf->vrm ? m_gltf->vrm->findExpression(name) : -1;
  if (e < 0) return makeError(ErrorCode::Usage, "unknown expression '" + std::string(name) + "'");
  if (!std::isfinite(value))
    return makeError(ErrorCode::Usage, "expression '" + std::string(name) + "': the weight must be a finite number");
  m_expressions[std::size_t(e)] = value;
  m_dirty = true;
  return {};
}

void RigController::resetExpressions() {
  std::fill(m_expressions.begin(), m_expressions.end(), 0.0);
  m_dirty = true;
}

void RigController::evaluate() {
  if (!m_dirty) return;
  const int gltf = gltfAnimation(m_playable);
  const int rigPlayable = gltf == kNoIndex ? m_playable : kNoIndex;
  m_values = layeredJointValues(m_rig, m_caller, m_clockMs, m_autoPlay, rigPlayable, m_playTimeMs,
                                rigPlayable == kNoIndex ? std::nullopt : std::optional<bool>(playableLooping()));
  poseRig(m_rig, m_values, m_worlds);
  if (m_gltf) {
    if (gltf != kNoIndex)
      m_gltfPose = gltfSamplePose(*m_gltf, gltf, m_playTimeMs / 1000.0);
    else if (m_gltfPose.worlds.size() != m_gltf->nodes.size() || m_gltfPosePlayed)
      m_gltfPose = gltfRestPose(*m_gltf);
    m_gltfPosePlayed = gltf != kNoIndex;
    if (m_gltf->vrm) {
      std::vector<double> clamped(m_expressions.size());
      for (std::size_t e = 0; e < clamped.size(); ++e) clamped[e] = std::clamp(m_expressions[e], 0.0, 1.0);
      applyVrmExpressions(*m_gltf->vrm, clamped, m_gltfPose);
    }
  }
  m_dirty = false;
}

RigControllerState RigController::saveState() const {
  RigControllerState state;
  for (std::size_t j = 0; j < m_caller.size(); ++j)
    if (m_caller[j]) state.callerValues.emplace_back(m_rig.joints()[j].name, *m_caller[j]);
  const std::vector<std::string> names = expressionNames();
  for (std::size_t e = 0; e < names.size(); ++e)
    if (m_expressions[e] != 0.0) state.expressions.emplace_back(names[e], m_expressions[e]);
  state.playing = playing();
  state.playTimeMs = m_playTimeMs;
  state.paused = m_paused;
  state.loopOverride = m_loopOverride;
  state.speed = m_speed;
  state.clockMs = m_clockMs;
  state.autoPlay = m_autoPlay;
  return state;
}

std::vector<std::string> RigController::restoreState(const RigControllerState& state) {
  std::vector<std::string> dropped;
  resetAllCallers();
  for (const auto& [joint, value] : state.callerValues)
    if (!setCaller(joint, value)) dropped.push_back(joint);
  resetExpressions();
  for (const auto& [expression, value] : state.expressions)
    if (!setExpression(expression, value)) dropped.push_back(expression);
  if (!state.playing || !play(*state.playing)) {
    if (state.playing) dropped.push_back(*state.playing);
    m_playable = kNoIndex;
  }
  if (m_playable != kNoIndex) seekPlayable(std::min(state.playTimeMs, periodOf(m_playable)));
  m_paused = state.paused;
  m_loopOverride = state.loopOverride;
  setSpeed(state.speed);
  m_clockMs = state.clockMs;
  m_autoPlay = state.autoPlay;
  m_dirty = true;
  return dropped;
}

}  // namespace riglens::core
