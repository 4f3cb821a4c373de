#include "riglens/core/rig/rig_tints.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace riglens::core {
namespace {

glm::vec3 hsvToLinear(double h, double s, double v) {
  h = h - std::floor(h);
  const double i = std::floor(h * 6.0), f = h * 6.0 - i;
  const double p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
  glm::dvec3 srgb;
  switch (static_cast<int>(i) % 6) {
    case 0: srgb = {v, t, p}; break;
    case 1: srgb = {q, v, p}; break;
    case 2: srgb = {p, v, t}; break;
    case 3: srgb = {p, q, v}; break;
    case 4: srgb = {t, p, v}; break;
    default: srgb = {v, p, q}; break;
  }
  // The hues are picked for the eye (sRGB); the renderer works in linear.
  const auto toLinear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
  return {float(toLinear(srgb.x)), float(toLinear(srgb.y)), float(toLinear(srgb.z))};
}

constexpr double kGolden = 0.618033988749895;
constexpr std::array<std::pair<const char*, TintMode>, 6> kModes{{{"color", TintMode::Color},
                                                                  {"part", TintMode::Part},
                                                                  {"joint", TintMode::Joint},
                                                                  {"normals", TintMode::Normals},
                                                                  {"wireframe", TintMode::Wireframe},
                                                                  {"sockets", TintMode::Sockets}}};

}  // namespace

const char* tintModeName(TintMode mode) {
  for (const auto& [name, m] : kModes)
    if (m == mode) return name;
  return "color";
}

bool parseTintMode(std::string_view name, TintMode* mode) {
  for (const auto& [n, m] : kModes)
    if (name == n) {
      *mode = m;
      return true;
    }
  return false;
}

std::vector<glm::vec3> distinctColors(std::size_t n) {
  std::vector<glm::vec3> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(hsvToLinear(0.08 + kGolden * double(i), 0.65, 0.95));
  return out;
}

std::vector<glm::vec3> partTints(const Rig& rig) {
  return distinctColors(rig.parts().size());
}

std::vector<float> boneWeightTints(const SkinData& skin) {
  const auto colors = distinctColors(skin.boneNames.size());
  const std::size_t vertices = skin.vertexCount();
  std::vector<float> out(vertices * 3, 0.0f);
  for (std::size_t v = 0; v < vertices; ++v) {
    glm::vec3 sum(0.0f);
    float total = 0.0f;
    for (std::size_t k = 0; k < 4; ++k) {
      const std::uint32_t bone = skin.joint(v, k);
      const float w = skin.weight(v, k);
      if (bone >= colors.size() || !(w > 0.0f)) continue;
      sum += w * colors[bone];
      total += w;
    }
    const glm::vec3 c = total > 0.0f ? sum / total : glm::vec3(0.5f);
    for (int i = 0; i < 3; ++i) out[v * 3 + std::size_t(i)] = c[i];
  }
  return out;
}

int movingJoint(const Rig& rig, int part) {
  for (int p = part; p != kNoIndex; p = rig.parts()[p].parent)
    if (!rig.parts()[p].joints.empty()) return rig.parts()[p].joints.back();
  return kNoIndex;
}

std::vector<glm::vec3> jointTints(const Rig& rig) {
  // Warm hues (red..yellow) for caller joints, cool (cyan..violet) for auto.
  std::vector<glm::vec3> jointColor(rig.joints().size());
  int caller = 0, automatic = 0;
  for (std::size_t j = 0; j < rig.joints().size(); ++j) {
    if (rig.joints()[j].drive == Drive::Caller)
      jointColor[j] = hsvToLinear(0.0 + 0.16 * std::fmod(kGolden * caller++, 1.0), 0.8, 0.95);
    else
      jointColor[j] = hsvToLinear(0.48 + 0.28 * std::fmod(kGolden * automatic++, 1.0), 0.7, 0.9);
  }
  std::vector<glm::vec3> out;
  for (std::size_t p = 0; p < rig.parts().size(); ++p) {
    const int j = movingJoint(rig, static_cast<int>(p));
    out.push_back(j == kNoIndex ? glm::vec3(0.25f) : jointColor[j]);
  }
  return out;
}

}  // namespace riglens::core
