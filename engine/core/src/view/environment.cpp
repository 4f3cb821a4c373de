#include "riglens/core/view/environment.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

namespace riglens::core {

namespace {
constexpr double kPi = std::numbers::pi;
}

glm::vec3 equirectDirection(glm::vec2 uv) {
  const double phi = (double(uv.x) - 0.5) * 2.0 * kPi, theta = double(uv.y) * kPi;
  return glm::vec3(float(std::sin(theta) * std::sin(phi)), float(std::cos(theta)),
                   float(-std::sin(theta) * std::cos(phi)));
}

glm::vec2 equirectCoordinates(glm::vec3 direction) {
  const glm::dvec3 d = glm::normalize(glm::dvec3(direction));
  const double u = 0.5 + std::atan2(d.x, -d.z) / (2.0 * kPi);
  const double v = std::acos(std::clamp(d.y, -1.0, 1.0)) / kPi;
  return {float(u), float(v)};
}

double equirectTexelSolidAngle(int y, int width, int height) {
  // The band between the row's two latitudes, shared by its texels.
  const double top = kPi * y / height, bottom = kPi * (y + 1) / height;
  return 2.0 * kPi * (std::cos(top) - std::cos(bottom)) / width;
}

namespace {

// A rectangular softbox seen from the centre: bright inside its angular
// half-sizes, fading over `soft` radians at its edges.
struct Softbox {
  glm::vec3 centre;
  float halfWidth, halfHeight, soft;
  float radiance;
};

float softboxAt(const Softbox& box, glm::vec3 d) {
  const glm::vec3 c = glm::normalize(box.centre);
  const glm::vec3 right = glm::normalize(glm::cross(glm::vec3(0, 1, 0), -c));
  const glm::vec3 up = glm::cross(-c, right);
  const float z = glm::dot(d, c);
  if (z <= 0.0f) return 0.0f;
  const float ax = std::abs(std::atan2(glm::dot(d, right), z)), ay = std::abs(std::atan2(glm::dot(d, up), z));
  const auto inside = [&](float a, float half) { return std::clamp((half - a) / box.soft, 0.0f, 1.0f); };
  return box.radiance * inside(ax, box.halfWidth) * inside(ay, box.halfHeight);
}

glm::vec3 studioRadiance(glm::vec3 d) {
  // The room: a ceiling lighter towards the top, a darker floor, blended
  // over a few degrees at the horizon so no seam shows in a mirror.
  const float horizon = std::clamp(d.y / 0.06f + 0.5f, 0.0f, 1.0f);
  const glm::vec3 wall = glm::vec3(0.26f, 0.27f, 0.29f) + glm::vec3(0.22f) * std::max(d.y, 0.0f);
  const glm::vec3 floor(0.10f, 0.095f, 0.09f);
  glm::vec3 radiance = floor + (wall - floor) * horizon;
  static const Softbox kBoxes[] = {
      {{0.5f, 0.75f, 0.45f}, 0.38f, 0.26f, 0.06f, 7.0f},   // key: overhead, front right
      {{-0.9f, 0.15f, 0.3f}, 0.10f, 0.55f, 0.04f, 2.5f},   // fill: a tall strip on the left
      {{-0.25f, 0.35f, -0.9f}, 0.32f, 0.12f, 0.05f, 3.5f}  // rim: behind, above
  };
  for (const Softbox& box : kBoxes) radiance += glm::vec3(softboxAt(box, d));
  return radiance;
}

EnvironmentMap mapOf(std::string name, int width, glm::vec3 (*radiance)(glm::vec3, const void*), const void* ctx) {
  EnvironmentMap map;
  map.name = std::move(name);
  map.width = std::max(width, 4);
  map.height = map.width / 2;
  map.rgb.resize(std::size_t(map.width) * std::size_t(map.height) * 3);
  for (int y = 0; y < map.height; ++y)
    for (int x = 0; x < map.width; ++x) {
      const glm::vec3 d = equirectDirection({(x + 0.5f) / map.width, (y + 0.5f) / map.height});
      const glm::vec3 l = radiance(d, ctx);
      float* p = &map.rgb[(std::size_t(y) * std::size_t(map.width) + std::size_t(x)) * 3];
      p[0] = l.r, p[1] = l.g, p[2] = l.b;
    }
  return map;
}

}  // namespace

EnvironmentMap studioEnvironment(int width) {
  return mapOf(
      "studio", width, [](glm::vec3 d, const void*) { return studioRadiance(d); }, nullptr);
}

EnvironmentMap uniformEnvironment(glm::vec3 radiance, int width) {
  return mapOf(
      "uniform", width, [](glm::vec3, const void* l) { return *static_cast<const glm::vec3*>(l); }, &radiance);
}

EnvironmentMap downsampledEnvironment(const EnvironmentMap& map, int maxWidth) {
  int factor = 1;
  while (map.width / factor > std::max(maxWidth, 1) && map.height / (factor * 2) >= 1) factor *= 2;
  if (factor == 1) return map;
  EnvironmentMap out;
  out.name = map.name;
  out.warnings = map.warnings;
  out.width = map.width / factor;
  out.height = std::max(map.height / factor, 1);
  out.rgb.assign(std::size_t(out.width) * std::size_t(out.height) * 3, 0.0f);
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      glm::dvec3 sum(0.0);
      for (int j = 0; j < factor; ++j)
        for (int i = 0; i < factor; ++i) sum += glm::dvec3(map.texel(x * factor + i, y * factor + j));
      const glm::dvec3 mean = sum / double(factor * factor);
      float* p = &out.rgb[(std::size_t(y) * std::size_t(out.width) + std::size_t(x)) * 3];
      p[0] = float(mean.x), p[1] = float(mean.y), p[2] = float(mean.z);
    }
  return out;
}

}  // namespace riglens::core
