#include <algorithm>
#include <array>
#include <string_view>

#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/gltf/vrm.h"

namespace riglens::core {
namespace {

// The expressions each override reaches (three-vrm's VRMExpressionManager).
constexpr std::array<std::string_view, 3> kBlink = {"blink", "blinkLeft", "blinkRight"};
constexpr std::array<std::string_view, 4> kLookAt = {"lookLeft", "lookRight", "lookUp", "lookDown"};
constexpr std::array<std::string_view, 5> kMouth = {"aa", "ee", "ih", "oh", "ou"};

template <std::size_t N>
bool among(const std::array<std::string_view, N>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// What an expression shows: a binary one snaps at 0.5.
double outputWeight(const VrmExpression& e, double weight) {
  return e.binary ? (weight > 0.5 ? 1.0 : 0.0) : weight;
}

// How much an expression takes from the group its override reaches.
double overrideAmount(VrmOverride mode, double output) {
  if (mode == VrmOverride::Block) return output > 0.0 ? 1.0 : 0.0;
  return mode == VrmOverride::Blend ? output : 0.0;
}

}  // namespace

int VrmAvatar::findExpression(std::string_view name) const {
  for (std::size_t e = 0; e < expressions.size(); ++e)
    if (expressions[e].name == name) return int(e);
  return -1;
}

void applyVrmExpressions(const VrmAvatar& avatar, std::span<const double> values, GltfPose& pose) {
  const auto weightOf = [&](std::size_t e) { return e < values.size() ? values[e] : 0.0; };
  double blink = 1.0, lookAt = 1.0, mouth = 1.0;
  for (std::size_t e = 0; e < avatar.expressions.size(); ++e) {
    const VrmExpression& x = avatar.expressions[e];
    const double output = outputWeight(x, weightOf(e));
    blink -= overrideAmount(x.overrideBlink, output);
    lookAt -= overrideAmount(x.overrideLookAt, output);
    mouth -= overrideAmount(x.overrideMouth, output);
  }
  blink = std::max(0.0, blink), lookAt = std::max(0.0, lookAt), mouth = std::max(0.0, mouth);
  const auto slot = [&](const VrmMorphBind& bind) -> double* {
    if (bind.node < 0 || std::size_t(bind.node) >= pose.weights.size()) return nullptr;
    std::vector<double>& weights = pose.weights[std::size_t(bind.node)];
    return std::size_t(bind.target) < weights.size() ? &weights[std::size_t(bind.target)] : nullptr;
  };
  for (const VrmExpression& x : avatar.expressions)
    for (const VrmMorphBind& bind : x.binds)
      if (double* w = slot(bind)) *w = 0.0;
  for (std::size_t e = 0; e < avatar.expressions.size(); ++e) {
    const VrmExpression& x = avatar.expressions[e];
    double weight = outputWeight(x, weightOf(e));
    if (among(kBlink, x.name)) weight *= blink;
    if (among(kLookAt, x.name)) weight *= lookAt;
    if (among(kMouth, x.name)) weight *= mouth;
    if (x.binary && weight < 1.0) weight = 0.0;  // a binary expression overridden at all shows nothing
    for (const VrmMorphBind& bind : x.binds)
      if (double* w = slot(bind)) *w += bind.weight * weight;
  }
}

}  // namespace riglens::core
