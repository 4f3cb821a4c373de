#include "gltf/toon_material.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gltf/gltf_value_member.h"

namespace riglens::core {

namespace {

using Value = tinygltf::Value;

using gltf_json::member;

// A finite number at `key` of `object`, else `fallback`.
double number(const Value* object, const char* key, double fallback) {
  const Value* v = object ? member(*object, key) : nullptr;
  if (!v || !v->IsNumber()) return fallback;
  const double x = v->GetNumberAsDouble();
  return std::isfinite(x) ? x : fallback;
}

// A glTF index at `key` of `object`: a whole number 0..INT_MAX, else -1
// (a cast of a larger double to int is undefined).
int index(const Value* object, const char* key) {
  const double x = number(object, key, -1.0);
  return x >= 0.0 && x <= double(std::numeric_limits<int>::max()) ? int(x) : -1;
}

// Bounds that change no picture: a colour above this is white after any
// tone map at any exposure we offer (and its 2.2th power stays finite); a
// shift beyond +-2 already saturates the step for every N.L in [-1, 1];
// toony is 0..1 in the extension's schema.
constexpr double kColourBound = 1e4, kShiftBound = 2.0;

ToonShading bounded(ToonShading toon) {
  if (std::isnan(toon.shadingShift)) toon.shadingShift = 0.0f;  // 0.x's conversion of extreme values
  if (std::isnan(toon.shadingToony)) toon.shadingToony = 0.9f;
  toon.shadingShift = std::clamp(toon.shadingShift, float(-kShiftBound), float(kShiftBound));
  toon.shadingToony = std::clamp(toon.shadingToony, 0.0f, 1.0f);
  return toon;
}

// The first three finite numbers of an array at `key`, else `fallback`.
void colour(const Value* object, const char* key, const float fallback[3], float out[3]) {
  const Value* v = object ? member(*object, key) : nullptr;
  for (int c = 0; c < 3; ++c) {
    const Value* item = v && v->IsArray() && int(v->ArrayLen()) > c ? &v->Get(c) : nullptr;
    const double x = item && item->IsNumber() ? item->GetNumberAsDouble() : double(fallback[c]);
    out[c] = std::isfinite(x) ? float(std::clamp(x, 0.0, kColourBound)) : fallback[c];
  }
}

// VRM 1.0: the factors are the shader's as they stand.
ToonReading readV1(const tinygltf::Material& m, const Value& mtoon) {
  ToonReading out;
  ToonShading& toon = out.toon;
  toon.enabled = true;
  static constexpr float kBlack[3] = {0, 0, 0};  // the extension's default shade
  colour(&mtoon, "shadeColorFactor", kBlack, toon.shadeColor);
  toon.shadingShift = float(number(&mtoon, "shadingShiftFactor", 0.0));
  toon.shadingToony = float(number(&mtoon, "shadingToonyFactor", 0.9));
  if (const Value* shade = member(mtoon, "shadeMultiplyTexture")) {
    const int texture = index(shade, "index");
    toon.shadeTimesBaseTexture = texture >= 0 && texture == m.pbrMetallicRoughness.baseColorTexture.index;
    out.shadeTextureDropped = texture >= 0 && !toon.shadeTimesBaseTexture;
  }
  return out;
}

// VRM 0.x: Unity's MToon properties, converted as three-vrm's v0 compat
// plugin converts them (its colours are gamma-encoded: raised to 2.2).
ToonReading readV0(const tinygltf::Material& m, const Value& properties) {
  ToonReading out;
  ToonShading& toon = out.toon;
  toon.enabled = true;
  const Value* vectors = member(properties, "vectorProperties");
  const Value* floats = member(properties, "floatProperties");
  const Value* textures = member(properties, "textureProperties");
  static constexpr float kUnityDefaultShade[3] = {0.97f, 0.81f, 0.86f};  // three-vrm's fallback
  colour(vectors, "_ShadeColor", kUnityDefaultShade, toon.shadeColor);
  for (float& c : toon.shadeColor) c = std::pow(c, 2.2f);
  const double shift = number(floats, "_ShadeShift", 0.0);
  const double toony = number(floats, "_ShadeToony", 0.9);
  const double converted = toony + (1.0 - toony) * (0.5 + 0.5 * shift);  // lerp(toony, 1, 0.5 + 0.5 shift)
  toon.shadingToony = float(converted);
  toon.shadingShift = float(-shift - (1.0 - converted));
  const int shade = index(textures, "_ShadeTexture");
  toon.shadeTimesBaseTexture = shade >= 0 && shade == m.pbrMetallicRoughness.baseColorTexture.index;
  out.shadeTextureDropped = shade >= 0 && !toon.shadeTimesBaseTexture;
  return out;
}

}  // namespace

ToonReading readToonShading(const tinygltf::Model& model, int material) {
  if (material < 0 || material >= int(model.materials.size())) return {};
  const tinygltf::Material& m = model.materials[std::size_t(material)];
  if (const auto it = m.extensions.find("VRMC_materials_mtoon"); it != m.extensions.end() && it->second.IsObject()) {
    ToonReading out = readV1(m, it->second);
    out.toon = bounded(out.toon);
    return out;
  }
  const auto vrm = model.extensions.find("VRM");
  if (vrm == model.extensions.end()) return {};
  const Value* all = member(vrm->second, "materialProperties");
  if (!all || !all->IsArray() || material >= int(all->ArrayLen())) return {};
  const Value& properties = all->Get(material);
  const Value* shader = member(properties, "shader");
  if (!shader || !shader->IsString() || shader->Get<std::string>() != "VRM/MToon") return {};
  ToonReading out = readV0(m, properties);
  out.toon = bounded(out.toon);
  return out;
}

}  // namespace riglens::core
