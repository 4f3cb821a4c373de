// How models are shaded (issue 32). Review: the base colour under a key, a
// fill and a hemisphere, where the QA tints live. PBR: glTF 2.0's
// metallic-roughness model as its Appendix B writes it, lit by punctual
// lights and the environment, then exposed and tone-mapped.
#pragma once

#include <glm/vec3.hpp>
#include <string_view>
#include <vector>

namespace riglens::core {

enum class Look { Review, Pbr };
const char* lookName(Look look);  // "review", "pbr"
bool parseLook(std::string_view name, Look* look);

// The PBR look's tone mapping: Khronos PBR Neutral (the default, colours
// as authored up to 0.76 and compressed above), ACES filmic (Stephen Hill's
// fit, as the glTF Sample Viewer has it), or none (clamped).
enum class ToneMap { PbrNeutral, Aces, None };
const char* toneMapName(ToneMap toneMap);  // "neutral", "aces", "none"
bool parseToneMap(std::string_view name, ToneMap* toneMap);

// Exposure is given in stops; past +-20 (a million times brighter or darker)
// every picture is all white or all black, so the settings stop there.
inline constexpr double kMaxExposureStops = 20;

// A light in world space as the renderer takes it (KHR_lights_punctual's
// model): `direction` is the way the light travels (a directional or spot
// light's -z); `color` is linear and already scaled by the intensity
// (directional: lux, point and spot: candela).
struct PunctualLight {
  enum class Type { Directional, Point, Spot };
  Type type = Type::Directional;
  glm::vec3 position{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};
  glm::vec3 color{1.0f};
  float range = 0.0f;  // 0: unbounded (inverse square only)
  float innerConeAngle = 0.0f, outerConeAngle = 0.7853982f;
};

// The PBR look draws at most this many punctual lights (the file's first ones).
inline constexpr std::size_t kMaxPunctualLights = 8;

// The PBR look's lights for a file that brings none: a key and a fill, the
// review look's directions, over the environment.
std::vector<PunctualLight> studioLights();

}  // namespace riglens::core
