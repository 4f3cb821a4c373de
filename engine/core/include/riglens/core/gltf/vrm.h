// A VRM avatar's own data, read from the glTF it is (a .vrm is a GLB):
// VRM 0.x keeps it in the file's `extensions.VRM`, VRM 1.0 in
// `extensions.VRMC_vrm` (and MToon in each material's VRMC_materials_mtoon).
//
// Expressions (0.x: blendShapeMaster.blendShapeGroups; 1.0: expressions'
// preset and custom maps) drive morph targets by weighted binds. They are
// evaluated as @pixiv/three-vrm, the reference runtime, evaluates them
// (VRMExpressionManager.update): every target any expression binds is
// cleared, then each expression adds weight x bind weight to its targets;
// a binary expression's weight is 0 up to 0.5 and 1 above; an expression
// that overrides blink, look-at or mouth expressions scales theirs down by
// its own weight ("blend") or to 0 while it shows ("block").
//
// VRM 0.x binds name a mesh (every node drawing it follows) with weights
// 0..100; VRM 1.0 binds name a node, weights 0..1. Both become node binds
// 0..1 here. 0.x preset names are given their 1.0 names, as three-vrm does
// (joy -> happy, a -> aa, ...); an "unknown" preset keeps the group's name.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace riglens::core {

struct GltfPose;

struct VrmMorphBind {
  int node = -1;   // its morph weights are the target's
  int target = 0;  // morph target index
  double weight = 1.0;
};

enum class VrmOverride { None, Block, Blend };

struct VrmExpression {
  std::string name;     // the channel's name (a 1.0 preset name, else the file's)
  bool preset = false;  // one of VRM's presets (happy, aa, blink, ...)
  bool binary = false;
  VrmOverride overrideBlink = VrmOverride::None, overrideLookAt = VrmOverride::None, overrideMouth = VrmOverride::None;
  std::vector<VrmMorphBind> binds;
};

struct VrmHumanBone {
  std::string bone;  // VRM's name for it (hips, spine, leftUpperArm, ...)
  int node = -1;
};

struct VrmAvatar {
  int majorVersion = 0;  // 0 (VRM 0.x) or 1 (VRM 1.0)
  std::string title;     // the avatar's name as its meta gives it
  std::vector<VrmExpression> expressions;
  std::vector<VrmHumanBone> humanoid;
  std::vector<int> mtoonMaterials;  // materials whose MToon shading is drawn as base colour and shade

  int findExpression(std::string_view name) const;  // -1 when absent
};

// Sets, in `pose`, every morph weight an expression binds: `values` holds
// one weight per expression (missing ones count as 0). Nodes the pose has
// no weights for are skipped.
void applyVrmExpressions(const VrmAvatar& avatar, std::span<const double> values, GltfPose& pose);

}  // namespace riglens::core
