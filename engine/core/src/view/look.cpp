#include "riglens/core/view/look.h"

#include <glm/geometric.hpp>
#include <utility>

namespace riglens::core {

namespace {

constexpr std::pair<const char*, Look> kLooks[] = {{"review", Look::Review}, {"pbr", Look::Pbr}};
constexpr std::pair<const char*, ToneMap> kToneMaps[] = {
    {"neutral", ToneMap::PbrNeutral}, {"aces", ToneMap::Aces}, {"none", ToneMap::None}};

template <class Enum, std::size_t N>
const char* nameIn(const std::pair<const char*, Enum> (&table)[N], Enum value) {
  for (const auto& [name, v] : table)
    if (v == value) return name;
  return table[0].first;
}

template <class Enum, std::size_t N>
bool parseIn(const std::pair<const char*, Enum> (&table)[N], std::string_view name, Enum* value) {
  for (const auto& [n, v] : table)
    if (name == n) {
      *value = v;
      return true;
    }
  return false;
}

}  // namespace

const char* lookName(Look look) {
  return nameIn(kLooks, look);
}
bool parseLook(std::string_view name, Look* look) {
  return parseIn(kLooks, name, look);
}
const char* toneMapName(ToneMap toneMap) {
  return nameIn(kToneMaps, toneMap);
}
bool parseToneMap(std::string_view name, ToneMap* toneMap) {
  return parseIn(kToneMaps, name, toneMap);
}

std::vector<PunctualLight> studioLights() {
  // Travelling away from the review look's key (0.45, 0.8, 0.55) and fill
  // (-0.7, 0.2, -0.3); a key of 2.5 lux puts a white dielectric facing it
  // near 0.8 (2.5 / pi), short of the neutral tone map's compression.
  PunctualLight key, fill;
  key.direction = -glm::normalize(glm::vec3(0.45f, 0.8f, 0.55f));
  key.color = glm::vec3(2.5f);
  fill.direction = -glm::normalize(glm::vec3(-0.7f, 0.2f, -0.3f));
  fill.color = glm::vec3(0.8f);
  return {key, fill};
}

}  // namespace riglens::core
