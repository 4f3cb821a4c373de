// RigController: the seed's VoxelRig semantics without a renderer.
//
// Per frame (contract/RIG.md, "Layering"): start from rest; caller joints take
// the values set with setCaller; every autoPlay animation, on its own clock,
// overlays the joints its tracks drive; the one playable animation now playing
// overlays its joints; values are clamped at the end. A non-looping playable
// holds its last frame and reports finished.
//
// A model with its own glTF node tree (a .glb or .gltf opened by itself)
// also plays the file's animations: they follow the rig's in clips(), play,
// loop, pause, seek and change speed like them, and pose the file's nodes
// (gltfPose) instead of rig joints. glTF clips loop unless told otherwise, as
// glTF viewers play them.
//
// Single-threaded: the app keeps one per open rig on the GUI thread and hands
// the resulting part worlds to the renderer.
#pragma once

#include <glm/mat4x4.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/rig/rig.h"

namespace riglens::core {

struct JointRange {
  double min = 0.0, max = 0.0, rest = 0.0;
};

// A clip the controller can play: the rig's animations, then the glTF file's.
struct ClipInfo {
  std::string name;
  double periodMs = 0.0;
  bool looping = false;
  bool autoPlay = false;
  std::vector<double> keyTimesMs;  // every distinct key time, sorted
  int tracks = 0;                  // rig tracks, or glTF channels
  bool gltf = false;
};

// Every key time of a glTF animation's channels, in milliseconds, sorted and distinct.
std::vector<double> gltfAnimationKeyTimesMs(const GltfAnimation& animation);

// What a user set on a controller, by name: carried from one load of a
// document to the next (live reload) so a rewritten file keeps the joint
// values, clip, time and speed that still apply to it.
struct RigControllerState {
  std::vector<std::pair<std::string, double>> callerValues;  // only joints the caller set
  std::vector<std::pair<std::string, double>> expressions;   // VRM weights that are not 0
  std::optional<std::string> playing;
  double playTimeMs = 0.0;
  bool paused = false;
  std::optional<bool> loopOverride;
  double speed = 1.0;
  double clockMs = 0.0;
  bool autoPlay = true;
};

class RigController {
 public:
  // `rig` and `gltf` (null: none) must outlive the controller.
  explicit RigController(const Rig& rig, const GltfScene* gltf = nullptr);

  // Sets a caller joint's value (clamped on use). An unknown name, an auto
  // joint (driven by animations alone) or a non-finite value is refused with
  // ErrorCode::Usage and changes nothing.
  Expected<void> setCaller(std::string_view joint, double value);
  void resetCaller(std::string_view joint);
  void resetAllCallers();

  // A VRM avatar's expressions (gltf/vrm.h; none for another file), in the
  // file's order: each a weight, 0 (neutral) to 1, clamped on use, that
  // drives the morph targets it binds over whatever the clip or the rest
  // pose gave them, as three-vrm evaluates them. An unknown name or a
  // non-finite value is refused with ErrorCode::Usage.
  std::vector<std::string> expressionNames() const;
  Expected<void> setExpression(std::string_view name, double value);
  const std::vector<double>& expressionValues() const { return m_expressions; }
  void resetExpressions();
  // Starts the playable `name` at 0 (a rig animation, else a glTF one), or
  // stops it (nullopt). Unknown: Usage.
  Expected<void> play(std::optional<std::string_view> name);
  std::optional<std::string> playing() const;
  std::vector<ClipInfo> clips() const;
  double playablePeriodMs() const;  // 0 when nothing plays
  bool finished() const;            // the playable is non-looping and past its end
  double playableTimeMs() const { return m_playTimeMs; }
  void seekPlayable(double timeMs);
  // Pausing freezes the playable's clock (autoPlay idles keep running).
  void setPaused(bool paused) { m_paused = paused; }
  bool paused() const { return m_paused; }
  // Overrides the playable's looping flag (the review UI's loop toggle);
  // nullopt uses the clip's own.
  void setLoopOverride(std::optional<bool> loop) {
    m_loopOverride = loop;
    m_dirty = true;
  }
  bool playableLooping() const;
  // Playback speed multiplier for update(), clamped to 0.1..4.
  void setSpeed(double speed);
  double speed() const { return m_speed; }

  // Autoplay layers run by default; muting freezes them out of the pose.
  void setAutoPlayEnabled(bool enabled) {
    m_autoPlay = enabled;
    m_dirty = true;
  }
  bool autoPlayEnabled() const { return m_autoPlay; }
  double clockMs() const { return m_clockMs; }
  void setClockMs(double ms) {
    m_clockMs = ms;
    m_dirty = true;
  }

  // Advances the autoplay clock and the playable by dt seconds (>= 0).
  void update(double dtSeconds);

  // The caller's settings by name, and their restoration onto another load
  // of the document: joints, expressions and clips that no longer exist (or
  // joints that became auto) are dropped, a time past the clip's new end is
  // clamped to it. Returns the names that were dropped.
  RigControllerState saveState() const;
  std::vector<std::string> restoreState(const RigControllerState& state);

  std::vector<std::string> jointNames(Drive drive) const { return m_rig.jointNames(drive); }
  Expected<JointRange> jointRange(std::string_view joint) const;

  // Poses the rig as the calls since the last evaluation left it (joint
  // values layered and clamped, part worlds, the glTF file's nodes). Cheap
  // when nothing changed. The getters below read the last evaluation, so a
  // caller that changes the controller evaluates before it reads; the
  // constructor evaluates the rest pose.
  void evaluate();
  bool evaluated() const { return !m_dirty; }  // nothing changed since the last evaluate()

  // The layered, clamped value of every joint, and each part's world matrix.
  const std::vector<double>& jointValues() const { return m_values; }
  const std::vector<glm::mat4>& partWorlds() const { return m_worlds; }
  // The glTF file's nodes: its clip playing, else its rest pose (null without a glTF scene).
  const GltfPose* gltfPose() const { return m_gltf ? &m_gltfPose : nullptr; }

  const Rig& rig() const { return m_rig; }

 private:
  // Playables index the rig's animations, then the glTF file's.
  int gltfAnimation(int playable) const;  // kNoIndex for a rig animation
  double periodOf(int playable) const;
  bool loopsByDefault(int playable) const;

  const Rig& m_rig;
  const GltfScene* m_gltf = nullptr;
  GltfPose m_gltfPose;
  bool m_gltfPosePlayed = false;  // m_gltfPose is a clip's, not the rest pose
  std::vector<std::optional<double>> m_caller;
  std::vector<double> m_expressions;  // per VRM expression
  int m_playable = kNoIndex;
  double m_playTimeMs = 0.0;
  bool m_paused = false;
  std::optional<bool> m_loopOverride;
  double m_speed = 1.0;
  double m_clockMs = 0.0;
  bool m_autoPlay = true;
  bool m_dirty = true;
  std::vector<double> m_values;
  std::vector<glm::mat4> m_worlds;
};

// The values of every joint at a clock, as `riglens-cli pose` computes them:
// caller values, autoPlay animations at `clockMs`, and the playable (if any)
// started at 0 and sampled at `clockMs`.
// `playableLooping` overrides the playable clip's own looping flag.
std::vector<double> layeredJointValues(const Rig& rig, std::span<const std::optional<double>> caller, double clockMs,
                                       bool autoPlay, int playable, double playTimeMs,
                                       std::optional<bool> playableLooping = std::nullopt);

}  // namespace riglens::core
