// QA tint colours for voxel rigs, computed on the CPU and handed to the
// renderer: a distinct colour per part, and a colour per moving joint
// (caller joints warm, auto joints cool, parts that nothing moves grey).
// Colours are linear RGB (the renderer encodes to sRGB on output).
#pragma once

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <string_view>
#include <vector>

#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/rig/rig.h"

namespace riglens::core {

enum class TintMode { Color, Part, Joint, Normals, Wireframe, Sockets };
const char* tintModeName(TintMode mode);
bool parseTintMode(std::string_view name, TintMode* mode);

// A highlighted part is drawn with this linear colour mixed in at `.a` (the
// viewer; RigLens.Quick3D adds it as a glow).
inline const glm::vec4 kHighlightColor{1.0f, 0.85f, 0.1f, 0.45f};

// n well-separated colours: golden-ratio hue steps at fixed saturation/value.
std::vector<glm::vec3> distinctColors(std::size_t n);

// Per part, in the rig's part order.
std::vector<glm::vec3> partTints(const Rig& rig);

// Per part: the colour of the joint that moves it (its own last joint, else
// the nearest ancestor's). Caller joints take warm hues, auto joints cool
// ones; a part nothing moves is grey.
std::vector<glm::vec3> jointTints(const Rig& rig);

// A skinned mesh's joint tint, per vertex (rgb): each bone a distinct colour,
// a vertex the blend of its bones' colours by its weights, so the tint shows
// which bones move it and how much (weight painting at a glance).
std::vector<float> boneWeightTints(const SkinData& skin);

// The joint whose colour jointTints gave the part (kNoIndex when none).
int movingJoint(const Rig& rig, int part);

}  // namespace riglens::core
